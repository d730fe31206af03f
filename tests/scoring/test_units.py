"""Units one dimension apart, and the unit a JSON key names."""

from __future__ import annotations

import pytest

from otel_groundedness._native import in_unit, key_magnitude, key_unit
from otel_groundedness._native import unit_dimension as dimension


@pytest.mark.parametrize(
    ("key", "unit"),
    [
        ("weight_g", "g"),
        ("size_bytes", "B"),
        ("p99_ms", "ms"),
        ("durationMs", "ms"),
        ("latencyMS", "ms"),
        ("timeout_seconds", "s"),
        ("memoryMB", "MB"),
        ("distance_km", "km"),
        ("bandwidth_mbps", "Mbps"),
        ("energy_kwh", "kWh"),
    ],
)
def test_a_keys_last_word_names_its_unit(key: str, unit: str) -> None:
    assert key_unit(key) == unit


# (The native hook takes the key as str: the engine reads every JSON key as text.)
@pytest.mark.parametrize("key", ["ms", "s", "amount", "total", "status", "items", "3", "", "x" * 100 + "_ms"])
def test_keys_that_name_no_unit(key: str) -> None:
    assert key_unit(key) is None


def test_readings_in_another_unit_of_the_same_dimension() -> None:
    assert in_unit(2500, "g", "kg") == [2.5]
    assert in_unit(1200, "ms", "s") == [1.2]
    assert in_unit(90, "s", "min") == [1.5]
    assert in_unit(2.5, "kg", "lb") == pytest.approx([5.511556554])
    # Decimal byte units are also read in binary, as software reports sizes.
    assert in_unit(2621440, "B", "MB") == [2.62144, 2.5]
    assert in_unit(2048, "MiB", "GB") == [2.147483648, 2.0]
    # Not a conversion: the same unit, another dimension, an unknown unit.
    assert in_unit(5, "kg", "kg") == []
    assert in_unit(5, "kg", "km") == []
    assert in_unit(5, "furlong", "km") == []


def test_dimensions() -> None:
    assert (dimension("kg"), dimension("GiB"), dimension("ms"), dimension(None), dimension("x")) == (
        "mass",
        "bytes",
        "time",
        None,
        None,
    )


@pytest.mark.parametrize(
    ("key", "power"),
    [
        ("revenue_usd_millions", 6),
        ("revenueInThousands", 3),
        ("revenue_m", 6),
        ("capex_bn", 9),
        ("salary_k", 3),
        ("revenue", None),
        ("millions", None),
        ("k", None),
    ],
)
def test_a_keys_last_word_names_its_magnitude(key: str, power: int | None) -> None:
    assert key_magnitude(key) == power
