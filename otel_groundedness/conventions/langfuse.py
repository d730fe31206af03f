"""Langfuse SDK ≥3: one span per observation, typed by ``langfuse.observation.type``, with no
``gen_ai.*`` key. Content is in ``langfuse.observation.input`` / ``.output``: JSON, or the plain
string itself (a streamed generation's output, a function that returned a string).

- ``generation``: the input is the chat messages (``langfuse.openai``: ``{"messages": [...], "tools":
  ...}``; a list of messages or Responses API items otherwise), the output the assistant message, its
  text, or Responses API output items. The tool results after the last user message are the turn's
  evidence, so the final generation is self-contained.
- ``tool``: the output is the result (``@observe(as_type="tool")``); Langfuse records no call id.
- ``retriever``: the output is the documents (strings, LangChain-style or ``{"content", "id"}``
  objects, possibly under ``documents``).
- ``agent``, and the trace root of SDK 3 and 4 (the span with ``langfuse.trace.output``): close a
  turn; the answer is the output when it is text.
- ``chain``, ``span``, ``evaluator``, ``guardrail``, ``embedding``, ``event``: not read (a chain
  repeats its children; the others hold no answer or evidence of the turn).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions._common import (
    asks_for_tools,
    clean_id,
    content_text,
    document_item,
    retrieval_span_facts,
    text_attr,
    tool_span_facts,
    turn_start,
)
from otel_groundedness.conventions._json import as_dict, as_list, as_text, decode
from otel_groundedness.conventions._langchain import langchain_message
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord, TurnContext
from otel_groundedness.scoring.evidence import Evidence

CONVENTION = "langfuse"
OBSERVATION_TYPE = "langfuse.observation.type"
INPUT = "langfuse.observation.input"
OUTPUT = "langfuse.observation.output"
TRACE_INPUT = "langfuse.trace.input"
TRACE_OUTPUT = "langfuse.trace.output"
MODEL = "langfuse.observation.model.name"
FINISH_REASON = "langfuse.observation.metadata.finish_reason"
GATE_KEYS = frozenset({OBSERVATION_TYPE})
_AGENT_TYPES = frozenset({"agent"})
_ROOT_TYPES = frozenset({"span", "chain"})  # a trace root of SDK 3/4 is read only for its trace output


def read(span: SpanRecord) -> SpanFacts | None:
    kind = text_attr(span.attributes, OBSERVATION_TYPE)
    if kind == "generation":
        return _read_generation(span)
    if kind == "tool":
        return _read_tool(span)
    if kind == "retriever":
        return _read_retriever(span)
    if kind in _AGENT_TYPES or (kind in _ROOT_TYPES and TRACE_OUTPUT in span.attributes):
        return _read_agent(span)
    return None


def _read_generation(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    raw_input, raw_output = attributes.get(INPUT), attributes.get(OUTPUT)
    inputs, outputs = decode(raw_input), decode(raw_output)
    messages = _messages(inputs.value)
    start = turn_start(messages, lambda message: message[0] == "user" and _text(message[1]) is not None)
    evidence = tuple(
        Evidence(fields["content"], clean_id(fields.get("tool_call_id")), name=as_text(fields.get("name")))
        for role, fields in messages[start:]
        if role == "tool" and fields.get("content") is not None
    )
    text, calls = _output(outputs.value)
    reason = _metadata_value(attributes.get(FINISH_REASON))
    step = asks_for_tools((reason,), calls)
    return SpanFacts(
        convention=CONVENTION,
        context=_context(attributes, "chat"),
        answer=None if step else text,
        evidence=evidence,
        user_prompt=_text(messages[start - 1][1]) if start else None,
        tool_call_step=step,
        content_captured=raw_input is not None or raw_output is not None,
        content_truncated=inputs.truncated or outputs.truncated,
    )


def _read_tool(span: SpanRecord) -> SpanFacts:
    context = _context(span.attributes, "execute_tool")
    return tool_span_facts(CONVENTION, span, context, span.attributes.get(OUTPUT), name=span.name)


def _read_retriever(span: SpanRecord) -> SpanFacts:
    decoded = decode(span.attributes.get(OUTPUT))
    value = decoded.value
    items = as_list(as_dict(value).get("documents")) if isinstance(value, Mapping) else as_list(value)
    documents = [document_item(item) for item in items]
    context = _context(span.attributes, "retrieval")
    return retrieval_span_facts(CONVENTION, span, context, documents, truncated=decoded.truncated)


def _read_agent(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    raw = attributes.get(OUTPUT, attributes.get(TRACE_OUTPUT))
    decoded = decode(raw)
    text, _ = _output(decoded.value)
    prompt = decode(attributes.get(TRACE_INPUT)).value
    return SpanFacts(
        convention=CONVENTION,
        # Never the observation (span) name as agent name: it may hold run ids, an unbounded label.
        context=_context(attributes, "invoke_agent"),
        answer=text,
        user_prompt=prompt if isinstance(prompt, str) and prompt else None,
        is_agent=True,
        content_truncated=decoded.truncated,
    )


def _context(attributes: Mapping[str, Any], operation: str) -> TurnContext:
    return TurnContext(
        operation=operation,
        request_model=text_attr(attributes, MODEL),
        conversation_id=text_attr(attributes, "session.id"),
    )


def _messages(inputs: Any) -> list[tuple[str, Mapping[str, Any]]]:
    """(role, fields) of the chat messages in a generation's input: a list of messages or Responses API
    items, under ``messages`` or ``input`` when the input is an object (``langfuse.openai``)."""
    if isinstance(inputs, Mapping):
        inputs = inputs.get("messages", inputs.get("input"))
    if isinstance(inputs, str):
        return [("user", {"content": inputs})]
    found: list[tuple[str, Mapping[str, Any]]] = []
    for item in map(as_dict, as_list(inputs)):
        if item.get("type") == "function_call_output":  # Responses API tool result
            found.append(("tool", {"content": item.get("output"), "tool_call_id": item.get("call_id")}))
            continue
        message = langchain_message(item)
        if message is not None:
            found.append(message)
    return found


def _output(outputs: Any) -> tuple[str | None, bool]:
    """(answer text, whether it calls tools) of an output: text, a chat message, a list of choices, or
    Responses API output items."""
    if isinstance(outputs, str):
        return outputs or None, False
    if isinstance(outputs, Mapping):
        outputs = [outputs]
    items = [as_dict(item) for item in as_list(outputs)]
    if any(item.get("type") == "function_call" or item.get("tool_calls") for item in items):
        return None, True
    message = next((item for item in items if "content" in item), None)
    return (None, False) if message is None else (content_text(message["content"]), False)


def _metadata_value(raw: Any) -> Any:
    """An observation metadata value: the SDK JSON-encodes every one, strings included."""
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _text(fields: Mapping[str, Any]) -> str | None:
    return content_text(fields.get("content"))


PRODUCER = Producer(name=CONVENTION, order=27, gate_keys=GATE_KEYS, read_span=read)
