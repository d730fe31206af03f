"""Event-form content: ≤1.36 per-message log events and the inference operation-details event."""

from __future__ import annotations

from otel_groundedness.conventions import read_log_event
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE_JSON, PROMPT, log, text, tool_call, tool_response


def test_per_message_events() -> None:
    user = read_log_event(log("gen_ai.user.message", {"content": PROMPT}, {"gen_ai.system": "openai"}))
    assert user is not None and user.user_prompt == PROMPT and user.context.provider == "openai"
    tool = read_log_event(log("gen_ai.tool.message", {"content": INVOICE_JSON, "id": CALL_ID}))
    assert tool is not None and [(e.content, e.source_id) for e in tool.evidence] == [(INVOICE_JSON, CALL_ID)]
    choice = read_log_event(
        log("gen_ai.choice", {"index": 0, "finish_reason": "stop", "message": {"content": ANSWER}})
    )
    assert choice is not None and choice.answer == ANSWER and not choice.tool_call_step


def test_choice_with_tool_calls_is_a_step_not_an_answer() -> None:
    calls = [{"id": CALL_ID, "type": "function", "function": {"name": "get_invoice", "arguments": "{}"}}]
    by_reason = {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant"}}
    by_calls = {"index": 0, "finish_reason": "stop", "message": {"tool_calls": calls}}
    for body in (by_reason, by_calls):
        facts = read_log_event(log("gen_ai.choice", body))
        assert facts is not None and facts.answer is None and facts.tool_call_step
    filtered = read_log_event(log("gen_ai.choice", {"index": 0, "finish_reason": "content_filter"}))
    assert filtered is not None and filtered.answer is None and not filtered.tool_call_step


def test_openllmetry_tool_message_without_id_and_list_content_user_message() -> None:
    tool = read_log_event(log("gen_ai.tool.message", {"content": INVOICE_JSON, "role": "tool"}))
    assert tool is not None and tool.evidence[0].source_id is None
    parts = [{"type": "text", "text": "What is the total "}, {"type": "text", "text": "of INV-2210?"}]
    user = read_log_event(log("gen_ai.user.message", {"content": parts}))
    assert user is not None and user.user_prompt == "What is the total of INV-2210?"


def test_events_without_groundedness_content_are_ignored() -> None:
    assert read_log_event(log("gen_ai.system.message", {"content": "Be brief."})) is None
    assert read_log_event(log("gen_ai.assistant.message", {"tool_calls": []})) is None
    assert read_log_event(log("app.audit", {"content": PROMPT})) is None


def test_operation_details_event_has_structured_messages() -> None:
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.response.id": "chatcmpl-2",
        "gen_ai.input.messages": (text("user", PROMPT), tool_call(), tool_response()),
        "gen_ai.output.messages": ({"role": "assistant", "parts": ({"type": "text", "content": ANSWER},)},),
    }
    facts = read_log_event(log("gen_ai.client.inference.operation.details", None, attributes))
    assert facts is not None
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [e.content for e in facts.evidence] == [INVOICE_JSON]
    assert facts.context.response_id == "chatcmpl-2" and facts.context.operation == "chat"
    assert not facts.tool_call_step


def test_operation_details_event_with_tool_call_output_is_a_step() -> None:
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": (text("user", PROMPT),),
        "gen_ai.output.messages": ({**tool_call(), "finish_reason": "tool_call"},),
    }
    facts = read_log_event(log("gen_ai.client.inference.operation.details", None, attributes))
    assert facts is not None and facts.answer is None and facts.tool_call_step
