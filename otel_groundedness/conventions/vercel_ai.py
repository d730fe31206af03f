"""Vercel AI SDK ≤6 (and 7 with ``LegacyOpenTelemetry``): ``ai.*`` spans keyed by ``ai.operationId``.

Root spans (``ai.generateText``, ``ai.streamText``) hold the run's answer; ``do*`` step spans hold the
step's answer and, in ``ai.prompt.messages``, the tool results sent back; ``ai.toolCall`` spans hold
one tool result. AI SDK 7's ``@ai-sdk/otel`` spans are plain semconv and handled there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions._common import (
    asks_for_tools,
    clean_id,
    content_text,
    stopped_for_tools,
    text_attr,
    tool_span_facts,
    turn_start,
)
from otel_groundedness.conventions._json import as_dict, as_list, as_text, decode
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord, TurnContext
from otel_groundedness.scoring.evidence import Evidence

CONVENTION = "vercel_ai"
OPERATION_ID = "ai.operationId"
GATE_KEYS = frozenset({OPERATION_ID})
_ROOTS = frozenset({"ai.generateText", "ai.streamText"})
_STEPS = frozenset({"ai.generateText.doGenerate", "ai.streamText.doStream"})


def read(span: SpanRecord) -> SpanFacts | None:
    operation_id = text_attr(span.attributes, OPERATION_ID)
    if operation_id == "ai.toolCall":
        return _read_tool_call(span)
    if operation_id in _ROOTS:
        return _read_root(span)
    if operation_id in _STEPS:
        return _read_step(span)
    return None


def _read_tool_call(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    return tool_span_facts(
        CONVENTION,
        span,
        _context(attributes, "execute_tool"),
        attributes.get("ai.toolCall.result"),
        call_id=clean_id(attributes.get("ai.toolCall.id")),
        name=text_attr(attributes, "ai.toolCall.name"),
    )


def _read_root(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    prompt = decode(attributes.get("ai.prompt"))
    request = as_dict(prompt.value)
    user_prompt = as_text(request.get("prompt"))
    if user_prompt is None:
        messages = as_list(request.get("messages"))
        user_prompt = _user_text(messages[_turn_start(messages) - 1]) if _turn_start(messages) else None
    return SpanFacts(
        convention=CONVENTION,
        context=_context(attributes, "invoke_agent"),
        # A run that stopped on tool calls (step limit) has no answer; as the whole run it is no step.
        # Only the finish reason says so: the root lists every tool call of the run, also when it
        # went on to answer (AI SDK 7's legacy shape: toolCalls set, finishReason "stop").
        answer=None if _finished_on_tools(attributes) else _text(attributes),
        user_prompt=user_prompt,
        is_agent=True,
        content_truncated=prompt.truncated,
    )


def _read_step(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    raw = attributes.get("ai.prompt.messages")
    decoded = decode(raw)
    messages = as_list(decoded.value)
    start = _turn_start(messages)
    step = _asks_for_tools(attributes)
    return SpanFacts(
        convention=CONVENTION,
        context=_context(attributes, "chat"),
        answer=None if step else _text(attributes),
        evidence=_tool_results(messages[start:]),
        user_prompt=_user_text(messages[start - 1]) if start else None,
        tool_call_step=step,
        content_captured=raw is not None or _text(attributes) is not None,
        content_truncated=decoded.truncated,
    )


def _context(attributes: Mapping[str, Any], operation: str) -> TurnContext:
    return TurnContext(
        operation=operation,
        provider=text_attr(attributes, "gen_ai.system", "ai.model.provider"),
        request_model=text_attr(attributes, "gen_ai.request.model", "ai.model.id"),
        response_model=text_attr(attributes, "ai.response.model", "gen_ai.response.model"),
        agent_name=text_attr(attributes, "ai.telemetry.functionId"),
        response_id=text_attr(attributes, "ai.response.id", "gen_ai.response.id"),
    )


def _text(attributes: Mapping[str, Any]) -> str | None:
    # ai.result.* are the AI SDK 3/4 names of today's ai.response.*.
    return text_attr(attributes, "ai.response.text", "ai.result.text")


def _finished_on_tools(attributes: Mapping[str, Any]) -> bool:
    return stopped_for_tools((text_attr(attributes, "ai.response.finishReason", "ai.finishReason"),))


def _asks_for_tools(attributes: Mapping[str, Any]) -> bool:
    finish = text_attr(attributes, "ai.response.finishReason", "ai.finishReason")
    calls = as_list(
        decode(attributes.get("ai.response.toolCalls", attributes.get("ai.result.toolCalls"))).value
    )
    return asks_for_tools((finish,), bool(calls))


def _turn_start(messages: list[Any]) -> int:
    return turn_start(messages, lambda m: as_dict(m).get("role") == "user" and _user_text(m) is not None)


def _user_text(message: Any) -> str | None:
    """Text of a ModelMessage whose content is a string or a list of ``{"type": "text"}`` parts."""
    return content_text(as_dict(message).get("content"))


def _tool_results(messages: list[Any]) -> tuple[Evidence, ...]:
    """``tool-result`` parts: ``output: {type, value}`` in AI SDK 5+, ``result`` before."""
    found: list[Evidence] = []
    for message in messages:
        for part in map(as_dict, as_list(as_dict(message).get("content"))):
            if part.get("type") != "tool-result":
                continue
            output = part.get("output")
            content = as_dict(output).get("value", output) if output is not None else part.get("result")
            if content is not None:
                name = as_text(part.get("toolName"))
                found.append(Evidence(content, clean_id(part.get("toolCallId")), name=name))
    return tuple(found)


# A root span is named by its operation id and holds the run's steps: it opens an agent's turn.
PRODUCER = Producer(name=CONVENTION, order=20, gate_keys=GATE_KEYS, read_span=read, agent_span_names=_ROOTS)
