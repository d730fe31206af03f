"""The dispatch API: the cheap GenAI gate and the never-raising readers."""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry.attributes import BoundedAttributes

from otel_groundedness.conventions import is_genai_span, read_log_event, read_span
from tests.conventions.spans import log, span

HTTP_SPAN = {"http.request.method": "GET", "url.full": "http://x/", "http.response.status_code": 200}


@pytest.mark.parametrize(
    "key",
    [
        "gen_ai.operation.name",
        "gen_ai.system",
        "gen_ai.provider.name",
        "openinference.span.kind",
        "ai.operationId",
        "llm.request.type",
        "traceloop.span.kind",
        "gen_ai.completion.0.role",
        "final_result",
    ],
)
def test_gate_accepts_every_producer_family_in_plain_and_sdk_mappings(key: str) -> None:
    attributes = {**HTTP_SPAN, key: "x"}
    assert is_genai_span(attributes, "s")
    assert is_genai_span(BoundedAttributes(128, attributes, immutable=True), "s")


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
