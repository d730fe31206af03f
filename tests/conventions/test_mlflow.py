"""MLflow tracing spans, shaped like mlflow-tracing 3.17.2's (``mlflow.openai.autolog()``,
``@mlflow.trace``): every attribute value JSON-encoded, strings included."""

from __future__ import annotations

import json
from typing import Any

import pytest

from otel_groundedness.conventions import is_genai_span, read_span
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE_JSON, PROMPT, span

CALL = {"id": CALL_ID, "type": "function", "function": {"name": "get_invoice", "arguments": "{}"}}
MESSAGES = [
    {"role": "system", "content": "You are a billing assistant."},
    {"role": "user", "content": "Earlier question"},
    {"role": "tool", "tool_call_id": "call_old", "content": '{"total": 99}'},
    {"role": "user", "content": PROMPT},
    {"role": "assistant", "content": None, "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": CALL_ID, "content": INVOICE_JSON},
]


def mlflow_span(kind: str, inputs: Any = None, outputs: Any = None, **extra: Any) -> dict[str, Any]:
    attributes = {"mlflow.traceRequestId": json.dumps("tr-1"), "mlflow.spanType": json.dumps(kind)}
    if inputs is not None:
        attributes["mlflow.spanInputs"] = json.dumps(inputs)
    if outputs is not None:
        attributes["mlflow.spanOutputs"] = json.dumps(outputs)
    return {**attributes, **{key: json.dumps(value) for key, value in extra.items()}}


def completion(content: str | None, finish_reason: str, tool_calls: Any = None) -> dict[str, Any]:
    message = {"role": "assistant", "content": content, "tool_calls": tool_calls}
    return {
        "id": "chatcmpl-2",
        "object": "chat.completion",
        "choices": [{"finish_reason": finish_reason, "message": message}],
    }


def chat(outputs: Any) -> dict[str, Any]:
    inputs = {"model": "gpt-4o-mini", "messages": MESSAGES}
    return mlflow_span("CHAT_MODEL", inputs, outputs, **{"mlflow.llm.model": "gpt-4o-mini"})


def test_spans_pass_the_gate_by_their_span_type() -> None:
    assert is_genai_span(chat(completion(ANSWER, "stop")))


def test_final_chat_model_span_is_self_contained() -> None:
    facts = read_span(span(chat(completion(ANSWER, "stop")), "Completions"))
    assert facts is not None and facts.convention == "mlflow"
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT and not facts.tool_call_step
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE_JSON, CALL_ID)]
    context = facts.context
    assert (context.request_model, context.response_id, context.operation) == (
        "gpt-4o-mini",
        "chatcmpl-2",
        "chat",
    )


@pytest.mark.parametrize(
    "outputs",
    [
        completion(None, "tool_calls", [CALL]),
        completion("", "tool_calls"),  # streamed: MLflow's rebuilt message keeps only the finish reason
    ],
)
def test_tool_calling_chat_model_span_is_a_step(outputs: Any) -> None:
    facts = read_span(span(chat(outputs)))
    assert facts is not None and facts.tool_call_step and facts.answer is None


def test_langchain_chat_model_span() -> None:
    inputs = [
        [
            {"type": "human", "content": PROMPT},
            {"type": "tool", "content": INVOICE_JSON, "tool_call_id": CALL_ID},
        ]
    ]
    outputs = {"generations": [[{"text": ANSWER, "generation_info": {"finish_reason": "stop"}}]]}
    facts = read_span(span(mlflow_span("CHAT_MODEL", inputs, outputs)))
    assert facts is not None and facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE_JSON, CALL_ID)]


def test_llm_completion_span_reads_the_prompt_and_choice_text() -> None:
    outputs = {"choices": [{"text": ANSWER, "finish_reason": "stop"}]}
    facts = read_span(span(mlflow_span("LLM", {"model": "m", "prompt": PROMPT}, outputs)))
    assert facts is not None and facts.answer == ANSWER and facts.user_prompt == PROMPT


def test_truncated_outputs_are_reported() -> None:
    attributes = chat(None)
    attributes["mlflow.spanOutputs"] = '{"choices": [{"message": {"content": "Invoice INV-22'
    facts = read_span(span(attributes))
    assert facts is not None and facts.content_truncated and facts.answer is None


def test_tool_span_output_is_evidence_keyed_by_span() -> None:
    attributes = mlflow_span(
        "TOOL", {"invoice_id": "INV-2210"}, INVOICE_JSON, **{"mlflow.spanFunctionName": "get_invoice"}
    )
    facts = read_span(span(attributes, "get_invoice", span_id=0xABC))
    assert facts is not None and facts.is_tool and facts.content_captured
    # The string result is encoded twice (the tool's JSON text, then MLflow's encoding): decoded once.
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, "0000000000000abc", "get_invoice")
    ]


def test_structured_tool_output_stays_structured() -> None:
    facts = read_span(span(mlflow_span("TOOL", {}, json.loads(INVOICE_JSON))))
    assert facts is not None and facts.evidence[0].content == json.loads(INVOICE_JSON)


def test_retriever_span_documents_are_retrieval_evidence() -> None:
    outputs = [
        {
            "page_content": "total $1,243,500",
            "metadata": {"doc_uri": "s3://kb/inv.md", "title": "INV-2210"},
            "id": "d1",
        },
        {"page_content": "ships in 2 days", "metadata": {}, "id": None},
    ]
    facts = read_span(span(mlflow_span("RETRIEVER", {"query": "invoice"}, outputs), span_id=0xABC))
    assert facts is not None and facts.is_tool and facts.context.operation == "retrieval"
    assert [(e.content, e.source_id, e.kind, e.name) for e in facts.evidence] == [
        ("total $1,243,500", "d1", "retrieval", "INV-2210"),
        ("ships in 2 days", "0000000000000abc/1", "retrieval", None),
    ]


@pytest.mark.parametrize("outputs", [ANSWER, {"role": "assistant", "content": ANSWER}])
def test_agent_span_closes_a_turn(outputs: Any) -> None:
    facts = read_span(span(mlflow_span("AGENT", {"prompt": PROMPT}, outputs), "invoice-agent"))
    assert facts is not None and facts.is_agent and facts.answer == ANSWER
    assert facts.context.agent_name is None


@pytest.mark.parametrize("kind", ["CHAIN", "EMBEDDING", "PARSER", "RERANKER", "UNKNOWN"])
def test_other_span_types_are_not_read(kind: str) -> None:
    assert read_span(span(mlflow_span(kind, {"x": 1}, ANSWER))) is None
