"""Langfuse SDK observations, shaped like langfuse 5.2.0's spans (``@observe`` and ``langfuse.openai``):
no ``gen_ai.*`` key, content in ``langfuse.observation.input`` / ``.output``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from otel_groundedness.conventions import is_genai_span, read_span
from tests.conventions.spans import ANSWER, CALL_ID, INVOICE_JSON, PROMPT, span

TOOLS = [{"type": "function", "function": {"name": "get_invoice", "parameters": {"type": "object"}}}]
CALL = {"id": CALL_ID, "type": "function", "function": {"name": "get_invoice", "arguments": "{}"}}
MESSAGES = [
    {"role": "system", "content": "You are a billing assistant."},
    {"role": "user", "content": "Earlier question"},
    {"role": "tool", "tool_call_id": "call_old", "content": '{"total": 99}'},
    {"role": "user", "content": PROMPT},
    {"role": "assistant", "content": None, "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": CALL_ID, "content": INVOICE_JSON},
]


def generation(output: Any, inputs: Any = None, **extra: Any) -> dict[str, Any]:
    attributes = {
        "langfuse.observation.type": "generation",
        # The SDK writes strings as they are and JSON-encodes everything else.
        "langfuse.observation.input": inputs
        if isinstance(inputs, str)
        else json.dumps({"tools": TOOLS, "messages": MESSAGES} if inputs is None else inputs),
        "langfuse.observation.model.name": "gpt-4o-mini",
        **extra,
    }
    if output is not None:
        attributes["langfuse.observation.output"] = output if isinstance(output, str) else json.dumps(output)
    return attributes


def test_observations_pass_the_gate_without_any_gen_ai_key() -> None:
    attributes = generation({"role": "assistant", "content": ANSWER})
    assert not any(key.startswith("gen_ai.") for key in attributes)
    assert is_genai_span(attributes)


def test_final_generation_is_self_contained() -> None:
    facts = read_span(span(generation({"role": "assistant", "content": ANSWER}), "OpenAI-generation"))
    assert facts is not None and facts.convention == "langfuse"
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT and not facts.tool_call_step
    # Only the current turn's tool results: the earlier one precedes the last user message.
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE_JSON, CALL_ID)]
    assert facts.context.request_model == "gpt-4o-mini" and facts.context.operation == "chat"


def test_streamed_generation_output_is_the_plain_text() -> None:
    attributes = generation(ANSWER, **{"langfuse.observation.metadata.finish_reason": '"stop"'})
    facts = read_span(span(attributes))
    assert facts is not None and facts.answer == ANSWER


@pytest.mark.parametrize(
    ("output", "extra"),
    [
        ({"role": "assistant", "tool_calls": [CALL], "content": None}, {}),
        # Streamed: the finish reason is observation metadata, JSON-encoded like every metadata value.
        (
            {"role": "assistant", "tool_calls": [CALL]},
            {"langfuse.observation.metadata.finish_reason": '"tool_calls"'},
        ),
        ("", {"langfuse.observation.metadata.finish_reason": '"tool_calls"'}),
    ],
)
def test_tool_calling_generation_is_a_step(output: Any, extra: dict[str, Any]) -> None:
    facts = read_span(span(generation(output, **extra)))
    assert facts is not None and facts.tool_call_step and facts.answer is None


def test_responses_api_items_in_and_out() -> None:
    inputs = {
        "instructions": "You are a billing assistant.",
        "input": [
            {"role": "user", "content": [{"type": "input_text", "text": PROMPT}]},
            {"type": "function_call", "call_id": CALL_ID, "name": "get_invoice", "arguments": "{}"},
            {"type": "function_call_output", "call_id": CALL_ID, "output": INVOICE_JSON},
        ],
    }
    output = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": ANSWER}]}
    facts = read_span(span(generation(output, inputs)))
    assert facts is not None and facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE_JSON, CALL_ID)]
    step = read_span(span(generation([{"type": "function_call", "call_id": CALL_ID}], inputs)))
    assert step is not None and step.tool_call_step and step.answer is None


def test_generation_with_a_string_prompt_and_no_output_yet() -> None:
    facts = read_span(span(generation(None, PROMPT)))
    assert facts is not None and facts.answer is None and facts.user_prompt == PROMPT


def test_generation_without_content_is_not_captured() -> None:
    facts = read_span(
        span({"langfuse.observation.type": "generation", "langfuse.observation.model.name": "m"})
    )
    assert facts is not None and facts.content_captured is False and facts.answer is None


def test_truncated_output_is_reported() -> None:
    facts = read_span(span(generation('{"role": "assistant", "content": "Invoice INV-22')))
    assert facts is not None and facts.content_truncated and facts.answer is None


def test_tool_observation_output_is_evidence_keyed_by_span() -> None:
    attributes = {
        "langfuse.observation.type": "tool",
        "langfuse.observation.input": json.dumps({"args": [], "kwargs": {"invoice_id": "INV-2210"}}),
        "langfuse.observation.output": INVOICE_JSON,
    }
    facts = read_span(span(attributes, "get_invoice", span_id=0xABC))
    assert facts is not None and facts.is_tool and facts.content_captured
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, "0000000000000abc", "get_invoice")
    ]


@pytest.mark.parametrize(
    "output",
    [
        # LangChain documents as the SDK serializes them (model_dump)
        [
            {"id": None, "metadata": {"source": "invoices/INV-2210.md"}, "page_content": "total $1,243,500"},
            {"id": "doc-2", "metadata": {"title": "Shipping"}, "page_content": "ships in 2 days"},
        ],
        {"documents": [{"content": "total $1,243,500"}, {"id": "doc-2", "text": "ships in 2 days"}]},
        ["total $1,243,500", "ships in 2 days"],
    ],
)
def test_retriever_output_documents_are_retrieval_evidence(output: Any) -> None:
    attributes = {"langfuse.observation.type": "retriever", "langfuse.observation.output": json.dumps(output)}
    facts = read_span(span(attributes, "retrieve", span_id=0xABC))
    assert facts is not None and facts.is_tool and facts.context.operation == "retrieval"
    assert [(e.content, e.kind) for e in facts.evidence] == [
        ("total $1,243,500", "retrieval"),
        ("ships in 2 days", "retrieval"),
    ]
    assert facts.evidence[0].source_id == "0000000000000abc/0"


def test_agent_observation_closes_a_turn() -> None:
    attributes = {
        "langfuse.observation.type": "agent",
        "langfuse.observation.input": json.dumps({"args": [PROMPT], "kwargs": {}}),
        "langfuse.observation.output": ANSWER,
    }
    facts = read_span(span(attributes, "invoice-agent"))
    assert facts is not None and facts.is_agent and facts.answer == ANSWER
    assert facts.context.agent_name is None  # never the observation name: it may carry run ids


def test_sdk3_trace_root_carries_trace_input_and_output() -> None:
    attributes = {
        "langfuse.observation.type": "span",
        "langfuse.trace.input": PROMPT,
        "langfuse.trace.output": ANSWER,
    }
    facts = read_span(span(attributes, "main"))
    assert facts is not None and facts.is_agent and facts.answer == ANSWER and facts.user_prompt == PROMPT


@pytest.mark.parametrize("kind", ["chain", "span", "evaluator", "guardrail", "embedding", "event"])
def test_other_observation_types_are_not_read(kind: str) -> None:
    attributes = {"langfuse.observation.type": kind, "langfuse.observation.output": ANSWER}
    assert read_span(span(attributes)) is None
