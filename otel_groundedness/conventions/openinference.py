"""OpenInference (Arize): LLM spans with flattened ``llm.input_messages.N.message.*`` /
``llm.output_messages.N.message.*``, TOOL spans (``output.value``, possibly a serialized LangChain
ToolMessage; OpenAI Agents handoffs, also TOOL spans, are skipped), RETRIEVER spans
(``retrieval.documents.N.document.*``) and AGENT spans (the run's messages in ``output.value``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from otel_groundedness.conventions._common import (
    Document,
    asks_for_tools,
    clean_id,
    content_text,
    indexed_turn_start,
    retrieval_span_facts,
    text_attr,
    tool_span_facts,
    turn_start,
)
from otel_groundedness.conventions._indexed import group_indexed, has_gaps
from otel_groundedness.conventions._json import as_dict, as_list, as_text, decode
from otel_groundedness.conventions._langchain import langchain_message
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord, TurnContext
from otel_groundedness.scoring.evidence import Evidence

CONVENTION = "openinference"
SPAN_KIND = "openinference.span.kind"
GATE_KEYS = frozenset({SPAN_KIND})
_REDACTED = "__REDACTED__"  # what the OPENINFERENCE_HIDE_* switches write instead of content


def read(span: SpanRecord) -> SpanFacts | None:
    kind = text_attr(span.attributes, SPAN_KIND)
    if kind == "LLM":
        return _read_llm(span)
    if kind == "TOOL":
        return None if _is_handoff(span) else _read_tool(span)
    if kind == "RETRIEVER":
        return _read_retriever(span)
    if kind == "AGENT":
        return _read_agent(span)
    return None


def _read_llm(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    inputs = group_indexed(attributes, "llm.input_messages.")
    outputs = group_indexed(attributes, "llm.output_messages.")
    start = indexed_turn_start(inputs, lambda fields: _role(fields) == "user" and _text(fields) is not None)
    names = {call_id: name for fields in inputs.values() for call_id, name in _tool_calls(fields)}
    evidence: list[Evidence] = []
    for index, fields in inputs.items():
        content = _text(fields) if index >= start and _role(fields) == "tool" else None
        if content is not None:
            call_id = clean_id(fields.get("message.tool_call_id"))
            name = text_attr(fields, "message.name") or names.get(call_id or "")
            evidence.append(Evidence(content, call_id, name=name))
    user = next(
        (_text(inputs[i]) for i in reversed(inputs) if i < start and _role(inputs[i]) == "user"), None
    )
    choice = outputs.get(0, {})
    step = _asks_for_tools(choice, text_attr(attributes, "llm.finish_reason"))
    return SpanFacts(
        convention=CONVENTION,
        context=_context(attributes, "chat", _response_id(attributes)),
        answer=None if step else _text(choice),
        evidence=tuple(evidence),
        user_prompt=user,
        tool_call_step=step,
        content_captured=bool(inputs or outputs),
        content_truncated=has_gaps(inputs),
    )


def _read_tool(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    raw = attributes.get("output.value")
    decoded = decode(raw)
    message = langchain_message(decoded.value)
    content, call_id, name = raw, None, None
    if message is not None and message[0] == "tool":
        fields = message[1]
        content, call_id, name = (
            fields.get("content"),
            clean_id(fields.get("tool_call_id")),
            fields.get("name"),
        )
    return tool_span_facts(
        CONVENTION,
        span,
        _context(attributes, "execute_tool", None),
        None if content == _REDACTED else content,
        call_id=clean_id(attributes.get("tool_call.id")) or call_id,
        name=text_attr(attributes, "tool.name") or as_text(name) or span.name,
    )


def _is_handoff(span: SpanRecord) -> bool:
    """An OpenAI Agents handoff: a TOOL span named ``handoff to <agent>`` with no tool name, whose output
    is that agent's name (its input the agent handing off). It moves the conversation; it is no evidence."""
    attributes = span.attributes
    target = attributes.get("output.value")
    return "tool.name" not in attributes and isinstance(target, str) and span.name == f"handoff to {target}"


def _read_retriever(span: SpanRecord) -> SpanFacts:
    documents = [
        Document(
            None if (content := fields.get("document.content")) == _REDACTED else content,
            clean_id(fields.get("document.id")),
            fields.get("document.metadata"),
        )
        for fields in group_indexed(span.attributes, "retrieval.documents.").values()
    ]
    context = _context(span.attributes, "retrieval", None)
    return retrieval_span_facts(CONVENTION, span, context, documents, truncated=False)


def _read_agent(span: SpanRecord) -> SpanFacts:
    """The answer is the last AI message of the run (or a plain-text output); tool messages are evidence."""
    attributes = span.attributes
    decoded = decode(attributes.get("output.value"))
    answer, prompt = None, None
    evidence: tuple[Evidence, ...] = ()
    if isinstance(decoded.value, str):
        answer = _visible(decoded.value)
    else:
        messages = [m for m in map(langchain_message, as_list(as_dict(decoded.value).get("messages"))) if m]
        start = turn_start(messages, lambda message: message[0] == "user")
        prompt = content_text(messages[start - 1][1].get("content")) if start else None
        current = messages[start:]
        evidence = tuple(
            Evidence(
                fields["content"], clean_id(fields.get("tool_call_id")), name=as_text(fields.get("name"))
            )
            for role, fields in current
            if role == "tool" and fields.get("content") is not None
        )
        finals = [f for role, f in current if role == "assistant" and not f.get("tool_calls")]
        answer = _visible(content_text(finals[-1].get("content"))) if finals else None
    # Never the span name: some applications put run ids in it, an unbounded metric label.
    agent_name = text_attr(attributes, "agent.name")
    return SpanFacts(
        convention=CONVENTION,
        context=replace(_context(attributes, "invoke_agent", None), agent_name=agent_name),
        answer=answer,
        evidence=evidence,
        user_prompt=prompt,
        is_agent=True,
        content_truncated=decoded.truncated,
    )


def _context(attributes: Mapping[str, Any], operation: str, response_id: str | None) -> TurnContext:
    invocation = as_dict(decode(attributes.get("llm.invocation_parameters")).value)
    model = text_attr(attributes, "llm.model_name")
    return TurnContext(
        operation=operation,
        provider=text_attr(attributes, "llm.provider", "llm.system"),
        request_model=as_text(invocation.get("model")) or model,
        response_model=model,
        response_id=response_id,
        conversation_id=text_attr(attributes, "session.id"),
    )


def _response_id(attributes: Mapping[str, Any]) -> str | None:
    """OpenInference has no response-id attribute; the id is inside the response JSON in ``output.value``."""
    return as_text(as_dict(decode(attributes.get("output.value")).value).get("id"))


def _asks_for_tools(choice: Mapping[str, Any], finish_reason: str | None) -> bool:
    return asks_for_tools((finish_reason,), any(key.startswith("message.tool_calls.") for key in choice))


def _role(fields: Mapping[str, Any]) -> str | None:
    return text_attr(fields, "message.role")


def _text(fields: Mapping[str, Any]) -> str | None:
    """``message.content``, or the concatenated text of ``message.contents.N.message_content.*``."""
    content = text_attr(fields, "message.content")
    if content is None:
        parts = group_indexed(fields, "message.contents.")
        content = "".join(text_attr(p, "message_content.text") or "" for p in parts.values()) or None
    return _visible(content)


def _tool_calls(fields: Mapping[str, Any]) -> list[tuple[str, str]]:
    calls = group_indexed(fields, "message.tool_calls.").values()
    return [
        (call_id, name)
        for call in calls
        if (call_id := clean_id(call.get("tool_call.id")))
        and (name := text_attr(call, "tool_call.function.name"))
    ]


def _visible(text: str | None) -> str | None:
    return None if text == _REDACTED else text


PRODUCER = Producer(name=CONVENTION, order=10, gate_keys=GATE_KEYS, read_span=read)
