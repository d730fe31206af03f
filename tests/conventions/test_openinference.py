"""OpenInference LLM, TOOL, RETRIEVER and AGENT spans (OpenAI, LangChain/LangGraph, LlamaIndex)."""

from __future__ import annotations

import json
from typing import Any

from otel_groundedness.conventions import read_span
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE_JSON, PROMPT, span

LLM: dict[str, Any] = {
    "llm.system": "openai",
    "llm.invocation_parameters": '{"model": "gpt-4o-mini"}',
    "llm.input_messages.0.message.role": "user",
    "llm.input_messages.0.message.content": PROMPT,
    "llm.input_messages.1.message.role": "assistant",
    "llm.input_messages.1.message.name": "invoice-agent",
    "llm.input_messages.1.message.tool_calls.0.tool_call.id": CALL_ID,
    "llm.input_messages.1.message.tool_calls.0.tool_call.function.name": "get_invoice",
    "llm.input_messages.2.message.role": "tool",
    "llm.input_messages.2.message.content": INVOICE_JSON,
    "llm.input_messages.2.message.tool_call_id": CALL_ID,
    "llm.model_name": "gpt-4o-mini-2024-07-18",
    "llm.output_messages.0.message.role": "assistant",
    "llm.output_messages.0.message.content": ANSWER,
    "output.value": json.dumps({"id": "chatcmpl-2", "choices": []}),
    "session.id": "conv-1",
    "openinference.span.kind": "LLM",
}


def test_llm_span_with_langchain_tool_message_name() -> None:
    facts = read_span(span(LLM, "ChatOpenAI"))
    assert facts is not None and facts.convention == "openinference"
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, CALL_ID, "get_invoice")
    ]
    context = facts.context
    assert (context.request_model, context.response_model) == ("gpt-4o-mini", "gpt-4o-mini-2024-07-18")
    assert (context.response_id, context.conversation_id, context.provider) == (
        "chatcmpl-2",
        "conv-1",
        "openai",
    )


def test_multimodal_contents_and_redacted_output() -> None:
    attributes = {
        "openinference.span.kind": "LLM",
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.contents.0.message_content.type": "text",
        "llm.input_messages.0.message.contents.0.message_content.text": PROMPT,
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": "__REDACTED__",
    }
    facts = read_span(span(attributes))
    assert facts is not None and facts.user_prompt == PROMPT and facts.answer is None


def test_tool_call_output_is_a_step_not_an_answer() -> None:
    attributes = {k: v for k, v in LLM.items() if not k.startswith("llm.output_messages")}
    attributes["llm.output_messages.0.message.tool_calls.0.tool_call.id"] = "call_2"
    facts = read_span(span(attributes))
    assert facts is not None and facts.answer is None and facts.tool_call_step
    by_reason = read_span(span({**LLM, "llm.finish_reason": "tool_calls"}))
    assert by_reason is not None and by_reason.answer is None and by_reason.tool_call_step
    final = read_span(span(LLM))
    assert final is not None and final.answer is not None and not final.tool_call_step


def test_langgraph_tool_span_reads_the_serialized_tool_message() -> None:
    tool_message = {
        "type": "tool",
        "data": {
            "content": INVOICE_JSON,
            "tool_call_id": CALL_ID,
            "name": "get_invoice",
            "status": "success",
        },
    }
    attributes = {
        "openinference.span.kind": "TOOL",
        "tool.name": "get_invoice",
        "input.value": "INV-2210",
        "output.value": json.dumps(tool_message),
        "output.mime_type": "application/json",
    }
    facts = read_span(span(attributes, "get_invoice"))
    assert facts is not None and facts.is_tool
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, CALL_ID, "get_invoice")
    ]


def test_plain_tool_output_uses_the_span_id() -> None:
    attributes = {"openinference.span.kind": "TOOL", "output.value": "Total: $1,243,500"}
    facts = read_span(span(attributes, "lookup", span_id=0x10))
    assert facts is not None
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        ("Total: $1,243,500", "0000000000000010", "lookup")
    ]


def test_langgraph_agent_span_answer_and_current_turn_tool_messages() -> None:
    def message(kind: str, **data: Any) -> dict[str, Any]:
        return {"type": kind, "data": data}

    messages = [
        message("human", content="Earlier question"),
        message("tool", content='{"total": 1}', tool_call_id="call_old", name="get_invoice"),
        message("ai", content="Earlier answer"),
        message("human", content=PROMPT),
        message("ai", content="", tool_calls=[{"id": CALL_ID, "name": "get_invoice", "args": {}}]),
        message("tool", content=INVOICE_JSON, tool_call_id=CALL_ID, name="get_invoice"),
        message("ai", content=ANSWER),
    ]
    attributes = {"openinference.span.kind": "AGENT", "output.value": json.dumps({"messages": messages})}
    facts = read_span(span(attributes, "invoice-agent"))
    assert facts is not None and facts.is_agent
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert facts.context.agent_name is None  # never the span name (unbounded in some apps)
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE_JSON, CALL_ID)]


def test_agent_span_with_lc_constructor_messages_and_plain_text_output() -> None:
    def lc(kind: str, **kwargs: Any) -> dict[str, Any]:
        return {
            "lc": 1,
            "type": "constructor",
            "id": ["langchain", "schema", "messages", kind],
            "kwargs": kwargs,
        }

    blocks = [{"type": "text", "text": ANSWER}]  # content as a list of blocks (e.g. Anthropic models)
    output = {"messages": [lc("HumanMessage", content=PROMPT), lc("AIMessage", content=blocks)]}
    facts = read_span(span({"openinference.span.kind": "AGENT", "output.value": json.dumps(output)}))
    assert facts is not None and facts.answer == ANSWER and facts.user_prompt == PROMPT
    plain = read_span(
        span({"openinference.span.kind": "AGENT", "output.value": ANSWER, "agent.name": "crew"})
    )
    assert plain is not None and plain.answer == ANSWER and plain.context.agent_name == "crew"


def test_chain_and_embedding_spans_are_not_read() -> None:
    for kind in ("CHAIN", "EMBEDDING"):
        assert read_span(span({"openinference.span.kind": kind, "output.value": ANSWER})) is None


RETRIEVER: dict[str, Any] = {
    "openinference.span.kind": "RETRIEVER",
    "input.value": "INV-2210 total",
    "retrieval.documents.0.document.id": "kb-invoices-7",
    "retrieval.documents.0.document.content": "Invoice INV-2210 totals $1,243,500, due 2025-03-03.",
    "retrieval.documents.0.document.score": 0.91,
    "retrieval.documents.0.document.metadata": '{"title": "Invoices Q1", "page": 3}',
    "retrieval.documents.1.document.content": "Shipping is free above $500.",
    "retrieval.documents.1.document.score": 0.42,
}


def test_retriever_documents_are_retrieval_evidence_cited_by_document() -> None:
    facts = read_span(span(RETRIEVER, "VectorIndexRetriever", span_id=0x2A))
    assert facts is not None and facts.is_tool and facts.context.operation == "retrieval"
    assert [(e.content, e.source_id, e.kind, e.name) for e in facts.evidence] == [
        ("Invoice INV-2210 totals $1,243,500, due 2025-03-03.", "kb-invoices-7", "retrieval", "Invoices Q1"),
        # No id: keyed by span and position, so it never collapses with another id-less document.
        ("Shipping is free above $500.", "000000000000002a/1", "retrieval", None),
    ]


def test_redacted_or_missing_documents_are_not_captured() -> None:
    hidden = {**RETRIEVER, "retrieval.documents.0.document.content": "__REDACTED__"}
    del hidden["retrieval.documents.1.document.content"]
    facts = read_span(span(hidden))
    assert facts is not None and facts.evidence == () and facts.content_captured is False


def test_openai_agents_handoff_tool_span_is_not_evidence() -> None:
    # openinference-instrumentation-openai-agents 2.6.0: a handoff is a TOOL span without tool.name,
    # named after its target, with the two agents' names as input and output.
    handoff = {
        "openinference.span.kind": "TOOL",
        "input.value": "triage-agent",
        "output.value": "invoice-agent",
    }
    assert read_span(span(handoff, "handoff to invoice-agent")) is None
    # A function tool that happens to return a plain word is still evidence.
    tool = {**handoff, "tool.name": "route"}
    facts = read_span(span(tool, "handoff to invoice-agent"))
    assert facts is not None and [e.content for e in facts.evidence] == ["invoice-agent"]
    other = read_span(span(handoff, "route"))
    assert other is not None and other.is_tool
