"""Derived values: an answer figure that matches no evidence value may be computed from related ones.

When the wording next to the figure names a computation (``scoring.derivation_cues``), the search
tries the operations it allows over operand families (``scoring.operand_families``): the sum or
difference of two members, the sum or average of a whole family, a percentage change, a ratio or
percentage of, a product. A result matches at the answer's precision, the same rule as a direct
match (``|result - figure| <= tolerance``), so the answer may round it.

Chance rule. The more candidates are compared, the likelier one lands on the figure by accident.
Families are tried in two tiers: those sharing label words with the answer figure (plus one
family of every figure that does), then all of them. A tier counts its candidates ``N`` before it
is searched; the best match found, at distance ``d`` from the figure, is accepted only when

    N * 2 * max(d, p) / scale <= CHANCE_LIMIT

where ``p`` is half a unit of the figure's last written digit and ``scale`` is the figure's
magnitude (at least 100 for a percent, whose derived values spread over about a hundred points).
The left side is the expected number of accidental hits at least that close among ``N`` results
spread over ``scale``: with ``CHANCE_LIMIT`` 0.05, a figure that is not derived is excused by a
chance hit at most one time in twenty, and far less for figures of four or more digits. A tier
whose count fails the rule even for an exact hit is not searched at all; families with more than
``max_operands`` members are never used, and a tier stops adding families at ``max_candidates``.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Iterable
from typing import TypeAlias

from otel_groundedness.scoring.atoms import Atom, Quantity
from otel_groundedness.scoring.budget import CANDIDATE, PROBE
from otel_groundedness.scoring.derivation import Derivation
from otel_groundedness.scoring.derivation_cues import (
    CHANGE_WORDS,
    cued_operations,
    operations_in,
    table_operations,
)
from otel_groundedness.scoring.index import EvidenceIndex, EvidenceNeeds, Hit
from otel_groundedness.scoring.label_words import AtomContext
from otel_groundedness.scoring.operand_families import Operands, anchored, tied_families
from otel_groundedness.scoring.results import DERIVED_OPERATIONS, DerivedOperation
from otel_groundedness.scoring.table_derivations import TableTarget, table_derivation
from otel_groundedness.scoring.tables import acronyms, tokens

CHANCE_LIMIT = 0.05
PERCENT_SCALE = 100.0
# Candidates per pair of family members, by operation: ratios and changes are ordered.
_PER_PAIR: dict[DerivedOperation, int] = {
    "sum": 1,
    "difference": 1,
    "product": 1,
    "ratio": 2,
    "pct_change": 2,
    "average": 0,
}
# The operations the operand families are searched for: a percent is never an operand there.
_PERCENT_OPERATIONS: frozenset[DerivedOperation] = frozenset(("pct_change", "ratio"))
_FIGURE_OPERATIONS: frozenset[DerivedOperation] = frozenset(_PER_PAIR)
QUESTION_CHARS = 2000
_SCAN = 4  # values read past a bisection: equal values repeat, the first few decide


class _Best:
    """The closest match found so far in one tier."""

    __slots__ = ("distance", "operands", "operation", "value")

    def __init__(self) -> None:
        self.distance = math.inf
        self.operation: DerivedOperation | None = None
        self.operands: tuple[int, ...] = ()
        self.value = 0.0

    def offer(
        self, distance: float, operation: DerivedOperation, operands: tuple[int, ...], value: float
    ) -> None:
        if distance < self.distance:
            self.distance, self.operation, self.operands, self.value = distance, operation, operands, value


class Deriver:
    """The derivation search of one ``score`` call; its operand families are built on first use."""

    def __init__(
        self, index: EvidenceIndex, max_operands: int, max_candidates: int, question: str | None = None
    ) -> None:
        self._index = index
        # The turn's question, its last ``QUESTION_CHARS`` (a prompt ends with what it asks).
        self._question = (question or "")[-QUESTION_CHARS:]
        self._question_tokens: frozenset[str] | None = None
        self._operations: dict[int, frozenset[DerivedOperation]] = {}  # by answer atom start
        self._max_operands = max_operands
        self._max_candidates = max_candidates
        self._operands: Operands | None = None
        # Evidence supporting answer atoms, and where those atoms start, in answer order.
        self._cited: list[Hit] = []
        self._cited_starts: list[int] = []
        self._views: dict[tuple[int | None, str, str | None, str | None], _View | None] = {}

    def operations(self, atom: Atom, quantity: Quantity, around: AtomContext) -> frozenset[DerivedOperation]:
        """The operations the wording around the figure allows, else those its whole sentence, the
        question restated before it or the turn's question asks for ("What was the percentage
        change ...?" / "It is -6.31%."); none: no derivation is looked for (a question about one
        value never asks for one)."""
        value = quantity.value
        if value == 0 or not math.isfinite(value):
            return frozenset()
        known = self._operations.get(atom.start)  # asked again by the sentence's second search
        if known is not None:
            return known
        percent = atom.kind == "percent"
        found = cued_operations(around, percent)
        if not found and around.beyond_window():
            found = operations_in(around.sentence_text(), percent)
        found = (
            found
            or operations_in(around.previous_question(), percent)
            or operations_in(self._question, percent)
        )
        self._operations[atom.start] = found
        return found

    def derive(self, atom: Atom, quantity: Quantity, around: AtomContext) -> Derivation | None:
        """A derivation of ``quantity`` that passes the chance rule, or None: over the table cells
        the asked labels pick first (``scoring.table_derivations``), then over the operand
        families. Raises ``BudgetSpent`` when the work budget cannot pay for the search."""
        operations = self.operations(atom, quantity, around)
        if not operations:
            return None
        found = self._from_tables(atom, quantity, around, operations)
        if found is not None:
            return found
        operations = operations & (_PERCENT_OPERATIONS if atom.kind == "percent" else _FIGURE_OPERATIONS)
        if not operations:
            return None
        if self._operands is None:
            self._operands = Operands(self._index)
        operands = self._operands
        families = operands.families
        self._index.budget.pay(PROBE * len(families))  # the last tier lists every family
        target = _Target(atom, quantity, around, operations, atom.kind == "percent")
        answer_words = around.words()
        rows, cited = anchored(operands, self._cited_in(around))
        tied = tied_families(operands, answer_words)
        # The records the sentence names and the figures it cites, taken together: "lines LN-1005
        # and LN-1022 weigh 153.10 kg together" adds a figure of each.
        named = list(dict.fromkeys([member for f in rows for member in families[f]] + cited))
        tiers: list[list[_Family]] = []
        seen: set[int] = set()
        for extra, chosen in (
            ([named] if len(rows) != 1 or len(named) > len(families[rows[0]]) else [], rows),
            (self._word_family(operands, tied, answer_words), tied),
            ([], range(len(families))),
        ):
            added: list[_Family] = [(f, families[f]) for f in chosen if f not in seen]
            added += [(None, members) for members in extra if len(members) >= 2]
            seen.update(chosen)
            if added:
                tiers.append((tiers[-1] if tiers else []) + added)
        for tier in tiers:
            searched = self._within_caps(tier, operations)
            for whole in (True, False):  # whole-family sums and averages first, then pairs
                count = sum(_candidates(len(members), operations, whole) for _, members in searched)
                if not count or target.chance(count, 0.0) > CHANCE_LIMIT:
                    continue  # even an exact hit among this many candidates could be an accident
                best = _Best()
                for family in searched:
                    self._search(operands, family, target, best, whole)
                if best.operation is not None and target.chance(count, best.distance) <= CHANCE_LIMIT:
                    hits = tuple(operands.hit(member) for member in best.operands)
                    self._index.budget.left -= CANDIDATE * len(hits)
                    return Derivation(best.operation, hits, best.value)
        return None

    def _from_tables(
        self, atom: Atom, quantity: Quantity, around: AtomContext, operations: frozenset[DerivedOperation]
    ) -> Derivation | None:
        """The label-chosen search over the evidence's tables (``scoring.table_derivations``)."""
        tables = self._index.tables().tables()
        if not tables:
            return None
        # The near wording and the whole sentence together: "The percentage change in diluted
        # weighted-average shares ... was 13.9%" names its change beyond the near window.
        percent = atom.kind == "percent"
        target = TableTarget(
            quantity.value,
            quantity.tolerance,
            min(written_half_unit(atom.text, quantity.value), quantity.tolerance),
            atom.text,
            percent,
            around.names_decrease(),
            table_operations(operations, around, percent),
            quantity.currency,
        )
        cited = [hit.number for hit in self._cited_in(around)]
        return table_derivation(tables, target, self._asked(around), cited, self._index.budget)

    def _asked(self, around: AtomContext) -> frozenset[str]:
        """Label words and years of the figure's sentence, the one before it and the question."""
        if self._question_tokens is None:
            self._question_tokens = tokens(self._question) | acronyms(self._question)
        sentences = around.previous_text() + " " + around.sentence_text()
        asked = tokens(sentences) | acronyms(sentences) | self._question_tokens | frozenset(around.words())
        return asked - CHANGE_WORDS

    def note(self, atom: Atom, judgement_hit: Hit | None) -> None:
        """Remember the evidence that supports an answer atom (atoms come in answer order): other
        figures of its sentence may be computed from it or from its record."""
        if judgement_hit is not None:
            self._cited_starts.append(atom.start)
            self._cited.append(judgement_hit)

    def cited_after(self, atom: Atom, around: AtomContext) -> bool:
        """Whether atoms after ``atom`` in its sentence have cited evidence: operands the first
        search could not see yet ("grew 25% to $1.25M from $1.0M")."""
        position = bisect.bisect_right(self._cited_starts, atom.start)
        return position < len(self._cited_starts) and self._cited_starts[position] < around.upper

    def _cited_in(self, around: AtomContext) -> list[Hit]:
        """Evidence cited so far for the atoms of this figure's sentence."""
        starts = self._cited_starts
        low = bisect.bisect_left(starts, around.lower)
        high = bisect.bisect_left(starts, around.upper)
        return self._cited[low:high]

    def _word_family(self, operands: Operands, tied: list[int], answer_words: set[str]) -> list[list[int]]:
        """The figures whose own key shares a label word with the answer figure, as one family:
        related by what they are (``total_revenue``, ``enterprise``), wherever they sit. Empty when
        it is one of the tied families already or larger than ``max_operands``."""
        found: set[int] = set()
        for word in answer_words:
            found.update(operands.by_key_word.get(word, ()))
            if len(found) > self._max_operands:
                return []
        if len(found) < 2:
            return []
        families = operands.families
        if any(len(families[f]) == len(found) and found.issuperset(families[f]) for f in tied):
            return []
        return [sorted(found)]

    def _within_caps(self, tier: list[_Family], operations: frozenset[DerivedOperation]) -> list[_Family]:
        """The families of ``tier`` small enough to combine, until they hold ``max_candidates``."""
        chosen = []
        count = 0
        for family in tier:
            size = len(family[1])
            if size < 2 or size > self._max_operands:
                continue
            more = _candidates(size, operations, True) + _candidates(size, operations, False)
            if count + more > self._max_candidates:
                break
            chosen.append(family)
            count += more
        return chosen

    def _search(self, operands: Operands, family: _Family, target: _Target, best: _Best, whole: bool) -> None:
        """Offer ``best`` the family's sum and average (``whole``) or its pairs' results."""
        view = self._view(operands, family, target)
        if view is None:
            return
        usable, total = view.usable, view.total
        if whole:
            self._index.budget.pay(PROBE)
            if total is None:
                return
            aggregates: tuple[tuple[DerivedOperation, float], ...] = (
                ("sum", total),
                ("average", total / len(usable)),
            )
            for operation, result in aggregates:
                distance = abs(result - target.value)
                # A whole family of two summed is a pair's sum, offered with the pairs.
                if (
                    operation in target.operations
                    and distance <= target.reach
                    and (operation == "average" or len(usable) >= 3)
                ):
                    best.offer(distance, operation, usable, result)
            return
        self._index.budget.pay(PROBE * len(usable) * len(target.operations))
        ordered, values = view.by_value(operands.values)
        # In vocabulary order: of two operations that land equally close, the first is cited in
        # every process (a set's order follows the per-process string hashes).
        for operation in DERIVED_OPERATIONS:
            if operation in target.operations and operation != "average":
                _pairs(operation, ordered, values, operands.currencies, target, best)

    def _view(self, operands: Operands, family: _Family, target: _Target) -> _View | None:
        """The family's members the target may combine and their sum; worked out once per family
        and kind of target (once for all targets when the family is plain JSON numbers without a
        currency), since every unmatched figure of the answer reads the same families."""
        number, members = family
        plain = number is not None and operands.plain[number]
        key = (number, "", None, None) if plain else (number, target.kind, target.currency, target.unit)
        if number is not None and key in self._views:
            return self._views[key]
        self._index.budget.pay(PROBE * len(members))
        usable = tuple(members) if plain else tuple(m for m in members if target.usable(operands, m))
        view: _View | None = None
        if len(usable) >= 2:
            total: float | None = None
            if plain or len({operands.currencies[member] for member in usable} - {None}) <= 1:
                try:
                    total = math.fsum(operands.values[member] for member in usable)
                except OverflowError:  # figures near 1e308: no sum of them is stated anywhere
                    total = None
            view = _View(usable, total)
        if number is not None:  # a family of the evidence, not one made for this figure
            self._views[key] = view
        return view


# A family to search: its number in ``Operands.families``, or None for one gathered for a single
# figure (the records a sentence names, the figures sharing its label words), and its members.
_Family: TypeAlias = tuple[int | None, list[int]]


class _View:
    """A family as one kind of target sees it: the members it may combine (document order), their
    sum (None: currencies differ, or it overflows), and on demand the members sorted by value."""

    __slots__ = ("_sorted", "total", "usable")

    def __init__(self, usable: tuple[int, ...], total: float | None) -> None:
        self.usable = usable
        self.total = total
        self._sorted: tuple[list[int], list[float]] | None = None

    def by_value(self, values: list[float]) -> tuple[list[int], list[float]]:
        if self._sorted is None:
            ordered = sorted(self.usable, key=values.__getitem__)
            self._sorted = (ordered, [values[member] for member in ordered])
        return self._sorted


@functools.lru_cache(maxsize=1024)
def _candidates(size: int, operations: frozenset[DerivedOperation], whole: bool) -> int:
    """Candidates a family of ``size`` offers: its sum and average (``whole``), or its pairs' results."""
    if whole:
        return ("average" in operations) + ("sum" in operations and size >= 3)
    return sum(_PER_PAIR[operation] for operation in operations) * (size * (size - 1) // 2)


class _Target:
    """The answer figure as the search sees it: value, reach, written precision and scale."""

    __slots__ = ("change", "currency", "floor", "kind", "operations", "reach", "scale", "unit", "value")

    def __init__(
        self,
        atom: Atom,
        quantity: Quantity,
        around: AtomContext,
        operations: frozenset[DerivedOperation],
        percent: bool,
    ) -> None:
        value = quantity.value
        self.kind = atom.kind
        self.value = value
        self.currency = quantity.currency
        self.unit = quantity.unit
        self.operations = operations
        self.reach = quantity.tolerance + 1e-9 * max(1.0, abs(value))
        self.floor = min(written_half_unit(atom.text, value), quantity.tolerance)
        self.scale = max(abs(value), PERCENT_SCALE) if percent else abs(value)
        # "fell 12.5%": the change is -12.5%
        self.change = -value if value > 0 and around.states_decrease() else value

    def chance(self, candidates: int, distance: float) -> float:
        """Expected accidental hits at least ``distance`` close among ``candidates`` results."""
        return candidates * 2.0 * max(distance, self.floor) / self.scale

    def usable(self, operands: Operands, member: int) -> bool:
        kind, unit, currency = operands.kinds[member], operands.units[member], operands.currencies[member]
        if self.kind == "money":
            if kind == "number" and unit is not None:
                return False
            return self.currency is None or currency is None or currency == self.currency
        if self.kind == "number":
            if kind == "money" and self.unit is not None:
                return False
            return self.unit is None or unit is None or unit == self.unit
        return True


def written_half_unit(text: str, value: float) -> float:
    """Half a unit of the last digit the figure's text writes: ``$1,000`` 0.5, ``$2.0K`` 50, ``25%`` 0.5."""
    digits = "".join(character for character in text if character.isdigit()).lstrip("0")
    exponent = math.floor(math.log10(abs(value)))
    return 0.5 * 10.0 ** (exponent - max(len(digits), 1) + 1)


def _pairs(
    operation: DerivedOperation,
    ordered: list[int],
    values: list[float],
    currencies: list[str | None],
    target: _Target,
    best: _Best,
) -> None:
    """Pairs of ``values`` (sorted) whose ``operation`` lands within reach of the target: for each
    member, the window its partner must fall in, found by bisection."""
    reach = target.reach
    percent = target.kind == "percent"
    goal = target.change if operation == "pct_change" else target.value
    if operation == "difference":
        goal = abs(goal)
    count = len(values)
    for i, own in enumerate(values):
        window = _partner_window(operation, own, goal, reach, percent)
        if window is None:
            continue
        low, high = window
        ordered_pair = operation in ("ratio", "pct_change")
        position = bisect.bisect_left(values, low, 0 if ordered_pair else i + 1)
        end = min(count, position + _SCAN)
        while position < end and values[position] <= high:
            if position != i:
                first, second = ordered[position], ordered[i]
                one, other = currencies[first], currencies[second]
                if one is None or other is None or one == other:
                    result = _apply(operation, values[position], own, percent)
                    pair = _formula_order(operation, first, second, values[position], own)
                    best.offer(abs(result - goal), operation, pair, result)
            position += 1


def _partner_window(
    operation: DerivedOperation, own: float, goal: float, reach: float, percent: bool
) -> tuple[float, float] | None:
    """The values ``partner`` may take so that the pair's result is within ``reach`` of ``goal``.

    Sums, differences and products pair ``own`` with a larger-or-equal partner (each pair once);
    ratios and changes take ``own`` as the denominator and look for the numerator.
    """
    low, high = goal - reach, goal + reach
    if operation == "sum":
        return low - own, high - own
    if operation == "difference":
        return own + low, own + high
    if own == 0:
        return None
    if operation == "product":
        bounds = (low / own, high / own)
    elif operation == "ratio":
        scale = own / 100.0 if percent else own
        bounds = (low * scale, high * scale)
    else:  # pct_change: (partner - own) / own * 100
        bounds = (own * (1 + low / 100.0), own * (1 + high / 100.0))
    return min(bounds), max(bounds)


def _apply(operation: DerivedOperation, partner: float, own: float, percent: bool) -> float:
    if operation == "sum":
        return partner + own
    if operation == "difference":
        return partner - own
    if operation == "product":
        return partner * own
    if operation == "ratio":
        return partner / own * (100.0 if percent else 1.0)
    return (partner - own) / own * 100.0


def _formula_order(
    operation: DerivedOperation, partner_member: int, own_member: int, partner: float, own: float
) -> tuple[int, int]:
    """Operands as the formula reads them: the numerator or the newer value first; a sum or product
    in document order."""
    if operation in ("ratio", "pct_change", "difference"):
        return partner_member, own_member
    return (own_member, partner_member) if own_member < partner_member else (partner_member, own_member)


def derivation_needs(atoms: Iterable[Atom], needs: EvidenceNeeds) -> EvidenceNeeds:
    """``needs`` plus the evidence atoms a derivation reads: a percent answer may be derived from
    money and plain numbers stated in text."""
    if any(atom.kind == "percent" for atom in atoms):
        return EvidenceNeeds(needs.kinds | {"money", "number"}, needs.shapes)
    return needs
