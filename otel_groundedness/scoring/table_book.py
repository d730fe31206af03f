"""``TableBook``: the tables of one call's evidence, read on first use.

Built only when an answer figure misses a direct match (``EvidenceIndex.tables``): from the text
fragments that may hold a table (markdown, CSV/TSV, HTML) and the JSON arrays of rows or records
the corpus walk noted. Every step is paid for before it starts (``BudgetSpent`` when it cannot
be): a probe per 32 characters of text read and per JSON array, a candidate per cell made. It
also offers every cell sorted by its value at scale, for the answer figures that match no
evidence atom: "$1,502.7 million" for "1,502.7" under "(In millions)", "$1.26" for a cell too
short to be an atom of the evidence text.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

from otel_groundedness.scoring.budget import CANDIDATE, PROBE, WorkBudget
from otel_groundedness.scoring.corpus import Corpus, RawScalar
from otel_groundedness.scoring.index import Hit
from otel_groundedness.scoring.table_json import json_grid
from otel_groundedness.scoring.table_text import may_hold_table, text_tables
from otel_groundedness.scoring.tables import MAX_TABLES, Cell, Table, make_table

_CHARS_PER_PROBE = 32
_CAPTION_VALUE = 200  # characters of one string beside a JSON table read for its scale note
_CAPTION_VALUES = 8
_PER_LOOKUP = 8


class TableBook:
    """Every table of the evidence (at most ``MAX_TABLES``) and its scaled cells by value."""

    def __init__(self, corpus: Corpus, budget: WorkBudget) -> None:
        self.tables: list[Table] = []
        seen: set[int] = set()
        for fragment in corpus.fragments:
            text = fragment.text
            if len(self.tables) >= MAX_TABLES or id(text) in seen or not may_hold_table(text):
                continue
            seen.add(id(text))
            budget.pay(PROBE * (len(text) // _CHARS_PER_PROBE + 1))
            for grid, caption in text_tables(text, fragment.path):
                budget.pay(CANDIDATE * sum(len(row) for row in grid))
                self._add(make_table(grid, fragment.source, caption))
        for source, path, rows, siblings in corpus.arrays:
            if len(self.tables) >= MAX_TABLES:
                break
            budget.pay(PROBE)
            rows_grid = json_grid(rows, path)
            if rows_grid is not None:
                budget.pay(CANDIDATE * sum(len(row) for row in rows_grid))
                self._add(make_table(rows_grid, source, _caption(siblings)))
        # Every cell at its scale, percents apart: short cells ("1.26") are no evidence atoms.
        self._values: dict[bool, list[float]] = {}
        self._cells: dict[bool, list[Cell]] = {}
        for percent in (False, True):
            ordered = sorted(
                (
                    (cell.value * 10.0**cell.power, cell)
                    for table in self.tables
                    for cell in table.cells
                    if cell.percent == percent
                ),
                key=lambda pair: pair[0],
            )
            self._values[percent] = [value for value, _ in ordered]
            self._cells[percent] = [cell for _, cell in ordered]

    def _add(self, table: Table | None) -> None:
        if table is not None and len(self.tables) < MAX_TABLES:
            self.tables.append(table)

    def cells_within(self, low: float, high: float, percent: bool) -> list[Cell]:
        """Cells (percents, or figures) whose value at scale is in [low, high] (at most eight)."""
        values = self._values[percent]
        start = bisect.bisect_left(values, low)
        end = bisect.bisect_right(values, high, start, min(len(values), start + _PER_LOOKUP))
        return self._cells[percent][start:end]


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
