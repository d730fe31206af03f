"""Evidence to score: the benchmarks' inputs, hostile shapes (deep, huge, cyclic,
broken, odd Python types) and generated items (``random_case``)."""

from __future__ import annotations

import datetime
import decimal
import json
import math
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from benchmarks import adversarial_bench, scoring_bench
from otel_groundedness.scoring.engine import items
from otel_groundedness.scoring.evidence import Evidence

CAPS = (0, 1, 2, 9, 64, 300, 4096, 262_144, 1 << 22)


# ---------------------------------------------------------------------------------------------
# Generated cases

# Strings the walk treats differently: numbers plain and padded, Unicode digits and spaces,
# atoms, currency codes, JSON-looking text, keyed numbers in broken JSON, lone surrogates.
PIECES = (
    "",
    " ",
    "0",
    "7",
    "-3",
    "12.50",
    " 1243500.00 ",
    "1e5",
    "-0",
    "00012",
    "1.",
    ".5",
    "1" * 31,
    "٣٤.٥",
    "\u3000 42 \u3000",
    "\x1c9\x1f",
    "１２",
    "USD",
    "usd",
    "eur",
    "EURO",
    "€",
    "$1,234.56",
    "2026-04-15",
    "INV-2210",
    "a@b.co",
    "https://x.io",
    "www.Example",
    "WWW.",
    "://",
    "yesterday",
    "Revenue",
    "name",
    "label",
    "unit",
    "(In millions)",
    "{",
    "[",
    " [1, 2]",
    '{"a": 1}',
    "{x",
    "[[",
    '"total": 12.5',
    '"tax":"3.20"',
    '"n": -1e3',
    '"bad": 1.2.3',
    '"k"  :  "7"',
    "é",
    "\ud800",
    "\udfff",
    "😀",
    "\u2028",
    "\\",
    '"',
    "\n",
    "\t",
    "x" * 70,
    "9" * 70,
    "é" * 40,
)
KEYS = (
    "total",
    "amount",
    "currency",
    "currency_code",
    "currencyCode",
    "ccy",
    "name",
    "label",
    "items",
    "rows",
    "2024",
    "Q1",
    "id",
    "",
    "a b",
    "INV-2210",
    "é",
    "k" * 70,
    "_x1",
    "1a",
    "\ud800",
    "3",
)
CURRENCY_VALUES = ("usd", "EUR", "gbp", "US", "USDX", "€€€", "u$d", "chf")


def _string(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.choice((1, 1, 2, 3, 6))))


def _leaf(rng: random.Random, level: int = 0) -> Any:
    pick = rng.randrange(24 if level < 4 else 22)
    if pick < 8:
        return _string(rng)
    if pick < 11:
        return rng.choice(
            (0, 1, -1, 7, 1243500, 2**53 + 1, -(2**63), 2**64, 10**30, 10**308 - 1, 10**308, 10**400)
        )
    if pick < 15:
        return rng.choice(
            (
                0.0,
                -0.0,
                1.5,
                0.1,
                1e16,
                1e-5,
                1e-4,
                123456.789,
                1e308,
                5e-324,
                float("nan"),
                float("inf"),
                -float("inf"),
            )
        ) * rng.choice((1, 1, -1))
    if pick < 17:
        return rng.choice((None, True, False))
    if pick == 17:
        return decimal.Decimal(rng.choice(("1.10", "-0", "1E+400", "NaN", "3.14159", "sNaN")))
    if pick == 18:
        return rng.choice(
            (datetime.date(2026, 4, 15), datetime.datetime(2026, 4, 15, 14, 5), datetime.time(7, 30))
        )
    if pick == 19:
        return rng.choice(
            (b"bytes 12", bytearray(b"9"), {1, 2}, frozenset(), complex(1, 2), Broken(), Digits())
        )
    if pick == 20:
        return Text(_string(rng))
    if pick == 21:
        return Number(rng.choice((0, 7, 10**400)))
    if rng.random() < 0.1:
        return _deep_json(rng)
    return _json_text(rng, level + 1)


def _deep_json(rng: random.Random) -> str:
    """JSON text about as deep as Python's recursion limit lets ``json.loads`` go, or JSON
    documents in strings four levels down."""
    if rng.random() < 0.5:
        levels = rng.randrange(960, 1000)
        return "[" * levels + rng.choice(("1", '"7"', "")) + "]" * levels
    text: Any = {"total": 12.5, "n": [1, 2]}
    for _ in range(rng.randrange(2, 6)):
        text = _dumps({"inner": text} if rng.random() < 0.5 else [text])
    return str(text)


def _dumps(value: Any, **options: Any) -> str:
    # Objects as their type's name: the text (and what the generator draws next) must not depend
    # on an address.
    return json.dumps(value, default=lambda thing: type(thing).__name__, skipkeys=True, **options)


def _json_text(rng: random.Random, level: int) -> str:
    """JSON text (sometimes cut or broken) of a random value, which may hold JSON text in turn."""
    value = _value(rng, 12, level)
    text = _dumps(value, ensure_ascii=rng.random() < 0.5, indent=rng.choice((None, None, 1)))
    if rng.random() < 0.3:
        text = text[: rng.randrange(len(text) + 1)]  # cut by its producer
    elif rng.random() < 0.1:
        text = text.replace(",", ",,", 1)
    return rng.choice(("", " ", "\n", "\u3000")) + text


def _value(rng: random.Random, budget: int, level: int = 0) -> Any:
    """A random JSON-like value of about ``budget`` nodes, built without recursion."""
    root: list[Any] = []
    open_: list[Any] = [root]
    for _ in range(max(1, rng.randrange(budget + 1))):
        parent = open_[-1]
        pick = rng.random()
        child: Any
        if pick < 0.03:
            child = _table(rng)
        elif pick < 0.15 and len(open_) < 40:
            child = rng.choice(([], {}, {}, (), Table()))
        else:
            child = _leaf(rng, level)
        if isinstance(parent, list):
            parent.append(child)
        elif isinstance(parent, dict):
            key = rng.choice(KEYS) if rng.random() < 0.9 else rng.choice((5, 2.5, None, (1, 2), Broken()))
            if key in ("currency", "ccy", "currency_code") and rng.random() < 0.7:
                child = rng.choice(CURRENCY_VALUES)
            parent[key] = child
        elif isinstance(parent, Table):
            parent.data[rng.choice(KEYS)] = child
        if isinstance(child, list | dict | Table):
            open_.append(child)
        if rng.random() < 0.25 and len(open_) > 1:
            open_.pop()
    return root[0] if root and rng.random() < 0.7 else root


def _table(rng: random.Random) -> list[Any]:
    """A JSON table: rows of cells or records, some cells odd (containers, long text, None)."""
    width = rng.randrange(1, 5)
    cells = (0, 2024, 1.5, -0.0, "12.50", "Revenue", "x" * 90, None, True, [1], {"a": 1}, 10**400, "€")
    if rng.random() < 0.5:
        return [[rng.choice(cells) for _ in range(width)] for _ in range(rng.randrange(1, 300))]
    keys = [rng.choice(KEYS) for _ in range(width)]
    return [{key: rng.choice(cells) for key in keys} for _ in range(rng.randrange(1, 300))]


class Broken:
    """An object whose ``__str__`` raises (and a key that does)."""

    def __str__(self) -> str:
        raise RuntimeError("no text")

    def __hash__(self) -> int:
        return 1


class Digits:
    def __str__(self) -> str:
        return "order 12345 of 2026-04-15"


class Text(str):
    """A ``str`` subclass."""


class Number(int):
    """An ``int`` subclass."""


class Table(Mapping[Any, Any]):
    """A mapping that is not a dict (its ``str()`` holds no address)."""

    def __init__(self) -> None:
        self.data: dict[Any, Any] = {}

    def __getitem__(self, key: Any) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __str__(self) -> str:
        return f"Table({len(self.data)})"


def random_case(rng: random.Random) -> tuple[list[Any], str | None, int, bool]:
    """Items, prompt, byte cap and every_string for one generated case."""
    items: list[Any] = []
    for index in range(rng.choice((0, 1, 1, 2, 3, 5))):
        content = _value(rng, rng.choice((3, 10, 40, 150))) if rng.random() < 0.6 else _leaf(rng)
        if rng.random() < 0.15:
            content = _dumps(content)
        if rng.random() < 0.2:
            kind = rng.choice(("tool_result", "user_prompt", "retrieval"))
            content = Evidence(
                content,
                source_id=rng.choice((None, f"call-{index}")),
                kind=kind,
                name=rng.choice((None, "search")),
            )
        items.append(content)
    prompt = rng.choice((None, None, "", 'What was revenue in 2024? {"a": 1}', _string(rng)))
    cap = rng.choice(CAPS[:-1]) if rng.random() < 0.7 else rng.randrange(1, 3000)
    return items, prompt, cap, rng.random() < 0.3


Case = tuple[str, list[Any], str | None]
BENCH_SHAPES = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "bench_shapes.json"


def benchmark_cases() -> Iterator[Case]:
    for case in scoring_bench.cases():
        yield f"scoring_bench {case.name}", list(items(case.evidence)), None
    for shape in adversarial_bench.shapes():
        yield f"adversarial_bench {shape.name}", list(items(shape.evidence)), None
    rng = random.Random(3)
    yield "dense_output 128 KB", [scoring_bench.dense_output(128 * 1024, rng)], None
    if BENCH_SHAPES.exists():
        for shape in json.loads(BENCH_SHAPES.read_text(encoding="utf-8")):
            yield f"bench_shapes {shape['id']}", list(items(shape["evidence"])), None


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
