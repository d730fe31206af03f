"""Evidence walker: nested payloads, JSON strings, dict keys, raw scalars and the byte cap.

The walk is the native engine's (``_native.collect``, plain tuples: see otel_groundedness/_native.pyi);
``walk`` below names the parts these tests read.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

from otel_groundedness import _native
from otel_groundedness.scoring import Evidence


@dataclass(frozen=True)
class Source:
    index: int | None
    source_id: Any
    kind: str
    name: Any


@dataclass(frozen=True)
class Fragment:
    source: Source
    path: str | None  # rendered
    text: str


@dataclass(frozen=True)
class Scalar:
    source: Source
    path: str | None  # rendered
    value: float
    currency: str | None
    start: int | None
    end: int | None


@dataclass(frozen=True)
class Corpus:
    fragments: list[Fragment]
    scalars: list[Scalar]
    has_tool_evidence: bool
    reasons: set[str]

    @property
    def truncated(self) -> bool:
        return bool(self.reasons)


def collect(items: list[Any], prompt: str | None, cap: int, every_string: bool = False) -> Corpus:
    """The native evidence walk of ``items`` (and the prompt) under a byte cap of ``cap``."""
    fragments, values, rows, tool, reasons, _ = _native.collect(items, prompt, cap, every_string)
    plain: list[Any] = [*fragments]
    plain_rows: list[Any] = [*rows]
    return Corpus(
        [Fragment(Source(*row[0]), row[1], row[3]) for row in plain],
        [
            Scalar(Source(*row[0]), row[1], value, row[4], row[6], row[7])
            for value, row in zip(values, plain_rows, strict=True)
        ],
        tool,
        set(reasons),
    )


def texts(corpus: Corpus) -> list[str]:
    return [fragment.text for fragment in corpus.fragments]


def scalars(corpus: Corpus) -> list[tuple[str | None, float]]:
    return [(raw.path, raw.value) for raw in corpus.scalars]


def test_nested_payload_is_walked_in_document_order_with_keys() -> None:
    payload = {
        "INV-2210": {"amount": "$1,243,500", "lines": [{"sku": "A-100", "qty": 3, "by": "a@b.example"}]}
    }
    corpus = collect([payload], None, 10_000)
    # Strings that cannot hold an atom (no digit, "@", "://" or "www.") are not kept.
    assert texts(corpus) == ["INV-2210", "$1,243,500", "A-100", "a@b.example"]
    assert scalars(corpus) == [('$["INV-2210"].lines[0].qty', 3.0)]
    assert corpus.fragments[1].path == '$["INV-2210"].amount'
    assert collect([payload], None, 10_000, every_string=True).fragments[1].text == "amount"


def test_json_documents_inside_strings_are_parsed_and_walked() -> None:
    tool_message = json.dumps({"content": json.dumps({"invoice": {"total": 1243500}})})
    corpus = collect([tool_message], None, 10_000)
    assert scalars(corpus) == [("$.content.invoice.total", 1243500.0)]


def test_numeric_strings_are_raw_scalars_and_booleans_are_not_numbers() -> None:
    corpus = collect([{"amount": "1243500.00", "paid": True, "note": None}], None, 10_000)
    assert scalars(corpus) == [("$.amount", 1243500.0)]


def test_currency_sibling_marks_the_numbers_of_its_object() -> None:
    corpus = collect([{"total": 1000, "currency": "eur", "nested": {"fee": 5}}], None, 10_000)
    assert [(raw.value, raw.currency) for raw in corpus.scalars] == [(1000.0, "EUR"), (5.0, None)]


def test_unparseable_json_is_scanned_as_text_and_keyed_numbers_survive() -> None:
    cut = '{"invoice": {"total": 1243500, "tax": "99000.50", "memo": "due soon'
    corpus = collect([cut], None, 10_000)
    assert texts(corpus) == [cut]
    assert corpus.truncated and corpus.reasons == {"unparseable_json"}
    assert scalars(corpus) == [("$..total", 1243500.0), ("$..tax", 99000.5)]
    first = corpus.scalars[0]
    assert first.start is not None and cut[first.start : first.end] == "1243500"


def test_byte_cap_keeps_the_part_that_fits_and_flags_truncation() -> None:
    corpus = collect(["1" * 60, "Invoice INV-2210 total $1,243,500", "never read 2"], None, 80)
    assert corpus.truncated
    assert texts(corpus) == ["1" * 60, "Invoice INV-2210 tot"]


def test_byte_cap_counts_utf8_bytes_and_never_splits_a_character() -> None:
    corpus = collect(["1€€€"], None, 8)  # 3 bytes per euro sign
    assert corpus.truncated and texts(corpus) == ["1€€"]


def test_within_the_cap_nothing_is_flagged() -> None:
    assert not collect(["x" * 100], None, 100).truncated


def test_user_prompt_is_evidence_without_being_tool_evidence() -> None:
    corpus = collect([], "Is the total $1,243,500?", 1000)
    assert texts(corpus) == ["Is the total $1,243,500?"]
    assert corpus.fragments[0].source.kind == "user_prompt" and corpus.fragments[0].source.index is None
    assert not corpus.has_tool_evidence
    assert collect([""], None, 1000).has_tool_evidence  # a tool that returned nothing is still evidence


def test_evidence_objects_keep_their_source() -> None:
    corpus = collect(["x", Evidence({"n": 12345}, source_id="call_1", name="get_invoice")], None, 1000)
    source = corpus.scalars[0].source
    assert (source.index, source.source_id, source.name, source.kind) == (
        1,
        "call_1",
        "get_invoice",
        "tool_result",
    )


def test_nesting_far_past_the_recursion_limit_is_walked_in_order() -> None:
    deep: object = 42
    for _ in range(sys.getrecursionlimit() * 2):
        deep = {"level": [deep, 7]}
    corpus = collect([deep], None, 1 << 20)
    assert not corpus.truncated and corpus.reasons == set()
    assert [raw.value for raw in corpus.scalars][:3] == [42.0, 7.0, 7.0]  # document order: deepest first


def test_containers_and_nulls_are_charged_so_the_byte_cap_ends_any_walk() -> None:
    corpus = collect([[None] * 1_000_000, [[]] * 1_000_000, "INV-2210"], None, 1000)
    assert corpus.truncated and corpus.reasons == {"max_evidence_bytes"} and not corpus.fragments


def test_rendered_paths_stay_short_however_deep_or_long_the_keys() -> None:
    deep: object = {"k" * 100_000: {"total": 5}}
    for level in reversed(range(5_000)):  # well inside the walk's MAX_DEPTH (corpus.rs): no truncation
        deep = {"level": deep} if level % 2 else [deep]
    corpus = collect([deep], None, 1 << 20)
    assert not corpus.truncated and [raw.value for raw in corpus.scalars] == [5.0]
    rendered = corpus.scalars[0].path
    assert rendered is not None and rendered.startswith("$..") and rendered.endswith(".total")
    assert len(rendered) < 400
    # Short paths are unchanged.
    assert scalars(collect([{"invoice": {"total": 5}}], None, 1000)) == [("$.invoice.total", 5.0)]
