"""Table readers for JSON: an array of rows whose first row(s) are headers, and an array of records.

``[["", "2024", "2023"], ["Total assets", "$ 4,812.6", "$ 4,377.9"]]`` is a grid as it stands.
An array of records whose first key names a line item or a period, or whose other keys name
periods (``{"item": "Revenue", "2024": 4812.6}``, ``{"period": "2024", "revenue": "4,669.9"}``),
is one too: its keys are the header row and each record's first value its row label. Other
records (orders, invoices) and lists of more than ``MAX_RECORDS`` records are data, not a table a
person reads: they are left to the operand families, whose label words read the keys. Each
cell's citation is its JSON path. Linear in the cells read, capped at ``MAX_TABLE_CELLS``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from otel_groundedness.scoring.corpus import Path, sibling_currency
from otel_groundedness.scoring.label_words import words
from otel_groundedness.scoring.operand_families import names_no_quantity
from otel_groundedness.scoring.tables import MAX_CELL_CHARS, MAX_TABLE_CELLS, RawCell, scale_note

Grid = list[list[RawCell]]
MAX_RECORDS = 200
# A record is a line of a table when its first key names a period or a line item, or its other
# keys name periods ({"item": "Revenue", "2024": 4812.6}).
_LINE_KEY_WORDS = frozenset(
    {
        "period", "year", "fiscal", "quarter", "month", "week", "day", "date",
        "item", "metric", "measure", "kpi", "label", "name", "account",
        "segment", "category", "region", "source", "product", "description",
    }
)  # fmt: skip
_PERIOD_KEY = re.compile(r"(?:19|20)\d{2}|\bq[1-4]\b", re.IGNORECASE)


def json_grid(rows: Sequence[Any], path: Path) -> Grid | None:
    """The grid of a JSON array of rows or of period-keyed records, or None."""
    first = rows[0]
    if isinstance(first, list | tuple):
        return _rows(rows, path)
    if isinstance(first, Mapping):
        return _records(rows, path)
    return None


def head_has_note(rows: Sequence[Any]) -> bool:
    """Whether the header holds a scale note: the first row's cells, or the first record's keys
    ("(In millions)", "revenue_usd_m" is a key the index reads already)."""
    first = rows[0]
    texts: Iterable[Any] = (
        first if isinstance(first, list | tuple) else first.keys() if isinstance(first, Mapping) else ()
    )
    return any(
        isinstance(text, str) and len(text) <= MAX_CELL_CHARS and scale_note(text) is not None
        for text in texts
    )


def _cell(
    value: Any, path: Path, currency: str | None = None, record: Mapping[Any, Any] | None = None
) -> RawCell:
    if isinstance(value, bool) or value is None:
        return RawCell("", path)
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # an int past a float's range states no figure
            return RawCell("", path)
        if number - number != 0.0:  # inf or nan
            return RawCell("", path)
        return RawCell(
            repr(number) if isinstance(value, int) and abs(value) > 2**53 else repr(value),
            path,
            number=number,
            currency=currency,
            record=record,
        )
    text = value if isinstance(value, str) else ""
    return RawCell(text if len(text) <= MAX_CELL_CHARS else "", path, record=record)


def _rows(rows: Sequence[Any], path: Path) -> Grid | None:
    grid: Grid = []
    cells = 0
    for number, row in enumerate(rows[:MAX_TABLE_CELLS]):  # empty rows count too
        if not isinstance(row, list | tuple):
            return None  # a list of mixed things is no table
        row_path = (path, number)
        cells += len(row)
        if cells > MAX_TABLE_CELLS:
            break
        grid.append([_year_or_cell(value, (row_path, column), number) for column, value in enumerate(row)])
    return grid


def _year_or_cell(value: Any, path: Path, row: int) -> RawCell:
    """A JSON integer year in the first row is a header ("2024"), not a figure."""
    if row == 0 and type(value) is int and 1900 <= value < 2100:
        return RawCell(str(value), path)
    return _cell(value, path)


def _records(rows: Sequence[Any], path: Path) -> Grid | None:
    keys: list[str] = []
    for key in rows[0]:
        if not isinstance(key, str):
            return None
        keys.append(key)
    if len(rows) > MAX_RECORDS or len(keys) < 2 or not isinstance(rows[0].get(keys[0]), str):
        return None
    if not any(_PERIOD_KEY.search(key) for key in keys[1:]) and not _LINE_KEY_WORDS.intersection(
        words(keys[0])
    ):
        return None  # rows of data (orders, invoices): the operand families read their keys
    excluded = {key for key in keys[1:] if names_no_quantity(key)}  # ids, years, codes: no figures
    grid: Grid = [[RawCell(key, (path, key)) for key in keys]]
    cells = len(keys)
    for number, record in enumerate(rows):
        if not isinstance(record, Mapping):
            return None
        record_path = (path, number)
        cells += len(keys)
        if cells > MAX_TABLE_CELLS:
            break
        currency = sibling_currency(record)
        grid.append(
            [
                RawCell("", None)
                if key in excluded
                else _cell(record.get(key), (record_path, key), currency, record)
                for key in keys
            ]
        )
    return grid
