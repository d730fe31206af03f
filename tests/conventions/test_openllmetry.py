"""OpenLLMetry ≤0.54 indexed attributes and traceloop-sdk decorator spans."""

from __future__ import annotations

from typing import Any

from otel_groundedness.conventions import is_genai_span, read_span
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE_JSON, PROMPT, span

FINAL: dict[str, Any] = {
    "llm.request.type": "chat",
    "gen_ai.system": "openai",
    "gen_ai.request.model": "gpt-4o-mini",
    "gen_ai.prompt.0.role": "system",
    "gen_ai.prompt.0.content": "Be brief.",
    "gen_ai.prompt.1.role": "user",
    "gen_ai.prompt.1.content": PROMPT,
    "gen_ai.prompt.2.role": "assistant",
    "gen_ai.prompt.2.tool_calls.0.id": CALL_ID,
    "gen_ai.prompt.2.tool_calls.0.name": "get_invoice",
    "gen_ai.prompt.2.tool_calls.0.arguments": '{"invoice_id": "INV-2210"}',
    "gen_ai.prompt.3.role": "tool",
    "gen_ai.prompt.3.content": INVOICE_JSON,
    "gen_ai.prompt.3.tool_call_id": CALL_ID,
    "gen_ai.response.id": "chatcmpl-2",
    "gen_ai.completion.0.finish_reason": "stop",
    "gen_ai.completion.0.role": "assistant",
    "gen_ai.completion.0.content": ANSWER,
}


def test_indexed_final_span() -> None:
    facts = read_span(span(FINAL, "openai.chat"))
    assert facts is not None and facts.convention == "openllmetry_indexed"
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, CALL_ID, "get_invoice")
    ]
    assert (facts.context.provider, facts.context.response_id, facts.content_truncated) == (
        "openai",
        "chatcmpl-2",
        False,
    )


def test_evicted_oldest_attributes_still_read_and_flag_truncation() -> None:
    """At 128 attributes the SDK drops the oldest: request type, system and the first prompts go first."""
    evicted = {
        k: v
        for k, v in FINAL.items()
        if not k.startswith(("llm.", "gen_ai.system", "gen_ai.prompt.0", "gen_ai.prompt.1"))
    }
    assert is_genai_span(evicted, "openai.chat")
    facts = read_span(span(evicted, "openai.chat"))
    assert facts is not None
    assert facts.answer == ANSWER and facts.content_truncated is True
    assert [e.source_id for e in facts.evidence] == [CALL_ID]


def test_tool_call_completion_is_a_step_and_filtered_choice_no_answer() -> None:
    tool_step = {
        **FINAL,
        "gen_ai.completion.0.finish_reason": "tool_calls",
        "gen_ai.completion.0.content": "",
    }
    del tool_step["gen_ai.completion.0.content"]
    tool_step["gen_ai.completion.0.tool_calls.0.id"] = CALL_ID
    facts = read_span(span(tool_step))
    assert facts is not None and facts.answer is None and facts.tool_call_step
    filtered = {
        **FINAL,
        "gen_ai.completion.0.finish_reason": "content_filter",
        "gen_ai.completion.0.content": "FILTERED",
    }
    facts = read_span(span(filtered))
    assert facts is not None and facts.answer is None and not facts.tool_call_step


def test_embeddings_request_is_not_read() -> None:
    assert read_span(span({"llm.request.type": "embedding", "gen_ai.system": "openai"})) is None


def test_traceloop_tool_and_agent_decorator_spans() -> None:
    tool = {
        "traceloop.span.kind": "tool",
        "traceloop.entity.name": "get_invoice",
        "traceloop.entity.input": '{"args": ["INV-2210"], "kwargs": {}}',
        "traceloop.entity.output": INVOICE_JSON,
    }
    facts = read_span(span(tool, "get_invoice.tool", span_id=0x2A))
    assert facts is not None and facts.is_tool and facts.convention == "traceloop"
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, "000000000000002a", "get_invoice")
    ]
    agent = read_span(
        span({"traceloop.span.kind": "agent", "traceloop.entity.name": "billing"}, "billing.agent")
    )
    assert agent is not None and agent.is_agent and agent.context.agent_name == "billing"
    assert read_span(span({"traceloop.span.kind": "task"})) is None


def test_traceloop_tool_span_keeps_its_semconv_tool_call_result() -> None:
    # OpenAI Agents under Traceloop: the result is in gen_ai.tool.call.result, keyed by its call id.
    tool = {
        "traceloop.span.kind": "tool",
        "traceloop.entity.name": "get_invoice",
        "gen_ai.tool.name": "get_invoice",
        "gen_ai.tool.call.id": CALL_ID,
        "gen_ai.tool.call.result": INVOICE_JSON,
    }
    facts = read_span(span(tool, "get_invoice.tool"))
    assert facts is not None and facts.is_tool and facts.convention == "traceloop"
    evidence = [(e.content, e.source_id, e.name) for e in facts.evidence]
    assert evidence == [(INVOICE_JSON, CALL_ID, "get_invoice")]
