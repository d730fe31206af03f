"""Value, tolerance and significant digits of money, percent and number atoms.

Precision rule: a figure may be off by half a unit of its last stated significant digit
(``$1.24M`` -> 5,000; ``$1,243,500`` -> 0.5; ``15.3%`` -> 0.05). Trailing zeros of an integer
state lower precision only when the figure looks rounded: at least two trailing zeros, at most
three other significant digits and a value of at least 1,000 (``1,200,000`` -> 50,000;
``4,800`` -> 50). The precision then stops at the larger of the non-zero digits and two digits,
so ``2,000`` tolerates 50, not 500. ``$1,243,500`` (five other digits) and ``$100`` stay exact.

Hedge rule: a hedge ("about", "roughly", "~"; see the locale packs) excuses rounding, not
corruption. A hedged figure's significant digits end at its last non-zero integer digit (``about
47,000`` states "47": a unit is 1,000), and it tolerates the largest of the rule above, half that
unit, and 2.5% of its value but less than one unit. The widening past half a unit only reaches
evidence values that state more digits than the figure and lie less than one unit away: the figure
is one of the two at its precision that bracket the evidence value (``about 47,000`` and ``about
48,000`` both round 47,600, one down as a truncation does). A value one whole unit or more away is
never inside (``about 47,000`` vs 48,000 is a changed digit), and a figure with many digits gains
almost nothing (``about 47,060`` tolerates under 10, so 47,600 stays a transposition). 2.5% keeps
the widening proportionate where the leading digits are small (``about 32,000`` tolerates 800);
below 20 half a unit is already wider.
"""

from __future__ import annotations

from otel_groundedness.scoring.atoms import Quantity

HEDGE_RELATIVE_TOLERANCE = 0.025
# A hedge's widening stops short of one whole unit of the last significant digit by more than the
# float slack the matcher adds (1e-9 of the value, ``verdicts._slack``): the next figure at the
# stated precision is a changed digit, never a rounding.
_SHORT_OF_UNIT = 2e-9
ROUNDED_MIN_VALUE = 1000.0
ROUNDED_MAX_SIGNIFICANT = 3
_HALF_UNIT = {power: 0.5 * 10.0**power for power in range(-40, 60)}  # figures have <= 39 digits


def quantity(
    int_digits: str,
    frac_digits: str,
    exponent: int,
    negative: bool,
    hedged: bool,
    currency: str | None,
    unit: str | None,
) -> Quantity:
    """Build a ``Quantity`` from the digits as written and the power of ten of the magnitude
    (``1.24 million`` is ``("1", "24", 6)``; ``25 bps`` is ``("25", "", -2)``)."""
    if exponent:
        value = float(f"{int_digits}.{frac_digits or '0'}e{exponent}")  # one correctly rounded step
    else:
        value = float(f"{int_digits}.{frac_digits}" if frac_digits else int_digits)
    if negative:
        value = -value
    significant = int_digits.lstrip("0")
    trailing_zeros = 0
    if frac_digits:
        tolerance = _HALF_UNIT[exponent - len(frac_digits)]
        digits = (significant + frac_digits).lstrip("0") or "0"
    else:
        stated = len(significant)
        nonzero = len(significant.rstrip("0"))
        trailing_zeros = stated - nonzero
        tolerance = _HALF_UNIT[exponent]
        digits = significant or "0"
        if trailing_zeros >= 2 and nonzero <= ROUNDED_MAX_SIGNIFICANT and abs(value) >= ROUNDED_MIN_VALUE:
            kept = max(nonzero, 2)
            tolerance = _HALF_UNIT[exponent + stated - kept]
            digits = significant[:kept]
    if hedged:
        last_digit = 2.0 * _HALF_UNIT[exponent - len(frac_digits) + trailing_zeros]  # its place value
        short_of_unit = last_digit - _SHORT_OF_UNIT * max(1.0, abs(value))
        widening = min(HEDGE_RELATIVE_TOLERANCE * abs(value), short_of_unit)
        tolerance = max(tolerance, 0.5 * last_digit, widening)
    return Quantity(value, tolerance, digits, currency, unit, hedged)
