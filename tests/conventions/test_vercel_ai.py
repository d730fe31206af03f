"""Vercel AI SDK ≤6 (and 7 with LegacyOpenTelemetry) ``ai.*`` spans."""

from __future__ import annotations

import json
from typing import Any

from otel_groundedness.conventions import read_span
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE, INVOICE_JSON, PROMPT, span

STEP_MESSAGES = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": [{"type": "text", "text": PROMPT}]},
    {
        "role": "assistant",
        "content": [
            {
                "type": "tool-call",
                "toolCallId": CALL_ID,
                "toolName": "get_invoice",
                "input": {"invoice_id": "INV-2210"},
            }
        ],
    },
    {
        "role": "tool",
        "content": [
            {
                "type": "tool-result",
                "toolCallId": CALL_ID,
                "toolName": "get_invoice",
                "output": {"type": "json", "value": INVOICE},
            }
        ],
    },
]


def do_generate(**extra: Any) -> dict[str, Any]:
    return {
        "ai.operationId": "ai.generateText.doGenerate",
        "operation.name": "ai.generateText.doGenerate invoice-agent",
        "ai.telemetry.functionId": "invoice-agent",
        "ai.model.id": "gpt-4o-mini",
        "ai.model.provider": "openai.chat",
        "ai.prompt.messages": json.dumps(STEP_MESSAGES),
        "ai.response.text": ANSWER,
        "ai.response.finishReason": "stop",
        "ai.response.id": "chatcmpl-2",
        "ai.response.model": "gpt-4o-mini-2024-07-18",
        "gen_ai.system": "openai.chat",
        "gen_ai.request.model": "gpt-4o-mini",
        **extra,
    }


def test_final_step_span_is_self_contained() -> None:
    facts = read_span(span(do_generate(), "ai.generateText.doGenerate"))
    assert facts is not None and facts.convention == "vercel_ai"
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT and not facts.tool_call_step
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [(INVOICE, CALL_ID, "get_invoice")]
    context = facts.context
    assert (context.agent_name, context.provider, context.request_model) == (
        "invoice-agent",
        "openai.chat",
        "gpt-4o-mini",
    )
    assert (context.response_id, context.response_model) == ("chatcmpl-2", "gpt-4o-mini-2024-07-18")


def test_tool_calling_step_is_a_step_not_an_answer() -> None:
    calls = json.dumps(
        [{"toolCallId": CALL_ID, "toolName": "get_invoice", "input": '{"invoice_id":"INV-2210"}'}]
    )
    step = do_generate(
        **{"ai.response.finishReason": "tool-calls", "ai.response.text": "", "ai.response.toolCalls": calls}
    )
    facts = read_span(span(step))
    assert facts is not None and facts.answer is None and facts.tool_call_step
    calls_only = do_generate(**{"ai.response.finishReason": "stop", "ai.response.toolCalls": calls})
    facts = read_span(span(calls_only))
    assert facts is not None and facts.answer is None and facts.tool_call_step


def test_root_span_that_stopped_on_tool_calls_has_no_answer_and_is_no_step() -> None:
    attributes = {
        "ai.operationId": "ai.generateText",
        "ai.prompt": json.dumps({"prompt": PROMPT}),
        "ai.response.finishReason": "tool-calls",
        "ai.response.text": "",
    }
    facts = read_span(span(attributes, "ai.generateText"))
    assert facts is not None and facts.is_agent
    assert facts.answer is None and not facts.tool_call_step


def test_ai_sdk_4_tool_result_and_result_text_names() -> None:
    old_messages = [
        {"role": "user", "content": PROMPT},
        {
            "role": "tool",
            "content": [
                {"type": "tool-result", "toolCallId": CALL_ID, "toolName": "get_invoice", "result": INVOICE}
            ],
        },
    ]
    attributes = {
        "ai.operationId": "ai.streamText.doStream",
        "ai.prompt.messages": json.dumps(old_messages),
        "ai.result.text": ANSWER,
        "ai.finishReason": "stop",
    }
    facts = read_span(span(attributes))
    assert facts is not None and facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [e.content for e in facts.evidence] == [INVOICE]


def test_root_span_is_the_agent_with_the_answer_and_prompt() -> None:
    attributes = {
        "ai.operationId": "ai.generateText",
        "ai.telemetry.functionId": "invoice-agent",
        "ai.prompt": json.dumps({"system": "Be brief.", "prompt": PROMPT}),
        "ai.response.text": ANSWER,
        "ai.response.finishReason": "stop",
    }
    facts = read_span(span(attributes, "ai.generateText"))
    assert facts is not None and facts.is_agent
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT and facts.evidence == ()
    messages_prompt = {
        **attributes,
        "ai.prompt": json.dumps({"messages": [{"role": "user", "content": PROMPT}]}),
    }
    facts = read_span(span(messages_prompt))
    assert facts is not None and facts.user_prompt == PROMPT


def test_tool_call_span_keeps_the_result_string() -> None:
    attributes = {
        "ai.operationId": "ai.toolCall",
        "ai.toolCall.name": "get_invoice",
        "ai.toolCall.id": CALL_ID,
        "ai.toolCall.args": '{"invoice_id":"INV-2210"}',
        "ai.toolCall.result": INVOICE_JSON,
    }
    facts = read_span(span(attributes, "ai.toolCall"))
    assert facts is not None and facts.is_tool
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, CALL_ID, "get_invoice")
    ]


def test_embedding_operations_are_not_read() -> None:
    assert read_span(span({"ai.operationId": "ai.embed", "ai.value": "x"})) is None
