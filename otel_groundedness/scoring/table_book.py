"""``TableBook``: the tables of one call's evidence, read on first use.

Made when an answer figure misses a direct match (``EvidenceIndex.tables``), read from the text
fragments that may hold a table (markdown, CSV/TSV, HTML) and the JSON arrays of rows or records
the corpus walk noted. Every step is paid for before it starts (``BudgetSpent`` when it cannot
be): a probe per 32 characters of text read and per JSON array, a candidate per cell made. It
offers the cells sorted by their value at scale, for the answer figures that match no evidence
value as it stands: "$1,502.7 million" for "1,502.7" under "(In millions)", "$1.26" for a cell
too short to be an atom of the evidence text.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

from otel_groundedness.scoring.budget import CANDIDATE, PROBE, WorkBudget
from otel_groundedness.scoring.corpus import Corpus, RawScalar
from otel_groundedness.scoring.index import Hit
from otel_groundedness.scoring.table_json import head_has_note, json_grid
from otel_groundedness.scoring.table_text import may_hold_table, text_tables
from otel_groundedness.scoring.tables import MAX_TABLES, Cell, Table, make_table, scale_note

_CHARS_PER_PROBE = 32
_CAPTION_VALUE = 200  # characters of one string beside a JSON table read for its scale note
_CAPTION_VALUES = 8
_PER_LOOKUP = 8


class TableBook:
    """The evidence's tables (at most ``MAX_TABLES``), read in two parts on first use.

    A direct lookup (``cells_within``) needs only the tables whose cells are not evidence values
    as they stand: text tables (a short cell is no atom of the text) and JSON tables with a
    scale note. The derivation search (``tables``) needs every table, JSON ones without a note
    too; it reads them only when a worded figure asks.
    """

    def __init__(self, corpus: Corpus, budget: WorkBudget) -> None:
        self._corpus = corpus
        self._budget = budget
        self._text: list[Table] | None = None
        self._noted: list[Table] | None = None  # JSON tables with a scale note
        self._all: list[Table] | None = None
        self._values: dict[bool, list[float]] = {}
        self._cells: dict[bool, list[Cell]] = {}

    def tables(self) -> list[Table]:
        """Every table, text ones first."""
        if self._all is None:
            self._all = (self._text_tables() + self._json_tables(noted=False))[:MAX_TABLES]
        return self._all

    def cells_within(self, low: float, high: float, percent: bool) -> list[Cell]:
        """Cells (percents, or figures) whose value at scale is in [low, high] (at most eight) of
        the tables a direct lookup reads."""
        if not self._values:
            self._sort_cells()
        values = self._values[percent]
        start = bisect.bisect_left(values, low)
        end = bisect.bisect_right(values, high, start, min(len(values), start + _PER_LOOKUP))
        return self._cells[percent][start:end]

    def _sort_cells(self) -> None:
        """Every looked-up cell at its scale, percents apart."""
        if self._noted is None:
            self._noted = self._json_tables(noted=True)
        looked_up = self._text_tables() + self._noted
        for percent in (False, True):
            ordered = sorted(
                (
                    (cell.value * 10.0**cell.power, cell)
                    for table in looked_up
                    for cell in table.cells
                    if cell.percent == percent
                ),
                key=lambda pair: pair[0],
            )
            self._values[percent] = [value for value, _ in ordered]
            self._cells[percent] = [cell for _, cell in ordered]

    def _text_tables(self) -> list[Table]:
        if self._text is None:
            budget = self._budget
            found: list[Table] = []
            seen: set[int] = set()
            # Most fragments are one-line values: a table needs a line break or a "<table".
            candidates = [
                fragment
                for fragment in self._corpus.fragments
                if "\n" in fragment.text or "<" in fragment.text
            ]
            for fragment in candidates:
                text = fragment.text
                if len(found) >= MAX_TABLES or id(text) in seen or not may_hold_table(text):
                    continue
                seen.add(id(text))
                budget.pay(PROBE * (len(text) // _CHARS_PER_PROBE + 1))
                for grid, caption in text_tables(text, fragment.path):
                    budget.pay(CANDIDATE * sum(len(row) for row in grid))
                    _add(found, make_table(grid, fragment.source, caption))
            self._text = found
        return self._text

    def _json_tables(self, noted: bool) -> list[Table]:
        """The JSON tables (``noted``: only those with a scale note beside or above them)."""
        budget = self._budget
        found: list[Table] = []
        for source, path, rows, siblings in self._corpus.arrays:
            if len(found) >= MAX_TABLES:
                break
            budget.pay(PROBE)
            caption = _caption(siblings)
            if noted and scale_note(caption) is None and not head_has_note(rows):
                continue
            grid = json_grid(rows, path)
            if grid is not None:
                budget.pay(CANDIDATE * sum(len(row) for row in grid))
                _add(found, make_table(grid, source, caption))
        return found


def _add(tables: list[Table], table: Table | None) -> None:
    if table is not None and len(tables) < MAX_TABLES:
        tables.append(table)


def _caption(siblings: Mapping[Any, Any] | None) -> str:
    """The short strings of the object holding a JSON table ("unit": "(In millions)")."""
    if siblings is None:
        return ""
    texts = [value for value in siblings.values() if isinstance(value, str) and len(value) <= _CAPTION_VALUE]
    return " ".join(texts[:_CAPTION_VALUES])


def cell_hit(cell: Cell, scaled: bool) -> Hit:
    """The cell as evidence a verdict cites: its value (at scale when ``scaled``), its row label
    and column headers (a record's cell: its JSON path), and where it sits."""
    where = cell.where
    value = cell.value * 10.0**cell.power if scaled else cell.value
    # A record's cell is cited by its JSON path, as keyed evidence always was; its record gives
    # its label words.
    label = None if where.record is not None else cell.cited()
    origin = RawScalar(
        cell.source, where.path, value, where.text, cell.currency, where.record, where.start, where.end, label
    )
    return Hit("raw", origin, None, value)
