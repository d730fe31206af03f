"""Digit-level relations: both the one-by-one check and the variant probe must agree."""

from __future__ import annotations

import pytest

from otel_groundedness.scoring.digits import (
    Mantissa,
    half_unit,
    mantissa,
    relation,
    value_of,
    variant_windows,
    variants,
)


def test_mantissa_strips_separators_and_trailing_zeros() -> None:
    assert mantissa(1_243_500.0) == Mantissa("12435", 6)
    assert mantissa(0.153) == Mantissa("153", -1)
    assert mantissa(-15.3) == Mantissa("153", 1)
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
    assert relation(reduced, evidence) == reason
    # The variant probe (used when many values sit near the answer) must reach every related value.
    reach = half_unit(reduced.digits, reduced.exponent)
    probed = any(
        abs(value_of(variant.digits, exponent, False) - evidence)
        <= max(reach, half_unit(variant.digits, exponent))
        for variant in variants(reduced)
        for exponent in variant.exponents
    )
    assert probed or reason is None


@pytest.mark.parametrize(
    "evidence", [1_243_500, 1_234_050, 2_134_500, 1_334_500, 134_500, 12_345_600, 4_812.5]
)
def test_variant_windows_reach_every_related_value(evidence: float) -> None:
    for answer in (1_234_500.0, 4_182.5, 1_420_000.0):
        reduced = mantissa(answer)
        assert reduced is not None
        if relation(reduced, evidence) is not None:
            windows = [
                (center * unit - reach, center * unit + reach)
                for centers, unit, reach in variant_windows(reduced).runs
                for center in centers
            ]
            assert any(low <= evidence <= high for low, high in windows), (answer, evidence)


@pytest.mark.parametrize("answer", [1_234_500.0, 4_182.5, 1_420_000.0, 0.000317, 98_765_432_109.0, 1.0])
def test_each_window_run_lies_within_its_span(answer: float) -> None:
    # The index skips a run whose span holds no value, so the span must cover every window.
    reduced = mantissa(answer)
    assert reduced is not None
    windows = variant_windows(reduced)
    assert windows.runs
    for (centers, unit, reach), first, last in zip(windows.runs, windows.firsts, windows.lasts, strict=True):
        assert centers
        for center in centers:
            assert first <= center * unit - reach <= center * unit + reach <= last, (answer, center)
