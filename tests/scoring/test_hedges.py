"""Hedges excuse rounding, not corruption (docs/scoring.md, "Hedges").

A hedge widens a figure's tolerance only towards evidence values it is a rounding of (more
significant digits, less than one unit of the figure's last significant digit away), so a
transposed or changed digit stays contradicted, and a hedged year or date is compared exactly.
"""

from __future__ import annotations

import pytest

from tests.scoring.native_parts import Quantity, extract_atoms
from tests.scoring.verdict_lookup import verdict_of


def hedged_quantity(text: str) -> Quantity:
    (atom,) = [a for a in extract_atoms(text) if a.kind != "date"]
    assert isinstance(atom.value, Quantity) and atom.value.hedged
    return atom.value


# --- hedges: the tolerance a hedge gives --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tolerance", "unit"),
    [
        # Two significant digits: the widening is 2.5% of the value, kept under one unit of the
        # last significant digit, so the next figure at that precision is never reached.
        ("about 47,000 units", 1_000, 1_000),
        ("about 4,800 to go", 100, 100),
        ("about 32,000 units", 800, 1_000),  # 2.5% is the smaller
        ("about 20,000 users", 5_000, 10_000),  # one significant digit: half a unit is wider
        ("about $1.2M", 50_000, 100_000),
        ("about 40% of users", 5, 10),  # a hedged trailing zero is not a significant digit
        # Many significant digits: a unit is small, so the hedge adds almost nothing.
        ("about 47,060 units", 10, 10),
        ("roughly 4,812 orders", 1, 1),
        ("around 15.3%", 0.1, 0.1),
    ],
)
def test_a_hedge_widens_to_2_5_percent_but_less_than_one_unit_of_the_last_digit(
    text: str, tolerance: float, unit: float
) -> None:
    got = hedged_quantity(text).tolerance
    assert got == pytest.approx(tolerance, rel=1e-4)
    assert got < unit


def test_a_hedge_keeps_the_unit_of_the_figure() -> None:
    quantity = hedged_quantity("p99 latency of about 1500 ms")
    assert (quantity.unit, quantity.tolerance) == ("ms", pytest.approx(50))


# --- hedges: end to end -------------------------------------------------------------------------

REVENUE = [{"quarter": "Q3 2025", "revenue": 1243500, "units_shipped": 47600, "orders": 4812}]


@pytest.mark.parametrize(
    ("answer", "text"),
    [
        ("Revenue came to about $1.2M this quarter.", "$1.2M"),
        ("We shipped roughly 47,000 units.", "47,000"),  # 47,600 truncated: a rounding downwards
        ("We shipped about 48,000 units.", "48,000"),
        ("Orders were around 4,800.", "4,800"),
        ("Orders were roughly 4,812.", "4,812"),
    ],
)
def test_a_hedged_rounding_is_supported(answer: str, text: str) -> None:
    assert verdict_of(answer, REVENUE, text)[0] == "supported"


@pytest.mark.parametrize(
    ("answer", "text", "reason"),
    [
        # Transposition of 47,600: the hedge does not excuse it (2.5% of 47,060 used to).
        ("We shipped about 47,060 units.", "47,060", "digit_transposition"),
        ("Orders were roughly 4,821.", "4,821", "digit_transposition"),
        ("Orders were around 4,813.", "4,813", "digit_changed"),
        # Same precision as the evidence, one digit changed: not a rounding of 47,600.
        ("We shipped about 46,600 units.", "46,600", "digit_changed"),
        # 1.3M is not a rounding of 1,243,500 (that is 1.2M).
        ("Revenue came to about $1.3M.", "$1.3M", "digit_changed"),
    ],
)
def test_a_hedged_corruption_stays_contradicted(answer: str, text: str, reason: str) -> None:
    assert verdict_of(answer, REVENUE, text) == ("contradicted", reason)


def test_a_hedged_truncation_by_most_of_a_unit_is_still_a_rounding() -> None:
    answer = "We shipped about 47,000 units."
    assert verdict_of(answer, [{"units_shipped": 47950}], "47,000")[0] == "supported"


def test_a_hedged_figure_against_evidence_stated_at_the_same_precision_is_not_widened() -> None:
    # 48,000 is one unit away from 47,000 and states no more digits: a changed digit, not rounding.
    answer = "We shipped about 47,000 units."
    assert verdict_of(answer, [{"units_shipped": 48000}], "47,000") == ("contradicted", "digit_changed")


def test_a_hedged_date_is_compared_exactly() -> None:
    evidence = ["Acme Corporation was founded on 3 May 1912 in Dayton, Ohio."]
    answer = "Acme was founded around May 4, 1912."
    assert verdict_of(answer, evidence, "May 4, 1912") == ("contradicted", "date_component_changed")
