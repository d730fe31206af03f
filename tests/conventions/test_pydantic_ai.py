"""Pydantic AI agent-run spans (``final_result``, ``pydantic_ai.all_messages``)."""

from __future__ import annotations

import json

from otel_groundedness.conventions import read_span
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE, PROMPT, span, text, tool_call, tool_response


def agent_span(final_result: object, messages: list[object]) -> dict[str, object]:
    return {
        "model_name": "gpt-4o-mini",
        "agent_name": "invoice-agent",
        "gen_ai.agent.name": "invoice-agent",
        "gen_ai.conversation.id": "run-uuid",
        "gen_ai.operation.name": "invoke_agent",
        "final_result": final_result,
        "pydantic_ai.all_messages": json.dumps(messages),
    }


def test_agent_span_answer_and_current_run_tool_results() -> None:
    messages = [
        text("user", PROMPT),
        tool_call(arguments='{"invoice_id": "INV-2210"}'),
        tool_response(INVOICE, key="result", role="user"),
        text("assistant", ANSWER),
    ]
    facts = read_span(span(agent_span(ANSWER, messages), "invoke_agent invoice-agent"))
    assert facts is not None and facts.convention == "pydantic_ai" and facts.is_agent
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [(INVOICE, CALL_ID, "get_invoice")]
    assert (facts.context.request_model, facts.context.agent_name) == ("gpt-4o-mini", "invoice-agent")
    assert facts.context.conversation_id == "run-uuid"


def test_chat_span_asking_for_a_tool_is_a_step() -> None:
    # Pydantic AI chat spans are semconv-shaped; its tool calls use the "tool_call" finish reason.
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.input.messages": json.dumps([text("user", PROMPT)]),
        "gen_ai.output.messages": json.dumps([{**tool_call(), "finish_reason": "tool_call"}]),
        "gen_ai.response.finish_reasons": ["tool_call"],
    }
    facts = read_span(span(attributes, "chat gpt-4o-mini"))
    assert facts is not None and facts.convention == "semconv"
    assert facts.answer is None and facts.tool_call_step and not facts.is_agent


def test_structured_output_becomes_json_text() -> None:
    facts = read_span(span(agent_span({"total": 1243500}, [text("user", PROMPT)])))
    assert facts is not None and facts.answer is not None
    assert json.loads(facts.answer) == {"total": 1243500}


def test_truncated_history_keeps_the_answer_and_flags_truncation() -> None:
    attributes = agent_span(ANSWER, [])
    attributes["pydantic_ai.all_messages"] = json.dumps([text("user", PROMPT), tool_call()])[:40]
    facts = read_span(span(attributes))
    assert facts is not None
    assert facts.answer == ANSWER and facts.content_truncated and facts.evidence == ()
