"""Properties of derived values (hypothesis): over random evidence arrays the sum or difference of
two members is supported, and a one-digit corruption of it is not, unless the corrupted figure is
itself another allowed derivation (checked here by brute force)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from otel_groundedness.scoring import score

CENTS = st.lists(st.integers(10_000, 9_999_999), min_size=2, max_size=12, unique=True)
HALF_CENT = 0.5  # in cents: the tolerance of a figure stated to the cent


def _evidence(cents: list[int]) -> dict[str, object]:
    return {"payments": [{"ref": f"PAY-{k:04d}", "amount": c / 100} for k, c in enumerate(cents)]}


def _answer(operation: str, cents: int) -> str:
    figure = f"${cents / 100:,.2f}"
    if operation == "sum":
        return f"The two payments total {figure}."
    return f"The second payment was {figure} more than the first."


def _pick(cents: list[int], data: st.DataObject) -> tuple[str, int]:
    first, second = data.draw(
        st.lists(st.sampled_from(range(len(cents))), min_size=2, max_size=2, unique=True)
    )
    operation = data.draw(st.sampled_from(["sum", "difference"]))
    a, b = cents[first], cents[second]
    return operation, a + b if operation == "sum" else abs(a - b)


@settings(max_examples=150, deadline=None)
@given(CENTS, st.data())
def test_the_sum_or_difference_of_two_members_is_supported(cents: list[int], data: st.DataObject) -> None:
    operation, value = _pick(cents, data)
    assume(value >= 100_000)  # a figure of at least $1,000.00: six significant digits
    report = score(_answer(operation, value), _evidence(cents))
    [verdict] = report.verdicts
    assert verdict.verdict == "supported"


def _derivable(cents: list[int], value: int) -> bool:
    """Whether ``value`` (cents) is within half a cent of a member or of anything the scorer may derive
    from the array: a pair's sum, difference, product or ratio, or the whole array's sum or average."""
    near = lambda candidate: abs(candidate - value) <= HALF_CENT + 1e-6  # noqa: E731
    amounts = [c / 100 for c in cents]
    results = [float(c) for c in cents] + [float(sum(cents)), sum(cents) / len(cents)]
    for a, b in combinations(amounts, 2):
        results += [100 * (a + b), 100 * abs(a - b), 100 * a * b, 100 * a / b, 100 * b / a]
    return any(near(result) for result in results)


def _one_digit_changes(value: int) -> list[int]:
    text = str(value)
    changed = []
    for position, digit in enumerate(text):
        for other in "0123456789":
            if other != digit and not (position == 0 and other == "0"):
                changed.append(int(text[:position] + other + text[position + 1 :]))
    return changed


@settings(max_examples=150, deadline=None)
@given(CENTS, st.data())
def test_a_one_digit_corruption_of_it_is_not_supported(cents: list[int], data: st.DataObject) -> None:
    operation, value = _pick(cents, data)
    assume(value >= 100_000)
    corrupted = data.draw(st.sampled_from(_one_digit_changes(value)))
    assume(not _derivable(cents, corrupted))
    report = score(_answer(operation, corrupted), _evidence(cents))
    [verdict] = report.verdicts
    assert verdict.verdict != "supported", (verdict.reason, verdict.citation)
