"""GenAI content in span events, shaped like Strands Agents 1.62.0's default and latest modes."""

from __future__ import annotations

import json
from typing import Any

from otel_groundedness.conventions import read_span
from otel_groundedness.records import SpanEventRecord, SpanRecord
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE_JSON, PROMPT

TOOL_ATTRIBUTES = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "get_invoice",
    "gen_ai.tool.call.id": CALL_ID,
}
TOOL_USE = {"toolUse": {"toolUseId": CALL_ID, "name": "get_invoice", "input": {"invoice_id": "INV-2210"}}}
TOOL_RESULT = {"toolResult": {"toolUseId": CALL_ID, "status": "success", "content": [{"text": INVOICE_JSON}]}}


def strands_span(name: str, attributes: dict[str, Any], *events: tuple[str, dict[str, Any]]) -> SpanRecord:
    return SpanRecord(
        trace_id=1,
        span_id=7,
        parent_span_id=None,
        name=name,
        kind="INTERNAL",
        start_time_ns=0,
        end_time_ns=1,
        attributes={"gen_ai.system": "strands-agents", **attributes},
        events=tuple(SpanEventRecord(event, attrs) for event, attrs in events),
    )


def blocks(*content: Any) -> str:
    return json.dumps(list(content))


def test_default_mode_chat_span_reads_its_message_events() -> None:
    span = strands_span(
        "chat",
        {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini"},
        ("gen_ai.user.message", {"content": blocks({"text": "Earlier question"})}),
        ("gen_ai.tool.message", {"content": blocks({**TOOL_RESULT, "toolResult": {"toolUseId": "old"}})}),
        ("gen_ai.user.message", {"content": blocks({"text": PROMPT})}),
        ("gen_ai.assistant.message", {"content": blocks(TOOL_USE)}),
        ("gen_ai.tool.message", {"content": blocks(TOOL_RESULT)}),
        ("gen_ai.choice", {"finish_reason": "end_turn", "message": blocks({"text": ANSWER})}),
    )
    facts = read_span(span)
    assert facts is not None and facts.answer == ANSWER and facts.user_prompt == PROMPT
    # Text blocks are unwrapped: the JSON document inside is the evidence.
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE_JSON, CALL_ID)]


def test_default_mode_tool_use_choice_is_a_step() -> None:
    span = strands_span(
        "chat",
        {"gen_ai.operation.name": "chat"},
        ("gen_ai.user.message", {"content": blocks({"text": PROMPT})}),
        ("gen_ai.choice", {"finish_reason": "tool_use", "message": blocks(TOOL_USE)}),
    )
    facts = read_span(span)
    assert facts is not None and facts.tool_call_step and facts.answer is None


def test_default_mode_tool_span_result_is_the_choice_not_the_tool_message() -> None:
    span = strands_span(
        "execute_tool get_invoice",
        TOOL_ATTRIBUTES,
        ("gen_ai.tool.message", {"role": "tool", "content": '{"invoice_id": "INV-2210"}', "id": CALL_ID}),
        ("gen_ai.choice", {"message": blocks({"text": INVOICE_JSON}), "id": CALL_ID}),
    )
    facts = read_span(span)
    assert facts is not None and facts.is_tool
    evidence = [(e.content, e.source_id, e.name) for e in facts.evidence]
    assert evidence == [(INVOICE_JSON, CALL_ID, "get_invoice")]


RESULT_BLOCKS = [{"text": INVOICE_JSON}]


def test_latest_mode_operation_details_events_and_tool_call_result() -> None:
    inputs = [
        {"role": "user", "parts": [{"type": "text", "content": PROMPT}]},
        {"role": "user", "parts": [{"type": "tool_call_response", "id": CALL_ID, "response": RESULT_BLOCKS}]},
    ]
    outputs = [{"role": "assistant", "parts": [{"type": "text", "content": ANSWER}], "finish_reason": "stop"}]
    details = "gen_ai.client.inference.operation.details"
    chat = strands_span(
        "chat",
        {"gen_ai.operation.name": "chat"},
        (details, {"gen_ai.input.messages": json.dumps(inputs)}),
        (details, {"gen_ai.output.messages": json.dumps(outputs)}),
    )
    facts = read_span(chat)
    assert facts is not None and facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE_JSON, CALL_ID)]
    tool = strands_span(
        "execute_tool get_invoice",
        {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.result": blocks({"text": INVOICE_JSON})},
    )
    tool_facts = read_span(tool)
    assert tool_facts is not None and [e.content for e in tool_facts.evidence] == [INVOICE_JSON]
