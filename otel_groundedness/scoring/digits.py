"""Digit-level relations between figures: transposed, changed, dropped or added digits.

A figure is reduced to its mantissa (significant digits, trailing zeros removed) and decimal
exponent, so ``$1,243,500``, ``1243500.00`` and ``1.2435e6`` all read ``("12435", 6)``.
"""

from __future__ import annotations

from typing import NamedTuple

MAX_MANTISSA_DIGITS = 15  # beyond float precision a digit comparison means nothing


class Mantissa(NamedTuple):
    digits: str
    exponent: int


class Variant(NamedTuple):
    """An evidence mantissa that differs from the answer's by one digit-level edit."""

    digits: str
    reason: str
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

    def add(candidate: str, reason: str, exponents: tuple[int, ...]) -> None:
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
        add(digits[:i] + digits[i + 1 :], "digit_added", shorter)
    return list(found.values())
