"""Fault injection changes exactly what it claims to, and legitimate rewrites keep the value."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest

from otel_groundedness.demo.facts import Fact, render, three_significant
from otel_groundedness.demo.faults import applies_to, invent_identifier, rewrite

MONEY = Fact("money", Decimal("1243500.37"), "money_cents")
DATE = Fact("date", dt.date(2025, 3, 3), "date_long")
TICKET = Fact("identifier", "SUP-4471", "identifier")
SEEDS = range(25)


def _digits(value: Decimal) -> str:
    return str(int(value))


@pytest.mark.parametrize("seed", SEEDS)
def test_transposition_swaps_two_adjacent_distinct_digits(seed: int) -> None:
    changed = rewrite(MONEY, "transposed_digits", random.Random(seed))
    before, after = _digits(MONEY.value), _digits(changed.value)  # type: ignore[arg-type]
    diff = [i for i in range(len(before)) if before[i] != after[i]]
    assert len(after) == len(before) and len(diff) == 2 and diff[1] == diff[0] + 1
    assert sorted(before) == sorted(after)
    assert changed.text != MONEY.text and changed.text.endswith(".37")


def test_transposition_never_creates_a_leading_zero() -> None:
    fact = Fact("number", Decimal(1023), "number_grouped")
    for seed in SEEDS:
        assert not _digits(rewrite(fact, "transposed_digits", random.Random(seed)).value).startswith("0")  # type: ignore[arg-type]
    assert not applies_to("transposed_digits", Fact("number", Decimal(1000), "number_grouped"))


@pytest.mark.parametrize("seed", SEEDS)
def test_shifted_date_changes_only_the_day(seed: int) -> None:
    changed = rewrite(DATE, "shifted_date", random.Random(seed)).value
    assert isinstance(changed, dt.date)
    assert (changed.year, changed.month) == (2025, 3) and 1 <= abs(changed.day - 3) <= 9


@pytest.mark.parametrize("seed", SEEDS)
def test_magnitude_slip_keeps_the_digits(seed: int) -> None:
    changed = rewrite(MONEY, "magnitude_slip", random.Random(seed)).value
    assert isinstance(changed, Decimal)
    ratio = changed / MONEY.value  # type: ignore[operator]
    assert ratio in (10, 1000)
    assert str(changed).replace(".", "").rstrip("0") == str(MONEY.value).replace(".", "").rstrip("0")


@pytest.mark.parametrize("seed", SEEDS)
def test_one_edit_id_changes_one_digit(seed: int) -> None:
    changed = str(rewrite(TICKET, "one_edit_id", random.Random(seed)).value)
    assert len(changed) == len("SUP-4471") and changed.startswith("SUP-")
    assert sum(a != b for a, b in zip(changed, "SUP-4471", strict=True)) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_invented_ids_are_at_least_two_edits_from_known_ids(seed: int) -> None:
    known = ["SUP-4471", "SUP-4472", "SUP-1402"]
    invented = invent_identifier("SUP", 4, known, random.Random(seed))
    for other in known:
        assert sum(a != b for a, b in zip(invented, other, strict=True)) >= 2
        assert invented[:-2] + invented[-1] + invented[-2] != other


def test_rounding_stays_within_half_a_unit_of_the_last_stated_digit() -> None:
    rng = random.Random(0)
    millions = rewrite(MONEY, "legit_rounding", rng)
    assert millions.text == "$1.24 million"
    cents = rewrite(Fact("money", Decimal("48213.55"), "money_cents"), "legit_rounding", rng)
    assert cents.text == "$48,214"
    users = rewrite(Fact("number", Decimal(18_432_907), "number_grouped"), "legit_rounding", rng)
    assert users.text == "18.4 million"
    assert not applies_to("legit_rounding", Fact("money", Decimal(86400), "money_cents"))


@pytest.mark.parametrize("value", ["1243500.37", "999.5", "0.012345", "18432907", "1000000"])
def test_three_significant_digits_round_half_up(value: str) -> None:
    rounded = Decimal(three_significant(Decimal(value)))
    unit = Decimal(1).scaleb(Decimal(value).adjusted() - 2)
    assert abs(rounded - Decimal(value)) <= unit / 2
    assert len(three_significant(Decimal(value)).replace(".", "").lstrip("0").rstrip("0")) <= 3


def test_reformatting_keeps_value_and_changes_text() -> None:
    rng = random.Random(1)
    date = rewrite(DATE, "legit_reformatting", rng)
    assert date.value == DATE.value and date.text in ("2025-03-03", "3 March 2025")
    money = rewrite(MONEY, "legit_reformatting", rng)
    assert money.value == MONEY.value and money.text == "USD 1,243,500.37"


def test_render_styles() -> None:
    assert render(Decimal("1243500"), "money_whole") == "$1,243,500"
    assert render(Decimal("1.5300"), "percent") == "1.53%"
    assert render(dt.date(2025, 3, 3), "date_day_month") == "3 March 2025"
    with pytest.raises(ValueError, match="does not apply"):
        render(dt.date(2025, 3, 3), "money_cents")
