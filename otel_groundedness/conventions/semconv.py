"""OTel GenAI semconv ≥1.37 spans: inference and agent spans with ``gen_ai.input/output.messages``,
``execute_tool`` spans with ``gen_ai.tool.call.result``.

Also reads the JSON form of OpenLLMetry ≥0.55, AI SDK 7 ``@ai-sdk/otel``, Pydantic AI chat spans and
Logfire ``instrument_openai`` v2 spans, which all use this vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from otel_groundedness.conventions import semconv_messages as msgs
from otel_groundedness.conventions._common import (
    clean_id,
    finish_reasons,
    semconv_context,
    span_source_id,
    text_attr,
)
from otel_groundedness.conventions._json import as_list, decode
from otel_groundedness.records import SpanFacts, SpanRecord
from otel_groundedness.scoring.evidence_item import Evidence

CONVENTION = "semconv"
INPUT_MESSAGES = "gen_ai.input.messages"
OUTPUT_MESSAGES = "gen_ai.output.messages"
TOOL_CALL_RESULT = "gen_ai.tool.call.result"
INFERENCE_OPERATIONS = frozenset({"chat", "text_completion", "generate_content"})
AGENT_OPERATIONS = frozenset({"invoke_agent", "invoke_workflow"})


@dataclass(frozen=True, slots=True)
class MessageFacts:
    """What the content attributes of one span or log record hold."""

    answer: str | None
    evidence: tuple[Evidence, ...]
    user_prompt: str | None
    tool_call_step: bool
    captured: bool
    truncated: bool


def claims(attributes: Mapping[str, Any]) -> bool:
    """True when the attributes use the ≥1.37 (or the content-free ≤1.36) semconv span form."""
    return (
        "gen_ai.operation.name" in attributes
        or INPUT_MESSAGES in attributes
        or OUTPUT_MESSAGES in attributes
        or TOOL_CALL_RESULT in attributes
    )


def read_messages(attributes: Mapping[str, Any], *, agent: bool) -> MessageFacts:
    """Answer, current-turn evidence and prompt from the (string or structured) message attributes."""
    raw_input, raw_output = attributes.get(INPUT_MESSAGES), attributes.get(OUTPUT_MESSAGES)
    decoded_input, decoded_output = decode(raw_input), decode(raw_output)
    inputs, outputs = as_list(decoded_input.value), as_list(decoded_output.value)
    evidence = msgs.tool_results(inputs, msgs.current_turn_start(inputs))
    tool_call_step = False
    if agent:
        answer = msgs.agent_answer(outputs)
        evidence += msgs.tool_results(outputs)
    else:
        reasons = finish_reasons(attributes.get("gen_ai.response.finish_reasons"))
        answer = msgs.final_answer(outputs, reasons)
        tool_call_step = msgs.asks_for_tools(outputs, reasons)
    return MessageFacts(
        answer=answer,
        evidence=evidence,
        user_prompt=msgs.last_user_text(inputs),
        tool_call_step=tool_call_step,
        captured=raw_input is not None or raw_output is not None,
        truncated=decoded_input.truncated or decoded_output.truncated,
    )


def read(span: SpanRecord) -> SpanFacts | None:
    attributes = span.attributes
    operation = text_attr(attributes, "gen_ai.operation.name")
    if operation == "execute_tool" or (operation is None and TOOL_CALL_RESULT in attributes):
        return _read_tool(span, attributes)
    has_content = INPUT_MESSAGES in attributes or OUTPUT_MESSAGES in attributes
    agent = operation in AGENT_OPERATIONS
    if not (agent or operation in INFERENCE_OPERATIONS or (operation is None and has_content)):
        return None
    facts = read_messages(attributes, agent=agent)
    return SpanFacts(
        convention=CONVENTION,
        context=semconv_context(attributes, operation or "chat"),
        answer=facts.answer,
        evidence=facts.evidence,
        user_prompt=facts.user_prompt,
        is_agent=agent,
        tool_call_step=facts.tool_call_step,
        # An agent span without content still closes its subtree; only inference spans need content.
        content_captured=facts.captured or agent,
        content_truncated=facts.truncated,
    )


def _read_tool(span: SpanRecord, attributes: Mapping[str, Any]) -> SpanFacts:
    raw = attributes.get(TOOL_CALL_RESULT)
    evidence: tuple[Evidence, ...] = ()
    if raw is not None:
        source = clean_id(attributes.get("gen_ai.tool.call.id")) or span_source_id(span.span_id)
        evidence = (Evidence(content=raw, source_id=source, name=text_attr(attributes, "gen_ai.tool.name")),)
    return SpanFacts(
        convention=CONVENTION,
        context=semconv_context(attributes, "execute_tool"),
        evidence=evidence,
        is_tool=True,
        content_captured=raw is not None,
        content_truncated=decode(raw).truncated,
    )
