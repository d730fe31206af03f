"""Fault injection: the realistic ways a model corrupts a fact, and the legitimate rewrites.

Harmful faults change a fact's value (the scorer must flag them); legitimate variants only
round or reformat it (the scorer must keep supporting them).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Collection, Mapping
from decimal import Decimal
from typing import Literal, TypeAlias

from otel_groundedness.demo.facts import Fact, FactKind

FaultKind: TypeAlias = Literal[
    "transposed_digits",
    "shifted_date",
    "invented_ticket_id",
    "magnitude_slip",
    "one_edit_id",
    "legit_rounding",
    "legit_reformatting",
]
HARMFUL_FAULTS: tuple[FaultKind, ...] = (
    "transposed_digits",
    "shifted_date",
    "invented_ticket_id",
    "magnitude_slip",
    "one_edit_id",
)
LEGIT_VARIANTS: tuple[FaultKind, ...] = ("legit_rounding", "legit_reformatting")
FAULT_KINDS: tuple[FaultKind, ...] = HARMFUL_FAULTS + LEGIT_VARIANTS

# Which facts each fault rewrites; ``invented_ticket_id`` adds a sentence instead.
TARGET_KINDS: Mapping[FaultKind, frozenset[FactKind]] = {
    "transposed_digits": frozenset({"money", "number"}),
    "shifted_date": frozenset({"date"}),
    "invented_ticket_id": frozenset(),
    "magnitude_slip": frozenset({"money", "number", "percent"}),
    "one_edit_id": frozenset({"identifier"}),
    "legit_rounding": frozenset({"money", "number"}),
    "legit_reformatting": frozenset({"money", "date"}),
}


def applies_to(fault: FaultKind, fact: Fact) -> bool:
    """Whether ``fault`` can rewrite ``fact`` (value and style permitting)."""
    if fact.kind not in TARGET_KINDS[fault]:
        return False
    if fault == "transposed_digits":
        return isinstance(fact.value, Decimal) and _has_adjacent_distinct(_integer_digits(fact.value))
    if fault == "legit_rounding":
        return fact.style in ("money_cents", "number_grouped") and _roundable(fact)
    if fault == "legit_reformatting":
        return fact.style in ("money_cents", "date_long")
    return True


def rewrite(fact: Fact, fault: FaultKind, rng: random.Random) -> Fact:
    """Apply ``fault`` to ``fact``; the caller checked ``applies_to``."""
    if fault == "transposed_digits":
        return fact.with_value(_transpose(_as_decimal(fact.value), rng))
    if fault == "shifted_date":
        return fact.with_value(_shift_day(_as_date(fact.value), rng))
    if fault == "magnitude_slip":
        factor = Decimal(10) if fact.kind == "percent" else Decimal(rng.choice((10, 1000)))
        return fact.with_value(_as_decimal(fact.value) * factor)
    if fault == "one_edit_id":
        return fact.with_value(_edit_one_digit(str(fact.value), rng))
    if fault == "legit_rounding":
        value = _as_decimal(fact.value)
        if value >= 1_000_000:
            return fact.with_style("money_millions" if fact.kind == "money" else "number_millions")
        return fact.with_style("money_rounded_whole")
    if fault == "legit_reformatting":
        if fact.kind == "date":
            return fact.with_style(rng.choice(("date_iso", "date_day_month")))
        return fact.with_style("money_code")
    raise ValueError(f"fault {fault!r} does not rewrite a fact")


def invent_identifier(prefix: str, digits: int, known: Collection[str], rng: random.Random) -> str:
    """A ``PREFIX-NNNN`` id at least two edits away from every known id (so it is invented, not a typo)."""
    while True:
        candidate = f"{prefix}-{rng.randrange(10 ** (digits - 1), 10**digits)}"
        if all(_distance_at_least_two(candidate, other) for other in known):
            return candidate


def _as_decimal(value: object) -> Decimal:
    if not isinstance(value, Decimal):
        raise TypeError(f"expected a Decimal, got {value!r}")
    return value


def _as_date(value: object) -> dt.date:
    if not isinstance(value, dt.date):
        raise TypeError(f"expected a date, got {value!r}")
    return value


def _integer_digits(value: Decimal) -> str:
    return str(int(abs(value)))


def _has_adjacent_distinct(digits: str) -> bool:
    return any(
        digits[i] != digits[i + 1] and not (i == 0 and digits[1] == "0") for i in range(len(digits) - 1)
    )


def _roundable(fact: Fact) -> bool:
    value = _as_decimal(fact.value)
    if value >= 1_000_000:
        return True
    # Rounding away the cents is a rewrite only when there are cents to round.
    return fact.kind == "money" and value != value.to_integral_value()


def _transpose(value: Decimal, rng: random.Random) -> Decimal:
    digits = _integer_digits(value)
    # Swap among the leading digits: that is where a slip changes what a reader takes away.
    candidates = [i for i in range(len(digits) - 1) if digits[i] != digits[i + 1]]
    # A leading zero would change the magnitude, which is a different fault.
    candidates = [i for i in candidates if not (i == 0 and digits[1] == "0")]
    positions = [i for i in candidates if i < 4] or candidates
    i = rng.choice(positions)
    swapped = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]
    return Decimal(swapped) + (abs(value) - int(abs(value)))


def _shift_day(value: dt.date, rng: random.Random) -> dt.date:
    # Stay inside the month so exactly one component (the day) changes.
    next_month = (value.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    last_day = (next_month - dt.timedelta(days=1)).day
    choices = [day for day in range(1, last_day + 1) if 1 <= abs(day - value.day) <= 9]
    return value.replace(day=rng.choice(choices))


def _edit_one_digit(identifier: str, rng: random.Random) -> str:
    positions = [i for i, ch in enumerate(identifier) if ch.isdigit()]
    i = rng.choice(positions[-3:])
    replacement = rng.choice([d for d in "0123456789" if d != identifier[i]])
    return identifier[:i] + replacement + identifier[i + 1 :]


def _distance_at_least_two(a: str, b: str) -> bool:
    """True unless ``a`` and ``b`` are equal or one substitution/transposition/indel apart."""
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return False
        return not (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    if abs(len(a) - len(b)) == 1:
        shorter, longer = (a, b) if len(a) < len(b) else (b, a)
        return not any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))
    return True
