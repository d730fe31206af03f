"""The dispatch API, built from the producer registry: the cheap GenAI gate, the dispatch order and
the never-raising readers."""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry.attributes import BoundedAttributes

from otel_groundedness.conventions import is_genai_span, read_log_event, read_span
from otel_groundedness.conventions.registry import (
    GATE_KEYS,
    LOG_READERS,
    PRODUCERS,
    SPAN_PRODUCERS,
    claimants,
)
from otel_groundedness.core import opens_agent
from tests.conventions.spans import INVOICE_JSON, log, span

HTTP_SPAN = {"http.request.method": "GET", "url.full": "http://x/", "http.response.status_code": 200}
ALL_GATE_KEYS = sorted(GATE_KEYS)


@pytest.mark.parametrize("producer", SPAN_PRODUCERS, ids=lambda producer: producer.name)
def test_a_producer_claims_a_span_by_any_one_of_its_gate_keys(producer: Any) -> None:
    for key in producer.gate_keys:
        assert producer in claimants({**HTTP_SPAN, key: "x"}), key
    others = {key: "x" for key in GATE_KEYS - producer.gate_keys}
    assert producer not in claimants({**HTTP_SPAN, **others})
    assert producer.gate_keys <= GATE_KEYS


def test_claimants_keep_the_dispatch_order() -> None:
    everything = {key: "x" for key in GATE_KEYS}
    assert claimants(everything) == list(SPAN_PRODUCERS)
    assert claimants(HTTP_SPAN) == []
    assert claimants({}) == []


@pytest.mark.parametrize("key", ALL_GATE_KEYS)
def test_gate_accepts_every_producer_key_in_plain_and_sdk_mappings(key: str) -> None:
    attributes = {**HTTP_SPAN, key: "x"}
    assert is_genai_span(attributes, "s")
    assert is_genai_span(BoundedAttributes(128, attributes, immutable=True), "s")
    assert claimants(attributes)


def test_dispatch_order_is_declared_once_and_unambiguous() -> None:
    orders = [producer.order for producer in PRODUCERS]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert len({producer.name for producer in PRODUCERS}) == len(PRODUCERS)
    # The most specific markers come before the generic gen_ai.* reader.
    names = [producer.name for producer in SPAN_PRODUCERS]
    assert names[-1] == "semconv" and names.index("traceloop") < names.index("openllmetry_indexed")
    assert set(LOG_READERS) >= {"gen_ai.choice", "gen_ai.client.inference.operation.details"}


def test_a_span_with_only_a_tool_call_result_passes_the_gate_and_is_evidence() -> None:
    attributes = {"gen_ai.tool.call.result": INVOICE_JSON, "gen_ai.tool.call.id": "call_1"}
    assert is_genai_span(BoundedAttributes(128, attributes, immutable=True), "get_invoice")
    facts = read_span(span(attributes))
    assert facts is not None and facts.is_tool
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE_JSON, "call_1")]


def test_a_span_a_specific_producer_leaves_unread_falls_to_the_next() -> None:
    # Traceloop's OpenAI Agents instrumentation marks its response spans with a span kind too.
    attributes = {
        "traceloop.span.kind": "task",
        "gen_ai.operation.name": "chat",
        "gen_ai.output.messages": '[{"role": "assistant", "parts": [{"type": "text", "content": "ok"}]}]',
    }
    facts = read_span(span(attributes))
    assert facts is not None and facts.convention == "semconv" and facts.answer == "ok"


def test_gate_rejects_other_spans() -> None:
    assert not is_genai_span(HTTP_SPAN, "GET /")
    assert not is_genai_span(BoundedAttributes(128, HTTP_SPAN, immutable=True), "GET /")
    assert not is_genai_span(None)
    assert not is_genai_span({}, "chat gpt-4o-mini")  # names alone are not trusted


class _Exploding(dict[str, Any]):
    def get(self, key: str, default: Any = None) -> Any:
        raise RuntimeError("broken mapping")


@pytest.mark.parametrize(
    "attributes",
    [
        {"gen_ai.operation.name": "chat", "gen_ai.input.messages": 42, "gen_ai.output.messages": "[{"},
        {"gen_ai.operation.name": "chat", "gen_ai.input.messages": '[1, "x", null, {"parts": 5}]'},
        {"openinference.span.kind": "LLM", "llm.input_messages.x.message.role": "user", "output.value": "[]"},
        {"ai.operationId": "ai.generateText.doGenerate", "ai.prompt.messages": '{"role": "tool"}'},
        {"pydantic_ai.all_messages": '"just a string"', "final_result": None},
        _Exploding({"gen_ai.operation.name": "chat"}),
    ],
)
def test_malformed_content_never_raises(attributes: dict[str, Any]) -> None:
    facts = read_span(span(attributes))
    assert facts is None or facts.answer is None


def test_malformed_log_bodies_never_raise() -> None:
    for body in (None, 5, "[", ["x"], {"content": None}, {"message": "not a dict"}):
        for name in ("gen_ai.user.message", "gen_ai.tool.message", "gen_ai.choice"):
            facts = read_log_event(log(name, body))
            assert facts is None or (facts.answer is None and facts.evidence == ())


def test_non_genai_span_reads_as_none() -> None:
    assert read_span(span(HTTP_SPAN)) is None


def test_agent_spans_are_semconv_invoke_agent_and_the_names_producers_declare() -> None:
    assert opens_agent("invoke_agent invoice-agent") and opens_agent("invoke_agent")
    # The AI SDK's legacy roots hold their steps; the steps and tool calls do not open a turn.
    assert opens_agent("ai.generateText") and opens_agent("ai.streamText")
    assert not any(opens_agent(name) for name in ("ai.generateText.doGenerate", "ai.toolCall", "chat gpt-4o"))
