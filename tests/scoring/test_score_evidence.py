"""Evidence walker: nested payloads, JSON strings, dict keys, raw scalars and the byte cap."""

from __future__ import annotations

import json

from otel_groundedness.scoring import Evidence
from otel_groundedness.scoring.evidence import Corpus, collect


def texts(corpus: Corpus) -> list[str]:
    return [fragment.text for fragment in corpus.fragments]


def scalars(corpus: Corpus) -> list[tuple[str | None, float]]:
    return [(None if raw.path is None else raw.path.render(), raw.value) for raw in corpus.scalars]


def test_nested_payload_is_walked_in_document_order_with_keys() -> None:
    corpus = collect(
        [{"INV-2210": {"amount": "$1,243,500", "lines": [{"sku": "A-100", "qty": 3}]}}], None, 10_000
    )
    assert texts(corpus) == ["INV-2210", "amount", "$1,243,500", "lines", "sku", "A-100", "qty"]
    assert scalars(corpus) == [('$["INV-2210"].lines[0].qty', 3.0)]
    amount = corpus.fragments[2]
    assert amount.path is not None and amount.path.render() == '$["INV-2210"].amount'


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
    assert scalars(corpus) == [("$..total", 1243500.0), ("$..tax", 99000.5)]
    first = corpus.scalars[0]
    assert first.start is not None and cut[first.start : first.end] == "1243500"


def test_byte_cap_keeps_the_part_that_fits_and_flags_truncation() -> None:
    corpus = collect(["a" * 60, "Invoice INV-2210 total $1,243,500", "never read"], None, 80)
    assert corpus.truncated
    assert texts(corpus) == ["a" * 60, "Invoice INV-2210 tot"]


def test_byte_cap_counts_utf8_bytes_and_never_splits_a_character() -> None:
    corpus = collect(["€€€€"], None, 7)  # 3 bytes each
    assert corpus.truncated and texts(corpus) == ["€€"]


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


def test_deep_nesting_does_not_hit_the_recursion_limit() -> None:
    payload: object = 42
    for _ in range(5000):
        payload = {"level": [payload]}
    corpus = collect([payload], None, 1 << 20)
    assert [raw.value for raw in corpus.scalars] == [42.0]
