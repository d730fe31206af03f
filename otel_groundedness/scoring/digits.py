"""Digit-level relations between figures: transposed, changed, dropped or added digits.

A figure is reduced to its mantissa (significant digits, trailing zeros removed) and decimal
exponent, so ``$1,243,500``, ``1243500.00`` and ``1.2435e6`` all read ``("12435", 6)``. The other
figure is read at the answer's precision: ``$1.42M`` against 1,243,500 compares "142" with "124".
"""

from __future__ import annotations

from typing import NamedTuple

from otel_groundedness.scoring.results import Reason

MAX_MANTISSA_DIGITS = 15  # beyond float precision a digit comparison means nothing


class Mantissa(NamedTuple):
    digits: str
    exponent: int


class Variant(NamedTuple):
    """An evidence mantissa that differs from the answer's by one digit-level edit."""

    digits: str
    reason: Reason
    exponents: tuple[int, ...]


def mantissa(value: float) -> Mantissa | None:
    """Mantissa and exponent of a non-zero finite ``value`` (12 significant digits at most)."""
    if value == 0 or value != value or value in (float("inf"), float("-inf")):
        return None
    text = f"{abs(value):.11e}"  # d.ddddddddddde±XX
    digits = (text[0] + text[2:13]).rstrip("0")
    return Mantissa(digits, int(text[14:]))


def variants(of: Mantissa) -> list[Variant]:
    """Every mantissa one digit-level edit away from ``of``, with the exponents it may have.

    The answer's digits are padded with one zero so an edit just past its last significant digit
    (``1,243,500`` vs ``1,243,050``) is found too. A leading zero is never produced.
    """
    digits = of.digits
    if len(digits) > MAX_MANTISSA_DIGITS:
        return []
    same = (of.exponent,)
    found: dict[str, Variant] = {}

    def add(candidate: str, reason: Reason, exponents: tuple[int, ...]) -> None:
        if not candidate or candidate[0] == "0":
            return
        key = candidate.rstrip("0")
        if key and key != digits and key not in found:
            found[key] = Variant(key, reason, exponents)

    padded = digits + "0"
    for i in range(len(padded) - 1):
        if padded[i] != padded[i + 1]:
            add(padded[:i] + padded[i + 1] + padded[i] + padded[i + 2 :], "digit_transposition", same)
    for i, current in enumerate(padded):
        head, tail = padded[:i], padded[i + 1 :]
        for digit in "0123456789":
            if digit != current:
                add(head + digit + tail, "digit_changed", same)
    # The evidence has one digit more than the answer (the answer dropped it) or one less.
    longer = (of.exponent, of.exponent + 1)
    for i in range(len(digits) + 1):
        head, tail = digits[:i], digits[i:]
        for digit in "0123456789":
            add(head + digit + tail, "digit_dropped", longer)
    shorter = (of.exponent, of.exponent - 1)
    for i in range(len(digits)):
        # Without its last digit at the same magnitude the answer is merely rounded.
        add(digits[:i] + digits[i + 1 :], "digit_added", shorter if i < len(digits) - 1 else shorter[1:])
    return list(found.values())


# Windows [c * unit - reach, c * unit + reach] for each integer centre c, in the order given.
WindowRun = tuple["range | list[int]", float, float]


class VariantWindows(NamedTuple):
    """Runs of windows, and the span [firsts[i], lasts[i]] holding every window of run i.

    One probe of a run's span tells whether any of its windows can hold a value: over sparse
    values most runs hold nothing.
    """

    runs: list[WindowRun]
    firsts: list[float]
    lasts: list[float]


def variant_windows(of: Mantissa) -> VariantWindows:
    """Value ranges (positive) holding every figure one digit-level edit from ``of``.

    The arithmetic twin of ``variants`` (no strings: it runs once per unsupported figure over
    dense evidence); a window may hold more than the edits, so callers confirm with ``relation``.
    Centres are exact integers, scaled by one float multiplication.
    """
    digits = of.digits
    length = len(digits)
    found = VariantWindows([], [], [])
    if length > MAX_MANTISSA_DIGITS:
        return found
    runs, firsts, lasts = found

    def add(centers: range | list[int], unit: float, reach: float) -> None:
        if centers:
            runs.append((centers, unit, reach))
            ranged = isinstance(centers, range)  # ascending: its span is read off its ends
            firsts.append((centers[0] if ranged else min(centers)) * unit - reach)
            lasts.append((centers[-1] if ranged else max(centers)) * unit + reach)

    whole = int(digits)
    padded = whole * 10  # one trailing zero: an edit just past the last stated digit counts
    place = [int(d) for d in digits] + [0]
    unit = 10.0 ** (of.exponent - length)  # value of the padded last place
    reach = 5 * unit  # half a unit of the answer's last stated place
    swaps = [  # adjacent swaps of places i and i + 1 (counted from the left)
        padded + (place[i + 1] - place[i]) * 9 * 10 ** (length - 1 - i) for i in range(length)
    ]
    add(swaps, unit, reach)
    for i in range(length + 1):  # one changed digit, never a leading zero
        weight, current = 10 ** (length - i), place[i]
        base = padded - current * weight
        add(range(base + (i == 0) * weight, base + current * weight, weight), unit, reach)
        add(range(base + (current + 1) * weight, base + 10 * weight, weight), unit, reach)
    for shift in (0, 1):  # the evidence has one digit more (the answer dropped it)
        longer_unit = 10.0 ** (of.exponent + shift - length)
        for i in range(length + 1):
            weight = 10 ** (length - i)
            head, tail = divmod(whole, weight)
            base = head * 10 * weight + tail
            add(range(base + (i == 0) * weight, base + 10 * weight, weight), longer_unit, longer_unit / 2)
    for shift in (0, -1):  # the evidence has one digit less (the answer added it)
        shorter_unit = 10.0 ** (of.exponent + shift - length + 2)
        deleted = [
            head * 10 ** (length - i - 1) + rest % 10 ** (length - i - 1)
            for i in range(length)
            for head, rest in [divmod(whole, 10 ** (length - i))]
        ]
        add(deleted, shorter_unit, shorter_unit / 2)
    return found


def value_of(digits: str, exponent: int, negative: bool) -> float:
    """The figure whose mantissa is ``digits`` and whose leading digit sits at 10**exponent."""
    value = int(digits) * 10.0 ** (exponent - len(digits) + 1)
    return -value if negative else value


def half_unit(digits: str, exponent: int) -> float:
    """Half a unit of the last of ``digits``: how far a figure may sit from ``value_of`` and still read so."""
    return 0.5 * 10.0 ** (exponent - len(digits) + 1)


def relation(answer: Mantissa, other: float) -> Reason | None:
    """The one digit-level edit between ``other`` and the answer, or None.

    Changed and swapped digits compare ``other`` read at the answer's precision; a dropped or
    added digit compares ``other``'s own digits. Dropping the answer's last digit at the same
    magnitude is rounding and a dropped trailing zero is a magnitude slip: neither counts.
    """
    length = len(answer.digits)
    own = mantissa(other)
    if length > MAX_MANTISSA_DIGITS or own is None:
        return None
    same = _fixed(other, length)
    if same.exponent == answer.exponent:
        reason = _substitution_or_swap(answer.digits, same.digits)
        if reason:
            return reason
    shift = own.exponent - answer.exponent
    if (
        len(own.digits) == length + 1
        and shift in (0, 1)
        and _drops_one(own.digits, answer.digits, shift == 0)
    ):
        return "digit_dropped"
    if (
        len(own.digits) == length - 1
        and shift in (0, -1)
        and _drops_one(answer.digits, own.digits, shift == 0)
    ):
        return "digit_added"
    return None


def _fixed(value: float, length: int) -> Mantissa:
    text = f"{abs(value):.{length - 1}e}"
    mantissa_text, exponent = text.split("e")
    return Mantissa(mantissa_text.replace(".", ""), int(exponent))


def _substitution_or_swap(first: str, second: str) -> Reason | None:
    differences = [i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
    if len(differences) == 1:
        return "digit_changed"
    if len(differences) == 2:
        i, j = differences
        if j == i + 1 and first[i] == second[j] and first[j] == second[i]:
            return "digit_transposition"
    return None


def _drops_one(longer: str, shorter: str, keep_last: bool) -> bool:
    """True when deleting one digit of ``longer`` (not its last when ``keep_last``) gives ``shorter``."""
    positions = range(len(longer) - 1) if keep_last else range(len(longer))
    return any(longer[:i] + longer[i + 1 :] == shorter for i in positions)
