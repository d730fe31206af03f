"""OpenLLMetry (traceloop): the ≤0.54 indexed ``gen_ai.prompt.N.*`` / ``gen_ai.completion.N.*`` form
and the traceloop-sdk decorator spans (``traceloop.span.kind``). Its ≥0.55 JSON form is plain semconv,
and so are the ``gen_ai.*`` attributes its framework instrumentations (OpenAI Agents, CrewAI) add
to spans that also carry a ``traceloop.span.kind``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from otel_groundedness.conventions import semconv
from otel_groundedness.conventions._common import (
    asks_for_tools,
    clean_id,
    indexed_turn_start,
    semconv_context,
    text_attr,
    tool_span_facts,
)
from otel_groundedness.conventions._indexed import group_indexed, has_gaps
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord
from otel_groundedness.scoring.evidence import Evidence

INDEXED_CONVENTION = "openllmetry_indexed"
TRACELOOP_CONVENTION = "traceloop"
_PROMPT = "gen_ai.prompt."
_COMPLETION = "gen_ai.completion."
# Keys that survive 128-attribute eviction (completions are written last) or come first.
INDEXED_KEYS = frozenset(
    {
        "llm.request.type",
        "gen_ai.completion.0.role",
        "gen_ai.completion.0.finish_reason",
        "gen_ai.completion.0.content",
        "gen_ai.prompt.0.role",
    }
)
SPAN_KIND = "traceloop.span.kind"
TRACELOOP_KEYS = frozenset({SPAN_KIND})
_AGENT_KINDS = frozenset({"agent", "workflow"})


def read_indexed(span: SpanRecord) -> SpanFacts | None:
    attributes = span.attributes
    request_type = text_attr(attributes, "llm.request.type")
    if request_type not in (None, "chat", "completion"):
        return None  # embeddings, rerank: nothing to score
    prompts = group_indexed(attributes, _PROMPT)
    completions = group_indexed(attributes, _COMPLETION)
    start = indexed_turn_start(prompts, lambda fields: fields.get("role") == "user" and _has_content(fields))
    names = _tool_call_names(prompts)
    evidence = tuple(
        Evidence(fields["content"], call_id, name=names.get(call_id or ""))
        for index, fields in prompts.items()
        if index >= start and fields.get("role") == "tool" and fields.get("content") is not None
        for call_id in (clean_id(fields.get("tool_call_id")),)
    )
    user = next((f for i, f in reversed(prompts.items()) if i < start and f.get("role") == "user"), None)
    choice = completions.get(0, {})
    step = _asks_for_tools(choice)
    return SpanFacts(
        convention=INDEXED_CONVENTION,
        context=semconv_context(attributes, "chat" if request_type is None else request_type),
        answer=None if step else _answer(choice),
        evidence=evidence,
        user_prompt=text_attr(user, "content") if user else None,
        tool_call_step=step,
        content_captured=bool(prompts or completions),
        content_truncated=has_gaps(prompts),
    )


def read_traceloop(span: SpanRecord) -> SpanFacts | None:
    """``@tool`` spans give evidence; ``@agent``/``@workflow`` close a turn; other kinds are left to the
    next producer that claims them (semconv reads OpenAI Agents' ``openai.response`` spans).

    A tool span's ``gen_ai.tool.call.result`` (OpenAI Agents) wins over ``traceloop.entity.output``
    (traceloop-sdk ``@tool``): it is the result alone, keyed by its tool-call id.
    """
    attributes = span.attributes
    kind = text_attr(attributes, SPAN_KIND)
    name = text_attr(attributes, "traceloop.entity.name")
    if kind == "tool":
        if semconv.TOOL_CALL_RESULT in attributes:
            return semconv.read_tool(span, TRACELOOP_CONVENTION)
        context = semconv_context(attributes, "execute_tool")
        return tool_span_facts(
            TRACELOOP_CONVENTION, span, context, attributes.get("traceloop.entity.output"), name=name
        )
    if kind in _AGENT_KINDS:
        context = semconv_context(attributes, "invoke_agent")
        if context.agent_name is None:
            context = replace(context, agent_name=name)
        return SpanFacts(convention=TRACELOOP_CONVENTION, context=context, is_agent=True)
    return None


def _tool_call_names(prompts: dict[int, dict[str, Any]]) -> dict[str, str]:
    """Tool-call id → function name, from the assistant prompts' ``tool_calls.N.id|name``."""
    names: dict[str, str] = {}
    for fields in prompts.values():
        for call in group_indexed(fields, "tool_calls.").values():
            call_id, name = clean_id(call.get("id")), text_attr(call, "name")
            if call_id and name:
                names[call_id] = name
    return names


def _asks_for_tools(choice: Mapping[str, Any]) -> bool:
    calls = any(key.startswith("tool_calls.") for key in choice)
    return asks_for_tools((choice.get("finish_reason"),), calls)


def _has_content(fields: Mapping[str, Any]) -> bool:
    return text_attr(fields, "content") is not None


def _answer(choice: Mapping[str, Any]) -> str | None:
    # A filtered choice carries the placeholder content "FILTERED", which is no answer.
    if choice.get("finish_reason") == "content_filter":
        return None
    return text_attr(choice, "content")


# Decorator spans may also carry gen_ai.* keys, so they are tried before the indexed and semconv forms.
TRACELOOP_PRODUCER = Producer(
    name=TRACELOOP_CONVENTION,
    order=40,
    gate_keys=TRACELOOP_KEYS,
    read_span=read_traceloop,
)
INDEXED_PRODUCER = Producer(
    name=INDEXED_CONVENTION,
    order=50,
    gate_keys=INDEXED_KEYS,
    read_span=read_indexed,
)
