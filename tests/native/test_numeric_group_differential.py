"""The native range queries read what ``_NumericGroup`` of ``scoring/index.py`` reads: the same
values in the same order, as far as the caller reads them, with the same budget charged."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring.budget import WorkBudget
from otel_groundedness.scoring.digits import mantissa, variant_windows
from otel_groundedness.scoring.index import Hit, _NumericGroup

# Evidence values: repeats, near-equal values and both signs, so ties and runs are exercised.
VALUE = st.one_of(
    st.integers(-2000, 2000).map(lambda n: n / 4),
    st.sampled_from([0.0, -0.0, 1243.5, 1234.5, 12435.0, 124350.0, 1.2435e6, -1243.5]),
    st.floats(-1e9, 1e9, allow_nan=False),
)
BOUND = st.one_of(VALUE, st.sampled_from([float("-inf"), float("inf")]))


@st.composite
def queries(draw: st.DrawFn) -> tuple[Any, ...]:
    kind = draw(st.sampled_from(["within", "nearest", "count", "windows"]))
    low, high = sorted([draw(BOUND), draw(BOUND)])
    if kind == "within":
        return ("within", low, high, draw(st.integers(0, 40)))
    if kind == "nearest":
        return ("nearest", draw(VALUE), low, high, draw(st.integers(0, 40)))
    if kind == "count":
        return ("count", low, high)
    of = mantissa(draw(VALUE.filter(bool)))
    assert of is not None
    windows = variant_windows(of)
    runs = [(list(centers), unit, reach) for centers, unit, reach in windows.runs]
    return (
        "windows",
        runs,
        list(windows.firsts),
        list(windows.lasts),
        draw(st.booleans()),
        draw(st.integers(0, 40)),
    )


def _python(values: list[float], asked: list[tuple[Any, ...]], units: int) -> list[tuple[list[int], int]]:
    budget = WorkBudget(units)
    entries = [Hit("number", None, None, float(position)) for position in range(len(values))]  # type: ignore[arg-type]
    group = _NumericGroup("number", values, entries, budget)

    def read(hits: Iterable[Hit]) -> list[int]:
        return [int(hit.number) for hit in hits]

    answers = []
    for query in asked:
        kind = query[0]
        if kind == "within":
            found = read(itertools.islice(group.within(query[1], query[2]), query[3]))
        elif kind == "nearest":
            found = read(group.nearest(query[1], query[2], query[3], query[4]))
        elif kind == "count":
            found = [group.count(query[1], query[2])]
        else:
            windows = variant_windows_from(query[1], query[2], query[3])
            found = read(itertools.islice(group.in_windows(windows, query[4]), query[5]))
        answers.append((found, budget.left))
    return answers


def variant_windows_from(runs: list[Any], firsts: list[float], lasts: list[float]) -> Any:
    from otel_groundedness.scoring.digits import VariantWindows

    return VariantWindows([(centers, unit, reach) for centers, unit, reach in runs], firsts, lasts)


@settings(max_examples=3000, derandomize=True)
@given(st.lists(VALUE, max_size=60), st.lists(queries(), min_size=1, max_size=6))
def test_queries_read_what_python_reads(values: list[float], asked: list[tuple[Any, ...]]) -> None:
    assert _native.numeric_group_queries(values, list(asked), 10_000) == _python(values, asked, 10_000)


def test_windows_find_one_digit_slips_among_dense_values() -> None:
    values = [float(n) for n in range(1000, 1300)] + [12435.0, 14235.0, 1243.5]
    of = mantissa(12345.0)
    assert of is not None
    windows = variant_windows(of)
    runs = [(list(centers), unit, reach) for centers, unit, reach in windows.runs]
    asked = [("windows", runs, list(windows.firsts), list(windows.lasts), False, 50)]
    native = _native.numeric_group_queries(values, asked, 10_000)  # type: ignore[arg-type]
    assert native == _python(values, asked, 10_000)
    assert native[0][0], "the slips of 12345 are among the values"
