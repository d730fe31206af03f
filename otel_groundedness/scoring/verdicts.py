"""Comparison rules: the verdict and reason for one answer atom against the evidence index.

Numbers are supported within the answer's own stated precision. A miss is ``contradicted`` only
when tied to one evidence value: a sign flip, a currency swap, a digit-level edit, a magnitude
slip, or a near value (within ``contradicted_band``) that shares label words with the answer.
Dates compare per component, identifiers by normalized form and by one edit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from otel_groundedness.scoring import bare_years, units
from otel_groundedness.scoring.atoms import NUMERIC_KINDS, Atom, AtomKind, CalendarDate, Identifier, Quantity
from otel_groundedness.scoring.budget import PROBE
from otel_groundedness.scoring.derivation import Derivation
from otel_groundedness.scoring.derivations import Deriver
from otel_groundedness.scoring.digits import (
    MAX_MANTISSA_DIGITS,
    Mantissa,
    mantissa,
    relation,
    variant_windows,
)
from otel_groundedness.scoring.index import (
    DAY,
    MONTH,
    PER_RANGE,
    PER_WINDOW,
    YEAR,
    DateReading,
    EvidenceIndex,
    EvidenceNeeds,
    Hit,
    date_mask,
    unit_group,
)
from otel_groundedness.scoring.label_words import AtomContext
from otel_groundedness.scoring.results import Reason, Verdict
from otel_groundedness.scoring.table_book import cell_hit

# Evidence groups an answer figure may match: money and bare numbers stand for each other (a
# table cell "1,243,500" under "Revenue (USD)"), percent never matches either; raw JSON scalars
# carry no surface form and match all three (the ``fraction``, ``minor`` and ``scaled`` readings
# included).
NUMERIC_GROUPS: dict[str, tuple[str, ...]] = {
    "money": ("money", "number", "raw", "minor", "scaled"),
    "number": ("number", "money", "raw", "scaled"),
    "percent": ("percent", "raw", "fraction"),
}
_NEAR_CANDIDATES = 32  # near values examined for shared context, nearest first
# Slips by these powers of ten (x10, x100 as in percent vs fraction, thousand/million/billion).
_MAGNITUDE_SLIPS = tuple(10.0**sign for power in (1, 2, 3, 6, 9, 12) for sign in (power, -power))
_DIGIT_RELATION_MIN_DIGITS = 3  # shorter figures are tied to evidence only by shared context
_DIRECT_CHECK_LIMIT = 24  # up to this many values near the answer's magnitude are compared one by one
_MAGNITUDE_MIN_DIGITS = 2
_HASH_PREFIX = 7  # an abbreviated git hash keeps at least this many characters


@dataclass(slots=True)  # not frozen: built once per answer atom, and frozen init costs twice as much
class Judgement:
    verdict: Verdict
    reason: Reason
    hit: Hit | None = None
    reading: DateReading | None = None  # the date reading that decided the verdict
    derivation: Derivation | None = None  # how a derived figure was computed (it has no one hit)


NOT_FOUND = Judgement("unsupported", "not_found")


def evidence_needs(atoms: Iterable[Atom]) -> EvidenceNeeds:
    """The evidence atoms that judging ``atoms`` can look up; the index may leave out the rest."""
    kinds: set[str] = set()
    shapes: set[str] = set()
    for atom in atoms:
        value = atom.value
        if isinstance(value, Quantity):
            kinds.update(name for name in NUMERIC_GROUPS[atom.kind] if name in NUMERIC_KINDS)
            if bare_years.year_of_number(atom, value) is not None:
                kinds.add("date")
        elif isinstance(value, Identifier):
            kinds.add("identifier")
            shapes.add(value.shape)
        else:
            kinds.add("date")
            if bare_years.written_year(atom) is not None:
                kinds.add("number")
    return EvidenceNeeds(frozenset(kinds), frozenset(shapes))


def judge(
    atom: Atom, index: EvidenceIndex, around: AtomContext, band: float, deriver: Deriver | None = None
) -> Judgement:
    """Verdict for ``atom``; ``around`` is what the answer says next to it. ``deriver`` looks for a
    figure computed from evidence figures (``None``: derived values are off)."""
    value = atom.value
    if isinstance(value, Quantity):
        return _judge_quantity(atom, value, index, around, band, deriver)
    if isinstance(value, CalendarDate):
        return _judge_date(atom, value, index, around)
    return _judge_identifier(atom, value, index, around)


def _slack(value: float) -> float:
    return 1e-9 * max(1.0, abs(value))


def _compatible(kind: AtomKind, quantity: Quantity, hit: Hit) -> bool:
    hit_unit = hit.unit
    if quantity.unit is not None and hit_unit is not None and quantity.unit != hit_unit:
        return False
    if quantity.unit is not None and hit.kind == "raw":
        # {"weight_g": 2500} is no figure in kg as it stands; its reading in kg is in the unit group.
        key_unit = hit.key_unit()
        if key_unit not in (None, quantity.unit) and units.dimension(key_unit) == units.dimension(
            quantity.unit
        ):
            return False
    if kind == "number" and quantity.unit is not None and hit.kind == "money":
        return False  # "1500ms" is not "$1,500"
    return not (kind == "money" and hit.kind == "number" and hit_unit is not None)


def _currency_clash(quantity: Quantity, hit: Hit) -> bool:
    hit_currency = hit.currency
    return quantity.currency is not None and hit_currency is not None and quantity.currency != hit_currency


def _shares_words(around: AtomContext, hit: Hit) -> bool:
    return not around.words().isdisjoint(hit.words())


def _judge_quantity(
    atom: Atom,
    quantity: Quantity,
    index: EvidenceIndex,
    around: AtomContext,
    band: float,
    deriver: Deriver | None,
) -> Judgement:
    kind = atom.kind
    groups = index.nonempty(NUMERIC_GROUPS[kind])
    in_unit = unit_group(quantity.unit) if kind == "number" else None
    if in_unit is not None:
        groups = groups + index.nonempty((in_unit,))
    value = quantity.value
    reach = quantity.tolerance + _slack(value)
    best: Hit | None = None
    clash: Hit | None = None
    for name in groups:
        for hit in index.group(name).nearest(value, value - reach, value + reach, PER_RANGE):
            if not _compatible(kind, quantity, hit):
                continue
            if _currency_clash(quantity, hit):
                clash = clash or hit
            elif best is None or abs(hit.number - value) < abs(best.number - value):
                best = hit
    if best is not None:
        return Judgement(
            "supported", _support_reason(atom, best, abs(best.number - value) <= _slack(value)), best
        )
    if value != 0:
        scaled = _table_cell(kind, quantity, index, value - reach, value + reach)
        if scaled is not None:
            return Judgement(
                "supported",
                _support_reason(atom, scaled, abs(scaled.number - value) <= _slack(value)),
                scaled,
            )
    if clash is not None:
        return Judgement("contradicted", "currency_mismatch", clash)
    year = bare_years.year_of_number(atom, quantity)
    if year is not None:
        for hit, matched in index.dates(YEAR, (year, None, None))[:1]:
            return Judgement("supported", "reformatted" if matched[1] is None else "within_precision", hit)
    if value != 0:
        for name in groups:
            for hit in index.group(name).nearest(-value, -value - reach, -value + reach, PER_RANGE):
                if _compatible(kind, quantity, hit) and not _currency_clash(quantity, hit):
                    if value > 0 and around.states_decrease():
                        return Judgement("supported", "reformatted", hit)  # "fell 15.3%" is -15.3%
                    return Judgement("contradicted", "sign_flip", hit)
    # Before the near-miss search: a computed figure often looks one digit away from an operand.
    derived = None if deriver is None else deriver.derive(atom, quantity, around)
    if derived is not None:
        return Judgement("supported", derived.reason, derivation=derived)
    return _near_miss(kind, quantity, groups, index, around, band)


def _table_cell(
    kind: AtomKind, quantity: Quantity, index: EvidenceIndex, low: float, high: float
) -> Hit | None:
    """A table cell that states the figure at its table's scale ("$1,502.7 million" for 1,502.7
    under "(In millions)"), in the figure's currency if both name one."""
    for cell in index.tables().cells_within(low, high, kind == "percent"):
        if quantity.currency is None or cell.currency is None or cell.currency == quantity.currency:
            return cell_hit(cell, scaled=True)
    return None


def _support_reason(atom: Atom, hit: Hit, equal: bool) -> Reason:
    if hit.text == atom.text:
        return "exact"
    return "reformatted" if equal else "within_precision"


def _near_miss(
    kind: AtomKind,
    quantity: Quantity,
    groups: list[str],
    index: EvidenceIndex,
    around: AtomContext,
    band: float,
) -> Judgement:
    """Contradicted when the miss is tied to one evidence value; otherwise unsupported."""
    value = quantity.value
    reduced = mantissa(value)
    consistent = False  # some less precise evidence value agrees with the answer

    def usable(hit: Hit) -> bool:
        nonlocal consistent
        if (
            not _compatible(kind, quantity, hit)
            or _currency_clash(quantity, hit)
            or (hit.number < 0) != (value < 0)
        ):
            return False
        if abs(hit.number - value) <= hit.tolerance + _slack(value):
            consistent = True
            return False
        return True

    if reduced is not None:
        tied = _digit_relation(quantity, reduced, groups, index, around, usable)
        if tied is not None:
            return tied
        slip = _magnitude_slip(quantity, reduced, groups, index, around, usable)
        if slip is not None:
            return slip
    if value != 0 and band > 0:
        low, high = _band(value, band)
        for name in groups:
            for hit in index.group(name).nearest(value, low, high, _NEAR_CANDIDATES):
                if usable(hit) and _shares_words(around, hit):
                    return Judgement("contradicted", "value_changed", hit)
    return Judgement("unsupported", "more_precise_than_evidence") if consistent else NOT_FOUND


def _digit_relation(
    quantity: Quantity,
    reduced: Mantissa,
    groups: list[str],
    index: EvidenceIndex,
    around: AtomContext,
    usable: Callable[[Hit], bool],
) -> Judgement | None:
    """An evidence value one digit-level edit from the answer, within a decade of it.

    Few values near the answer's magnitude are checked one by one; many are probed with the
    answer's digit variants instead, so the cost is O(min(candidates, variants)).
    """
    value = quantity.value
    negative = value < 0
    low, high = 10.0 ** (reduced.exponent - 1), 10.0 ** (reduced.exponent + 2)
    if negative:
        low, high = -high, -low
    long_enough = len(reduced.digits) >= _DIGIT_RELATION_MIN_DIGITS
    tied: Judgement | None = None
    candidates: Iterable[Hit]
    if sum(index.group(name).count(low, high) for name in groups) <= _DIRECT_CHECK_LIMIT:
        candidates = (hit for name in groups for hit in index.group(name).within(low, high))
    else:
        windows = variant_windows(reduced)
        index.budget.left -= PROBE * len(windows.runs)  # building them
        candidates = (hit for name in groups for hit in index.group(name).in_windows(windows, negative))
    for hit in candidates:
        reason = relation(reduced, hit.number)
        if reason is None or not usable(hit):
            continue
        if _shares_words(around, hit):
            return Judgement("contradicted", reason, hit)
        if long_enough and tied is None:
            tied = Judgement("contradicted", reason, hit)
    return tied


def _magnitude_slip(
    quantity: Quantity,
    reduced: Mantissa,
    groups: list[str],
    index: EvidenceIndex,
    around: AtomContext,
    usable: Callable[[Hit], bool],
) -> Judgement | None:
    """An evidence value the answer matches within its precision once scaled by a power of ten.

    Without shared label words the evidence must state exactly the answer's digits ("$4.8B" vs
    "$4.8M"): a round "$12,000" scaled by 100 lands near many values and ties to none of them.
    """
    value = quantity.value
    reach = quantity.tolerance + _slack(value)
    slip: Judgement | None = None
    for scale in _MAGNITUDE_SLIPS:
        low, high = (value - reach) * scale, (value + reach) * scale
        for name in groups:
            for hit in index.group(name).within(min(low, high), max(low, high)):
                if not usable(hit):
                    continue
                if _shares_words(around, hit):
                    return Judgement("contradicted", "magnitude_mismatch", hit)
                if slip is None and len(reduced.digits) >= _MAGNITUDE_MIN_DIGITS:
                    own = mantissa(hit.number)
                    if own is not None and own.digits == reduced.digits:
                        slip = Judgement("contradicted", "magnitude_mismatch", hit)
    return slip


def _band(value: float, band: float) -> tuple[float, float]:
    """Evidence values e with |value - e| <= band * |e|."""
    magnitude = abs(value)
    low = magnitude / (1.0 + band)
    high = magnitude / (1.0 - band) if band < 1.0 else float("inf")
    return (low, high) if value > 0 else (-high, -low)


# --- dates ----------------------------------------------------------------------------------

_COMPONENTS = (YEAR, MONTH, DAY)


def _judge_date(atom: Atom, date: CalendarDate, index: EvidenceIndex, around: AtomContext) -> Judgement:
    for reading in date.readings:
        mask = date_mask(reading)
        if not mask:
            continue
        matches = index.dates(mask, reading)
        if matches:
            same = (pair for pair in matches[:PER_RANGE] if date_mask(pair[1]) == mask)
            hit, matched = next(same, matches[0])
            reason: Reason = "exact"
            if hit.text != atom.text:
                reason = "reformatted" if date_mask(matched) == mask else "within_precision"
            return Judgement("supported", reason, hit, reading)
    year = bare_years.written_year(atom)
    if year is not None:
        number = _same_plain_number(float(year), index)
        if number is not None:
            return Judgement("supported", "reformatted", number)
    for reading in date.readings:
        changed = _changed_date(reading, index, around)
        if changed is not None:
            return changed
    return NOT_FOUND


def _same_plain_number(value: float, index: EvidenceIndex) -> Hit | None:
    """An evidence number or raw scalar equal to ``value``, without unit or currency."""
    for name in index.nonempty(("number", "raw")):
        for hit in index.group(name).within(value, value):
            if hit.unit is None and hit.currency is None:
                return hit
    return None


def _changed_date(reading: DateReading, index: EvidenceIndex, around: AtomContext) -> Judgement | None:
    """An evidence date that states every component of ``reading`` and differs in exactly one."""
    mask = date_mask(reading)
    if mask == YEAR:
        # A year one slip away, alone or inside a fuller date ("born in 1811" vs "born 8 December
        # 1810"), tied by shared label words: years are dense, so a digit relation alone ties nothing.
        year = reading[0]
        assert year is not None
        examined = 0
        for other in bare_years.slipped_years(year):
            for hit, _ in index.dates(YEAR, (other, None, None))[:PER_WINDOW]:
                if _shares_words(around, hit):
                    return Judgement("contradicted", "date_component_changed", hit, reading)
                examined += 1
            if examined >= 2 * PER_RANGE:
                break
        return None
    for component in _COMPONENTS:
        if not mask & component or mask == component:
            continue
        position = _COMPONENTS.index(component)
        for hit, matched in index.dates(mask & ~component, reading)[:PER_RANGE]:
            if matched[position] is not None and matched[position] != reading[position]:
                return Judgement("contradicted", "date_component_changed", hit, reading)
    year, month, day = reading
    if mask & MONTH and mask & DAY and month != day and day is not None and day <= 12:
        for hit, _ in index.dates(mask, (year, day, month)):
            return Judgement("contradicted", "date_component_changed", hit, reading)
    return None


# --- identifiers ----------------------------------------------------------------------------


def _judge_identifier(
    atom: Atom, identifier: Identifier, index: EvidenceIndex, around: AtomContext
) -> Judgement:
    hits = index.identifiers(identifier.shape, identifier.normalized)
    if hits:
        exact = next((hit for hit in hits[:PER_RANGE] if hit.text == atom.text), None)
        return Judgement("supported", "exact" if exact else "reformatted", exact or hits[0])
    normalized = identifier.normalized
    if identifier.shape == "hash" and len(normalized) >= _HASH_PREFIX:
        source = index.identifier_extending("hash", normalized)
        if source is not None:
            return Judgement("supported", "within_precision", source)  # an abbreviated commit hash
    if identifier.shape == "ticket" and normalized[:1] == "#" and normalized[1:].isdigit():
        judgement = _numbered_ticket(normalized[1:], index, around)
        if judgement is not None:
            return judgement
    for hit in index.identifiers_near(identifier.shape, normalized):
        assert isinstance(hit.value, Identifier)
        if one_edit_apart(normalized, hit.value.normalized):
            return Judgement("contradicted", "identifier_edit", hit)
    return NOT_FOUND


def _numbered_ticket(digits: str, index: EvidenceIndex, around: AtomContext) -> Judgement | None:
    """``#4521`` against raw JSON integers: equal supports; one edit away with shared words contradicts."""
    raw = index.group("raw")
    number = float(digits)
    for hit in raw.within(number, number):
        return Judgement("supported", "reformatted", hit)
    if len(digits) > MAX_MANTISSA_DIGITS:
        return None
    for variant in _one_edit_numbers(digits):
        for hit in raw.within(variant, variant):
            if _shares_words(around, hit):
                return Judgement("contradicted", "identifier_edit", hit)
    return None


def _one_edit_numbers(digits: str) -> list[float]:
    """Values of the digit strings one edit from ``digits`` (leading zeros dropped, as in JSON),
    ascending: of several edited numbers in the evidence, the smallest is cited, whatever the
    order of a set of floats."""
    found: set[str] = set()
    for i in range(len(digits) + 1):
        head, tail = digits[:i], digits[i:]
        found.update(head + d + tail for d in "0123456789")
        if tail:
            found.add(head + tail[1:])
            found.update(head + d + tail[1:] for d in "0123456789")
        if len(tail) > 1:
            found.add(head + tail[1] + tail[0] + tail[2:])
    found.discard(digits)
    return sorted({float(text) for text in found if text})


def one_edit_apart(first: str, second: str) -> bool:
    """True when one insertion, deletion, substitution or adjacent swap turns ``first`` into ``second``."""
    if first == second or abs(len(first) - len(second)) > 1:
        return False
    if len(first) > len(second):
        first, second = second, first
    prefix = 0
    limit = len(first)
    while prefix < limit and first[prefix] == second[prefix]:
        prefix += 1
    if len(first) < len(second):
        return first[prefix:] == second[prefix + 1 :]
    if first[prefix + 1 :] == second[prefix + 1 :]:
        return True
    return (
        prefix + 1 < limit
        and first[prefix] == second[prefix + 1]
        and first[prefix + 1] == second[prefix]
        and first[prefix + 2 :] == second[prefix + 2 :]
    )
