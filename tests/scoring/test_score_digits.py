"""Digit-level relations: both the one-by-one check and the variant probe must agree."""

from __future__ import annotations

import pytest

from otel_groundedness._native import (
    digit_relation,
    digit_variants,
    half_unit,
    mantissa,
    value_of,
    variant_windows,
)


def centers_of(centers: tuple[int, int, int] | list[int]) -> list[int]:
    """A run's centres: a ``range(start, stop, step)`` as its 3-tuple, or the list itself."""
    return list(range(*centers)) if isinstance(centers, tuple) else centers


def test_mantissa_strips_separators_and_trailing_zeros() -> None:
    assert mantissa(1_243_500.0) == ("12435", 6)
    assert mantissa(0.153) == ("153", -1)
    assert mantissa(-15.3) == ("153", 1)
    assert mantissa(0.0) is None and mantissa(float("inf")) is None


@pytest.mark.parametrize(
    ("answer", "evidence", "reason"),
    [
        (1_234_500, 1_243_500, "digit_transposition"),
        (1_420_000, 1_243_500, "digit_transposition"),  # "$1.42M": read at the answer's three digits
        (4_182, 4_812, "digit_transposition"),
        (4_822, 4_812, "digit_changed"),
        (412, 4_812, "digit_dropped"),
        (48_112, 4_812, "digit_added"),
        (12.45, 12.5, "digit_added"),
        (30, 300, None),  # a dropped trailing zero is a magnitude slip, not a digit edit
        (1_250_000, 1_160_000, None),  # "125" vs "116": two digits differ
        (1_250_000, 1_200_000, "digit_changed"),
        (5_100, 4_812, None),
    ],
)
def test_relation(answer: float, evidence: float, reason: str | None) -> None:
    reduced = mantissa(answer)
    assert reduced is not None
    assert digit_relation(*reduced, evidence) == reason
    # The variant probe (used when many values sit near the answer) must reach every related value.
    reach = half_unit(*reduced)
    probed = any(
        abs(value_of(digits, exponent, False) - evidence) <= max(reach, half_unit(digits, exponent))
        for digits, _, exponents in digit_variants(*reduced)
        for exponent in exponents
    )
    assert probed or reason is None


@pytest.mark.parametrize(
    "evidence", [1_243_500, 1_234_050, 2_134_500, 1_334_500, 134_500, 12_345_600, 4_812.5]
)
def test_variant_windows_reach_every_related_value(evidence: float) -> None:
    for answer in (1_234_500.0, 4_182.5, 1_420_000.0):
        reduced = mantissa(answer)
        assert reduced is not None
        if digit_relation(*reduced, evidence) is not None:
            runs, _, _ = variant_windows(*reduced)
            windows = [
                (center * unit - reach, center * unit + reach)
                for centers, unit, reach in runs
                for center in centers_of(centers)
            ]
            assert any(low <= evidence <= high for low, high in windows), (answer, evidence)


@pytest.mark.parametrize("answer", [1_234_500.0, 4_182.5, 1_420_000.0, 0.000317, 98_765_432_109.0, 1.0])
def test_each_window_run_lies_within_its_span(answer: float) -> None:
    # The index skips a run whose span holds no value, so the span must cover every window.
    reduced = mantissa(answer)
    assert reduced is not None
    runs, firsts, lasts = variant_windows(*reduced)
    assert runs
    for (centers, unit, reach), first, last in zip(runs, firsts, lasts, strict=True):
        assert centers_of(centers)
        for center in centers_of(centers):
            assert first <= center * unit - reach <= center * unit + reach <= last, (answer, center)
