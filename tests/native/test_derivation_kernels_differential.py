"""The native derivation kernels give exactly what ``scoring/derivations.py`` gives: ``math.fsum``,
the pair search of one family (best distance, operation, operands in formula order, value) and
the candidate count the chance rule is computed on."""

from __future__ import annotations

import math
import struct
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring import derivations
from otel_groundedness.scoring.results import DerivedOperation

PAIR_OPERATIONS: tuple[DerivedOperation, ...] = ("sum", "difference", "product", "ratio", "pct_change")
# Figures as evidence holds them: money, counts, small rates, with repeats and near-equal values.
FIGURE = st.one_of(
    st.integers(-(10**7), 10**7).map(lambda cents: cents / 100),
    st.integers(0, 999).map(float),
    st.floats(-1e12, 1e12, allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 100.0, 125.0, 1e-300, 1.7e308, 5e-324]),
)


def _bits(value: float) -> bytes:
    return struct.pack("<d", value)


def _python_fsum(values: list[float]) -> float | str:
    try:
        return math.fsum(values)
    except (OverflowError, ValueError) as error:
        return type(error).__name__


def _native_fsum(values: list[float]) -> float | str:
    try:
        return _native.fsum(values)
    except (OverflowError, ValueError) as error:
        return type(error).__name__


@settings(max_examples=5000, derandomize=True)
@given(st.lists(st.one_of(FIGURE, st.floats()), max_size=40))
def test_fsum_is_python_s_to_the_bit(values: list[float]) -> None:
    expected, got = _python_fsum(values), _native_fsum(values)
    if isinstance(expected, float) and isinstance(got, float):
        assert math.isnan(expected) == math.isnan(got)
        if not math.isnan(expected):
            assert _bits(got) == _bits(expected)
    else:
        assert got == expected


def test_fsum_raises_what_python_raises() -> None:
    with pytest.raises(OverflowError, match="intermediate overflow"):
        _native.fsum([1.7e308, 1.7e308])
    with pytest.raises(ValueError, match="-inf \\+ inf"):
        _native.fsum([math.inf, -math.inf])


@st.composite
def families(draw: st.DrawFn) -> tuple[list[int], list[float], list[str | None]]:
    figures = draw(st.lists(FIGURE, min_size=0, max_size=24))
    currencies = draw(
        st.lists(st.sampled_from([None, "USD", "EUR"]), min_size=len(figures), max_size=len(figures))
    )
    ordered = sorted(range(len(figures)), key=figures.__getitem__)
    return ordered, [figures[member] for member in ordered], currencies


@settings(max_examples=5000, derandomize=True)
@given(
    st.sampled_from(PAIR_OPERATIONS),
    families(),
    st.data(),
    st.booleans(),
    st.sampled_from([0.0, 0.005, 0.05, 0.5, 5.0]),
)
def test_the_pair_search_is_python_s(
    operation: DerivedOperation,
    family: tuple[list[int], list[float], list[str | None]],
    data: st.DataObject,
    percent: bool,
    reach: float,
) -> None:
    ordered, values, currencies = family
    # Aim at a real pair's result most of the time, so matches are exercised, not only misses.
    if len(values) >= 2 and data.draw(st.booleans()):
        first, second = data.draw(st.sampled_from(values)), data.draw(st.sampled_from(values))
        value = {"sum": first + second, "difference": first - second, "product": first * second}.get(
            operation, (first - second) / second * 100 if second else 1.0
        )
    else:
        value = data.draw(FIGURE)
    if not math.isfinite(value):
        value = 1.0
    change = -value if data.draw(st.booleans()) else value
    target = SimpleNamespace(value=value, change=change, reach=reach, kind="percent" if percent else "number")
    best = derivations._Best()
    derivations._pairs(operation, ordered, values, currencies, cast(Any, target), best)
    got = _native.derivation_pairs(operation, ordered, values, currencies, value, change, reach, percent)
    assert got[1] == best.operation
    assert got[2] == list(best.operands)
    if best.operation is not None:
        assert _bits(got[0]) == _bits(best.distance)
        assert _bits(got[3]) == _bits(best.value)


@settings(max_examples=2000, derandomize=True)
@given(
    st.integers(0, 10_000),
    st.frozensets(st.sampled_from((*PAIR_OPERATIONS, "average"))),
    st.booleans(),
)
def test_the_candidate_count_is_python_s(size: int, operations: frozenset[str], whole: bool) -> None:
    expected = derivations._candidates(size, cast(Any, operations), whole)
    assert _native.derivation_candidates(size, sorted(operations), whole) == expected
