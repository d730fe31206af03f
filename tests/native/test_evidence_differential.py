"""The native evidence walk agrees exactly with the Python one (``scoring.corpus.collect``) on the
dev sets, the benchmarks' inputs, hostile shapes and generated values, at several byte caps.

What is compared (``tests.native.evidence_cases``): every fragment, scalar (values bit for bit)
and array with its source, rendered path, labels and siblings; truncation reasons.
"""

from __future__ import annotations

import datetime
import decimal
import json
import math
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import adversarial_bench, scoring_bench
from otel_groundedness.scoring.evidence import Evidence
from otel_groundedness.scoring.scorer import _items
from tests.native.evidence_cases import PIECES, Broken, Digits, Number, Table, Text, difference

TESTS = Path(__file__).parent.parent
DEVSETS = [
    *sorted((TESTS / "data" / "devset").glob("*.jsonl")),
    TESTS / "scoring" / "devset" / "tables.jsonl",
]
BENCH_SHAPES = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "bench_shapes.json"
CAPS = (0, 1, 9, 300, 4096, 262_144, 1 << 22)

Case = tuple[str, list[Any], str | None]


def devset_cases() -> Iterator[Case]:
    for path in DEVSETS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if line.strip():
                case = json.loads(line)
                yield f"{path.name}:{number}", list(_items(case["evidence"])), case.get("user_prompt")


def benchmark_cases() -> Iterator[Case]:
    for case in scoring_bench.cases():
        yield f"scoring_bench {case.name}", list(_items(case.evidence)), None
    for shape in adversarial_bench.shapes():
        yield f"adversarial_bench {shape.name}", list(_items(shape.evidence)), None
    rng = random.Random(3)
    yield "dense_output 128 KB", [scoring_bench.dense_output(128 * 1024, rng)], None
    if BENCH_SHAPES.exists():
        for shape in json.loads(BENCH_SHAPES.read_text(encoding="utf-8")):
            yield f"bench_shapes {shape['id']}", list(_items(shape["evidence"])), None


def _nested(depth: int, make: str) -> Any:
    """``depth`` nested lists or dicts, built without recursion."""
    value: Any = 1
    for _ in range(depth):
        value = [value] if make == "list" else {"k": value}
    return value


def _in_strings(value: Any, levels: int) -> str:
    text = json.dumps(value)
    for _ in range(levels - 1):
        text = json.dumps({"payload": text})
    return text


def hostile_cases() -> Iterator[Case]:
    yield "a million nulls", [[None] * 1_000_000], None
    yield "100,000-deep lists", [_nested(100_000, "list")], None
    yield "100,000-deep dicts", [_nested(100_000, "dict")], None
    yield "100,000-deep lists as JSON text", ["[" * 100_000 + "]" * 100_000], None
    yield "100,000-deep dicts as JSON text", ['{"a":' * 100_000 + "1" + "}" * 100_000], None
    yield "deep records of lists", [[{"a": [{"b": _nested(10_005, "list")}]}]], None
    yield "a 1 MB string", ["revenue 1243500 " + "x" * (1 << 20), "after 12"], None
    yield "a 1 MB non-ASCII string", ["é€😀 12 " * (1 << 17)], None
    yield "a 100 KB key", [{"k" * 100_000: 12, "total": 3}, {"é" * 50_000 + "\ud800": "7"}], None
    yield (
        "numbers at the edges",
        [
            [
                math.nan,
                math.inf,
                -math.inf,
                -0.0,
                0.0,
                1e308,
                5e-324,
                10**308 - 1,
                10**308,
                -(10**308),
                10**400,
                2**63,
                -(2**63) - 1,
            ]
        ],
        None,
    )
    yield (
        "numbers in JSON text",
        ["[NaN, Infinity, -Infinity, -0, -0.0, 1e400, 1E-400, 123456789012345678901234567890]"],
        None,
    )
    yield "a 4300-digit int in JSON text", ["[" + "7" * 4300 + "]", "[" + "7" * 4301 + "]"], None
    yield (
        "Python types",
        [
            [
                decimal.Decimal("1.10"),
                decimal.Decimal("NaN"),
                decimal.Decimal("1E+400"),
                datetime.date(2026, 4, 15),
            ],
            [datetime.datetime(2026, 4, 15, 14, 5, tzinfo=datetime.UTC), datetime.time(7, 30), b"bytes 12"],
            [
                (1, "2.50", (3,)),
                {1, 2},
                frozenset({"a"}),
                Broken(),
                Digits(),
                Text("12"),
                Number(7),
                Number(10**400),
            ],
            {
                Broken(): "x 1",
                5: "five 5",
                (1, 2): 3,
                None: 4,
                2.5: "x",
                Text("currency"): "usd",
                "amount": 12,
            },
            Table(),
        ],
        None,
    )
    nested_json = {"total": 12.5, "rows": [[1, 2], [3, 4]], "currency": "eur"}
    for levels in (1, 2, 3, 4, 5):
        yield f"JSON text {levels} levels down in strings", [_in_strings(nested_json, levels)], None
    whole = json.dumps(
        {"invoice": {"total": 1243500.0, "tax": "12.30", "lines": [{"amount": 1, "sku": "A-1"}] * 20}}
    )
    yield "cut JSON documents", [whole[:cut] for cut in range(0, len(whole), 37)], None
    yield (
        "lone surrogates",
        ["\ud800 12 \udfff", '["\\ud800 7", "\\ud83d\\ude00 8"]', {"\udc00": "\ud800 9"}],
        None,
    )
    yield (
        "Evidence objects",
        [
            Evidence({"total": 12}, source_id="call-1", kind="tool_result", name="search"),
            Evidence("The prompt said 2024", kind="user_prompt"),
            Evidence('{"a": "12"}', source_id=None, kind="retrieval", name=None),
            Evidence([1, 2], source_id=7, kind=Text("user_prompt"), name=b"tool"),  # type: ignore[arg-type]
            Evidence("3 of them", source_id=("a", 1), kind=None, name=Broken()),  # type: ignore[arg-type]
            "plain 7",
        ],
        'Compare 2024 with 2025: {"a": 1}',
    )
    records = [{"line": f"item {i}", "2024": i * 1.5, "2025": str(i), "note": "x" * 90} for i in range(5000)]
    rows = [["Revenue", 2024, 2025]] + [[f"row {i}", i, -i * 0.5, None, [i]] for i in range(5000)]
    yield (
        "tables cut by the budget",
        [{"unit": "In millions", "records": records, "name": "Revenue", "ccy": "eur"}],
        None,
    )
    yield "rows cut by the budget", [{"rows": rows, "caption": "(In thousands)"}, rows], None
    shared = {"total": 12, "currency": "usd", "rows": [[1, 2]]}
    yield "one object in several places", [shared, [shared, {"x": shared}], shared], None
    loop: list[Any] = [1, "12"]
    loop.append(loop)
    cycle: dict[str, Any] = {"total": 3}
    cycle["self"] = cycle
    yield "cycles", [loop, cycle], None
    yield "only a prompt", [], "revenue in 2024 was $1,243,500"
    yield "only prompt-kind evidence", [Evidence("12", kind="user_prompt")], None
    yield "empty items", [None, "", [], {}, (), 0, "   "], None
    yield "pieces", [list(PIECES), dict(zip(PIECES, PIECES, strict=True))], None


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
