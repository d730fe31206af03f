"""Google ADK legacy (v1) spans, shaped after google-adk 2.13.0's ``telemetry/tracing.py`` with the
legacy schema: google-genai ``Content`` JSON in ``gcp.vertex.agent.*`` attributes. The same shapes from
the real library: ``tests/instrumentation/test_producers_live.py`` (``adk_legacy``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from otel_groundedness.conventions import is_genai_span, read_span
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE, INVOICE_JSON, PROMPT, span

CALL = {"function_call": {"id": CALL_ID, "name": "get_invoice", "args": {"invoice_id": "INV-2210"}}}
CONTENTS = [
    {"role": "user", "parts": [{"text": "Earlier question"}]},
    {"role": "user", "parts": [{"function_response": {"id": "old", "name": "x", "response": {"total": 99}}}]},
    {"role": "user", "parts": [{"text": PROMPT}]},
    {"role": "model", "parts": [CALL]},
    {
        "role": "user",
        "parts": [{"function_response": {"id": CALL_ID, "name": "get_invoice", "response": INVOICE}}],
    },
]


def llm_span(response: Any, contents: Any = CONTENTS) -> dict[str, Any]:
    return {
        "gen_ai.system": "gcp.vertex.agent",
        "gen_ai.request.model": "gemini-2.5-flash",
        "gcp.vertex.agent.invocation_id": "e-1",
        "gcp.vertex.agent.llm_request": json.dumps(
            {"model": "gemini-2.5-flash", "config": {}, "contents": contents}
        ),
        "gcp.vertex.agent.llm_response": response if isinstance(response, str) else json.dumps(response),
    }


def test_final_call_llm_span_is_self_contained() -> None:
    response = {"content": {"role": "model", "parts": [{"text": ANSWER}]}, "finish_reason": "STOP"}
    attributes = llm_span(response)
    assert is_genai_span(attributes)
    facts = read_span(span(attributes, "call_llm"))
    assert facts is not None and facts.convention == "adk_legacy"
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT and not facts.tool_call_step
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [(INVOICE, CALL_ID, "get_invoice")]
    assert facts.context.request_model == "gemini-2.5-flash"


def test_function_call_response_is_a_step_and_thoughts_are_no_answer() -> None:
    calling = {"content": {"role": "model", "parts": [{"text": "Let me look.", "thought": True}, CALL]}}
    facts = read_span(span(llm_span(calling, CONTENTS[:3])))
    assert facts is not None and facts.tool_call_step and facts.answer is None
    thinking = {"content": {"role": "model", "parts": [{"text": "hmm", "thought": True}, {"text": ANSWER}]}}
    final = read_span(span(llm_span(thinking)))
    assert final is not None and final.answer == ANSWER


def test_content_capture_off_writes_empty_objects() -> None:
    attributes = llm_span("{}")
    attributes["gcp.vertex.agent.llm_request"] = "{}"
    facts = read_span(span(attributes))
    assert facts is not None and facts.content_captured is False and facts.answer is None


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        (json.dumps({"result": INVOICE_JSON}), INVOICE_JSON),  # a tool returning a string
        (INVOICE_JSON, INVOICE),  # a tool returning a dict
    ],
)
def test_execute_tool_span_response_keyed_by_call_id(response: str, expected: Any) -> None:
    attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_invoice",
        "gen_ai.tool.call.id": CALL_ID,
        "gcp.vertex.agent.llm_request": "{}",
        "gcp.vertex.agent.llm_response": "{}",
        "gcp.vertex.agent.tool_call_args": '{"invoice_id": "INV-2210"}',
        "gcp.vertex.agent.tool_response": response,
    }
    facts = read_span(span(attributes, "execute_tool get_invoice"))
    assert facts is not None and facts.is_tool and facts.convention == "adk_legacy"
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [(expected, CALL_ID, "get_invoice")]


def test_execute_tool_span_without_content_or_call_id() -> None:
    attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.call.id": "<not specified>",
        "gcp.vertex.agent.tool_response": "{}",
    }
    facts = read_span(span(attributes, span_id=0xABC))
    assert facts is not None and facts.is_tool and facts.content_captured is False and facts.evidence == ()
