"""Operands chosen by labels: the derivation search over table cells the question names.

The label words (and years, quarters, months) of the answer's sentence, its previous sentence
and the turn's question pick rows and columns: a row or column is picked when its label words
meet the asked words and no other row (column) of its table meets a strict superset of them
("operating income" picks "Operating income", not "Net income"; "revenue" and "operating
income" pick both). Columns are picked by the words no picked row answers to ("share of total
revenue in 2024": the 2024 column, not "% of total 2024"), else by all of them. The words of a
change ("change", "increase") pick nothing: they say what is computed, not from what. The
search tries, in tiers:

0. the cells stating what the sentence's other figures matched ("rose from 165,610 to 193,058,
   a rise of 16.57%");
1. the cells at the intersections of the picked rows and columns ("operating income", "2023 and
   2024": two cells), as one family per picked row and per picked column;
2. then those intersections together (several rows and columns named);
3. then every picked row and every picked column as a whole.

Each tier is searched family by family, those of the tables whose labels meet the most asked
words first. A family counts its candidates before it is searched and is skipped (not tried, not
counted) when even an exact hit among all candidates tried so far and its own could be an
accident; the best result so far is accepted by the chance rule of ``scoring.derivations`` over
the candidates tried: so two cells named by the question allow a two-decimal percentage that a
whole-table search could not. Differences and averages spread over their operands' magnitude,
so for them the rule reads the larger of the figure's scale and the operands'.

Pairs share a row, a column or a line item (the same label in another block of the table). A
change reads newer minus older when both cells name periods (one candidate); otherwise both
orders are tried (two). Sums, differences and averages combine cells of one scale; the answer's
figure is compared at the cells' scale when it writes a magnitude ("434.7 million").
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from itertools import combinations

from otel_groundedness.scoring.budget import PROBE, WorkBudget
from otel_groundedness.scoring.derivation import Derivation
from otel_groundedness.scoring.results import DerivedOperation
from otel_groundedness.scoring.table_book import cell_hit
from otel_groundedness.scoring.tables import Cell, Table

CHANCE_LIMIT = 0.05
PERCENT_SCALE = 100.0
MAX_FAMILY = 24  # cells of one family combined pairwise (a picked row of a wide table, a column)
_MAGNITUDE = re.compile(r"\d\s*(?:k|m|mn|bn|b|thousand|million|billion|trillion)\b", re.IGNORECASE)


class TableTarget:
    """The answer figure as the table search sees it."""

    __slots__ = ("currency", "floor", "goal", "magnitude", "operations", "percent", "reach", "scale")

    def __init__(
        self,
        value: float,
        tolerance: float,
        floor: float,
        text: str,
        percent: bool,
        decrease: bool,
        operations: frozenset[DerivedOperation],
        currency: str | None,
    ) -> None:
        self.goal = -value if decrease and value > 0 else value
        self.reach = tolerance + 1e-9 * max(1.0, abs(value))
        self.floor = floor
        self.percent = percent
        self.scale = max(abs(value), PERCENT_SCALE) if percent else abs(value)
        self.magnitude = _MAGNITUDE.search(text) is not None
        self.operations = operations
        self.currency = currency

    def chance(self, candidates: int, distance: float, spread: float = 0.0) -> float:
        """Expected accidental hits at least ``distance`` close among ``candidates`` results
        spread over the figure's scale, or over ``spread`` (the operands') when it is wider."""
        return candidates * 2.0 * max(distance, self.floor) / max(self.scale, spread)

    def spread(self, family: list[Cell]) -> float:
        """How far the family's differences and averages range, at the figure's scale: a change
        of 12 between cells near 200 is one value among about 400, not among 12."""
        if self.percent:
            return 0.0
        return max(abs(cell.value) * (10.0**cell.power if self.magnitude else 1.0) for cell in family)


def picked(labels: dict[int, frozenset[str]], asked: frozenset[str]) -> list[int]:
    """The rows (columns) whose label words meet ``asked`` and are no strict subset of another's match."""
    matched = {number: words & asked for number, words in labels.items()}
    matched = {number: found for number, found in matched.items() if found}
    return [
        number for number, found in matched.items() if not any(found < other for other in matched.values())
    ]


def table_derivation(
    tables: list[Table], target: TableTarget, asked: frozenset[str], cited: list[float], budget: WorkBudget
) -> Derivation | None:
    """A derivation of the target from the cells its sentence cites ("rose from 165,610 to
    193,058, a rise of 16.57%": the values ``cited``) or the asked words pick, passing the
    chance rule."""
    stages: list[tuple[int, int, int, list[Cell]]] = []  # (tier, -match strength, order, family)
    if cited:
        stages.append((-1, 0, 0, _cited_cells(tables, cited)))
    for table in tables:
        rows, row_score = _picked_with_score(table.row_words, asked)
        # A word a picked row answers to names that row, not a column: "share of total revenue
        # in 2024" picks the 2024 column, not "% of total 2024" (unless nothing else is left).
        used = frozenset().union(*(table.row_words[row] & asked for row in rows))
        columns, column_score = _picked_with_score(table.column_words, asked - used)
        if not columns:
            columns, column_score = _picked_with_score(table.column_words, asked)
        strength = -(row_score + column_score)
        if rows and columns:
            named = [cell for cell in table.cells if cell.row in rows and cell.column in columns]
            for family in _families(named, rows, columns):
                stages.append((0, strength, len(stages), family))  # the named cells of one row (column)
            if len(rows) > 1 and len(columns) > 1:
                stages.append((1, strength, len(stages), named))
        for family in _families(table.cells, rows, columns):
            stages.append((2, strength, len(stages), family))
    stages.sort(key=lambda stage: stage[:3])
    count = 0
    spread = math.inf  # the narrowest spread of the families tried: the rule reads the strictest
    tried: set[tuple[int, ...]] = set()
    best: tuple[float, DerivedOperation, tuple[Cell, ...], float] | None = None
    for _, _, _, family in stages:
        key = tuple(id(cell) for cell in family)
        if not 2 <= len(family) <= MAX_FAMILY or key in tried:
            continue
        tried.add(key)
        budget.pay(PROBE * len(family) ** 2)
        candidates = list(_candidates(family, target))
        own = min(spread, target.spread(family))
        if not candidates or target.chance(count + len(candidates), 0.0, own) > CHANCE_LIMIT:
            continue  # not tried: even an exact hit among this many could be an accident
        count += len(candidates)
        spread = own
        for operation, cells, result in candidates:
            distance = abs(result - target.goal)
            if distance <= target.reach and (best is None or distance < best[0]):
                best = (distance, operation, cells, result)
        if best is not None and target.chance(count, best[0], spread) <= CHANCE_LIMIT:
            distance, operation, cells, result = best
            scaled = target.magnitude and operation in ("sum", "difference", "average")
            return Derivation(operation, tuple(cell_hit(cell, scaled) for cell in cells), result)
    return None


def _cited_cells(tables: list[Table], cited: list[float]) -> list[Cell]:
    """The cells stating the values other figures of the sentence matched (at most ``MAX_FAMILY``)."""
    values = set(cited)
    found = [
        cell
        for table in tables
        for cell in table.cells
        if cell.value in values or cell.value * 10.0**cell.power in values
    ]
    return found[:MAX_FAMILY]


def _picked_with_score(labels: dict[int, frozenset[str]], asked: frozenset[str]) -> tuple[set[int], int]:
    """The picked rows (columns) and how many asked words the best of them meets."""
    chosen = picked(labels, asked)
    return set(chosen), max((len(labels[number] & asked) for number in chosen), default=0)


def _families(cells: list[Cell], rows: set[int], columns: set[int]) -> Iterable[list[Cell]]:
    """The cells of each picked row, then of each picked column."""
    for row in sorted(rows):
        yield [cell for cell in cells if cell.row == row]
    for column in sorted(columns):
        yield [cell for cell in cells if cell.column == column]


def _candidates(
    family: list[Cell], target: TableTarget
) -> Iterable[tuple[DerivedOperation, tuple[Cell, ...], float]]:
    """Every (operation, operands in formula order, result) the family offers the target."""
    operations = target.operations
    if target.currency is not None:  # "$2,000.00" is no sum of euro amounts
        family = [cell for cell in family if cell.currency in (None, target.currency)]
    whole = [cell for cell in family if cell.percent == target.percent]  # a row's figures, not its % column
    if len(whole) >= 2 and ("average" in operations or ("sum" in operations and len(whole) >= 3)):
        same = _one_scale(whole, target)
        if same is not None:
            total = math.fsum(cell.value for cell in whole) * same
            if "sum" in operations and len(whole) >= 3:
                yield "sum", tuple(whole), total
            if "average" in operations:
                yield "average", tuple(whole), total / len(whole)
    for first, second in combinations(family, 2):
        if first.row != second.row and first.column != second.column and first.label != second.label:
            continue  # another row and another column, and another line item: nothing relates them
        for newer, older in _orders(first, second):
            yield from _pair(newer, older, target)
        if "sum" in operations:
            same = _one_scale((first, second), target)
            if same is not None:
                yield "sum", (first, second), (first.value + second.value) * same


def _orders(first: Cell, second: Cell) -> list[tuple[Cell, Cell]]:
    """(newer, older) when both columns name different years, else both orders."""
    if first.year is not None and second.year is not None and first.year != second.year:
        return [(first, second) if first.year > second.year else (second, first)]
    return [(first, second), (second, first)]


def _pair(
    newer: Cell, older: Cell, target: TableTarget
) -> Iterable[tuple[DerivedOperation, tuple[Cell, ...], float]]:
    operations = target.operations
    same = _one_scale((newer, older), target)
    if "difference" in operations and same is not None:
        yield "difference", (newer, older), (newer.value - older.value) * same
    if (
        "pp_difference" in operations
        and newer.percent == older.percent
        and newer.currency is None
        and older.currency is None
    ):  # two percents, or two plain figures a percent-point answer reads as such ("occupancy")
        yield "pp_difference", (newer, older), newer.value - older.value
    if older.value == 0 or newer.percent != older.percent:
        return
    if "pct_change" in operations:
        yield "pct_change", (newer, older), (newer.value - older.value) / abs(older.value) * 100.0
    if "ratio" in operations:
        ratio = newer.value / older.value * 10.0 ** (newer.power - older.power)
        yield "ratio", (newer, older), ratio * 100.0 if target.percent else ratio


def _one_scale(cells: Iterable[Cell], target: TableTarget) -> float | None:
    """The factor a sum, difference or average of ``cells`` is read at: their scale's power of
    ten when the answer writes a magnitude, else 1; None when they mix scales or percents with
    figures."""
    kinds = {(cell.power, cell.percent) for cell in cells}
    if len(kinds) != 1:
        return None
    power, _ = kinds.pop()
    return 10.0**power if target.magnitude else 1.0
