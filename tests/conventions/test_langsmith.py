"""LangSmith OpenTelemetry-mode spans, shaped like langsmith 0.14.17's export of a LangGraph agent."""

from __future__ import annotations

import json
from typing import Any

from otel_groundedness.conventions import read_span
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE_JSON, PROMPT, span


def lc(kind: str, **kwargs: Any) -> dict[str, Any]:
    return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", kind], "kwargs": kwargs}


CALL = {"name": "get_invoice", "args": {"invoice_id": "INV-2210"}, "id": CALL_ID, "type": "tool_call"}
TOOL_EVIDENCE = (INVOICE_JSON, CALL_ID, "get_invoice")
PROMPT_MESSAGES = [
    lc("SystemMessage", content="You are a billing assistant.", type="system"),
    lc("HumanMessage", content="Earlier question", type="human"),
    lc("ToolMessage", content='{"total": 99}', tool_call_id="call_old", type="tool"),
    lc("HumanMessage", content=PROMPT, type="human"),
    lc("AIMessage", content="", tool_calls=[CALL], type="ai"),
    lc("ToolMessage", content=INVOICE_JSON, tool_call_id=CALL_ID, name="get_invoice", type="tool"),
]


def llm(text: str, finish_reason: str, tool_calls: list[Any]) -> dict[str, Any]:
    generation = {
        "text": text,
        "generation_info": {"finish_reason": finish_reason},
        "type": "ChatGeneration",
        "message": lc("AIMessage", content=text, tool_calls=tool_calls, type="ai"),
    }
    return {
        "langsmith.span.kind": "llm",
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.prompt": json.dumps({"messages": [PROMPT_MESSAGES]}),
        "gen_ai.completion": json.dumps({"generations": [[generation]]}),
    }


def test_final_llm_run_is_self_contained() -> None:
    facts = read_span(span(llm(ANSWER, "stop", []), "ChatOpenAI"))
    assert facts is not None and facts.convention == "langsmith"
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT and not facts.tool_call_step
    # Only the current turn's tool results: the earlier ToolMessage precedes the last human message.
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [TOOL_EVIDENCE]
    assert (facts.context.provider, facts.context.request_model) == ("openai", "gpt-4o-mini")


def test_tool_calling_llm_run_is_a_step() -> None:
    facts = read_span(span(llm("", "tool_calls", [CALL]), "ChatOpenAI"))
    assert facts is not None and facts.tool_call_step and facts.answer is None


def test_tool_run_output_is_a_twice_encoded_tool_message() -> None:
    output = {"content": INVOICE_JSON, "type": "tool", "tool_call_id": CALL_ID, "name": "get_invoice"}
    attributes = {
        "langsmith.span.kind": "tool",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_invoice",
        "gen_ai.prompt": '{"invoice_id": "INV-2210"}',
        "gen_ai.completion": json.dumps({"output": output}),
    }
    facts = read_span(span(attributes, "get_invoice"))
    assert facts is not None and facts.is_tool
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [TOOL_EVIDENCE]


def test_retriever_run_documents_are_retrieval_evidence() -> None:
    documents = [{"page_content": "INV-2210 totals $1,243,500.", "metadata": {"source": "kb.md"}, "id": "d1"}]
    completion = json.dumps({"documents": documents})
    attributes = {"langsmith.span.kind": "retriever", "gen_ai.completion": completion}
    facts = read_span(span(attributes, "Retriever"))
    assert facts is not None and facts.is_tool
    assert [(e.content, e.source_id, e.kind, e.name) for e in facts.evidence] == [
        ("INV-2210 totals $1,243,500.", "d1", "retrieval", "kb.md")
    ]


def test_chain_runs_are_not_read() -> None:
    attributes = {
        "langsmith.span.kind": "chain",
        "gen_ai.operation.name": "chain",
        "gen_ai.completion": json.dumps({"messages": [{"type": "ai", "content": ANSWER}]}),
    }
    assert read_span(span(attributes, "invoice-agent")) is None
