"""The native evidence walk agrees exactly with the Python one (``scoring.corpus.collect``) on the
dev sets, the benchmarks' inputs, hostile shapes and generated values, at several byte caps.

What is compared (``tests.native.evidence_cases``): every fragment, scalar (values bit for bit)
and array with its source, rendered path, labels and siblings; truncation reasons.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from otel_groundedness.scoring.scorer import _items
from tests.native.evidence_cases import (
    PIECES,
    Case,
    benchmark_cases,
    difference,
    hostile_cases,
)

TESTS = Path(__file__).parent.parent
DEVSETS = [
    *sorted((TESTS / "data" / "devset").glob("*.jsonl")),
    TESTS / "scoring" / "devset" / "tables.jsonl",
]
BENCH_SHAPES = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "bench_shapes.json"
CAPS = (0, 1, 9, 300, 4096, 262_144, 1 << 22)



def devset_cases() -> Iterator[Case]:
    for path in DEVSETS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if line.strip():
                case = json.loads(line)
                yield f"{path.name}:{number}", list(_items(case["evidence"])), case.get("user_prompt")


def _run(cases: Iterator[Case], caps: tuple[int, ...] = CAPS) -> int:
    ran = 0
    for name, items, prompt in cases:
        for cap in caps:
            for every_string in (False, True):
                found = difference(items, prompt, cap, every_string)
                assert found is None, f"{name}: {found}"
        ran += 1
    return ran


def test_devsets_agree() -> None:
    assert _run(devset_cases()) >= 580  # every dev-set case ran


def test_benchmark_inputs_agree() -> None:
    assert _run(benchmark_cases()) >= 20


def test_hostile_shapes_agree() -> None:
    _run(hostile_cases(), (0, 5, 333, 4096, 262_144, 1 << 22))


def test_unicode_digits_and_spaces_agree() -> None:
    """Python's ``\\d`` (Unicode 14 in Python 3.11: newer decimal runs are not digits to it) and
    ``str.strip`` whitespace, as plain numbers and around them."""
    newer = [0x10D40, 0x116D0, 0x116DA, 0x11BF0, 0x11F50, 0x16130, 0x16D70, 0x1CCF0, 0x1E4F0, 0x1E5F1]
    chars = {chr(code) for code in range(0x3100) if not 0xD800 <= code <= 0xDFFF}
    chars |= {chr(code) for code in range(0x10000, 0x20000) if re.fullmatch(r"\d", chr(code))}
    chars |= {chr(start + offset) for start in newer for offset in range(10)}
    for make in (lambda c: c, lambda c: "1" + c, lambda c: c + "5" + c, lambda c: f'"k": "{c}7"'):
        items = [make(char) for char in sorted(chars)]
        assert difference(items, None, 1 << 30, False) is None


def _at_depth(frames: int, items: list[Any]) -> str | None:
    """``difference`` called ``frames`` frames deeper: where ``json.loads`` hits the recursion
    limit moves with the caller's stack, and the native engine must move with it."""
    if frames:
        return _at_depth(frames - 1, items)
    return difference(items, None, 1 << 22, False)


@pytest.mark.parametrize("frames", [0, 37, 400])
def test_json_nesting_fails_where_python_recursion_does(frames: int) -> None:
    assert sys.getrecursionlimit() == 1000
    documents = ["[" * levels + "]" * levels for levels in range(500, 1000, 7)]
    for shape in (lambda doc: doc, lambda doc: [doc], lambda doc: {"k": doc}, lambda doc: [{"k": doc}]):
        for doc in documents:
            assert _at_depth(frames, [shape(doc)]) is None


# Random JSON-like values (Python types the walk treats specially among them) and JSON texts.
_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**320), max_value=10**320),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(PIECES),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.dates(),
)
_values = st.recursive(
    _leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.dictionaries(
            st.one_of(st.sampled_from(("total", "currency", "name", "ccy", "")), st.text(max_size=8)),
            children,
            max_size=6,
        ),
        st.tuples(children, children),
    ),
    max_leaves=30,
)


@st.composite
def _json_texts(draw: st.DrawFn) -> str:
    value = draw(_values)
    text = json.dumps(value, default=str, skipkeys=True)
    mangle = draw(st.sampled_from(("whole", "cut", "insert", "nested")))
    if mangle == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif mangle == "insert":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from((",", "]", "{", '"', "\\u", "NaN", " "))) + text[at:]
    elif mangle == "nested":
        text = json.dumps([text, {"inner": text}])
    return text


@settings(max_examples=5000, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    items=st.lists(st.one_of(_values, _json_texts()), max_size=4),
    prompt=st.one_of(st.none(), st.text(max_size=30)),
    cap=st.sampled_from((0, 1, 2, 9, 64, 300, 4096, 262_144)),
    every_string=st.booleans(),
)
def test_generated_values_agree(items: list[Any], prompt: str | None, cap: int, every_string: bool) -> None:
    assert difference(items, prompt, cap, every_string) is None
