"""OpenLLMetry (traceloop): the ≤0.54 indexed ``gen_ai.prompt.N.*`` / ``gen_ai.completion.N.*`` form
and the traceloop-sdk decorator spans (``traceloop.span.kind``). Its ≥0.55 JSON form is plain semconv."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from otel_groundedness.conventions._common import (
    TOOL_FINISH_REASONS,
    clean_id,
    semconv_context,
    span_source_id,
    text_attr,
)
from otel_groundedness.conventions._indexed import group_indexed, has_gaps
from otel_groundedness.conventions._json import decode
from otel_groundedness.records import SpanFacts, SpanRecord
from otel_groundedness.scoring.evidence_item import Evidence

INDEXED_CONVENTION = "openllmetry_indexed"
TRACELOOP_CONVENTION = "traceloop"
_PROMPT = "gen_ai.prompt."
_COMPLETION = "gen_ai.completion."
# Keys that survive 128-attribute eviction (completions are written last) or come first.
_INDEXED_MARKERS = (
    "llm.request.type",
    "gen_ai.completion.0.role",
    "gen_ai.completion.0.finish_reason",
    "gen_ai.completion.0.content",
    "gen_ai.prompt.0.role",
)
_AGENT_KINDS = frozenset({"agent", "workflow"})


def claims_indexed(attributes: Mapping[str, Any]) -> bool:
    return any(key in attributes for key in _INDEXED_MARKERS)


def read_indexed(span: SpanRecord) -> SpanFacts | None:
    attributes = span.attributes
    request_type = text_attr(attributes, "llm.request.type")
    if request_type not in (None, "chat", "completion"):
        return None  # embeddings, rerank: nothing to score
    prompts = group_indexed(attributes, _PROMPT)
    completions = group_indexed(attributes, _COMPLETION)
    start = _current_turn_start(prompts)
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
    """``@tool`` spans give evidence (``traceloop.entity.output``); ``@agent``/``@workflow`` close a turn."""
    attributes = span.attributes
    kind = text_attr(attributes, "traceloop.span.kind")
    name = text_attr(attributes, "traceloop.entity.name")
    if kind == "tool":
        raw = attributes.get("traceloop.entity.output")
        evidence = () if raw is None else (Evidence(raw, span_source_id(span.span_id), name=name),)
        return SpanFacts(
            convention=TRACELOOP_CONVENTION,
            context=semconv_context(attributes, "execute_tool"),
            evidence=evidence,
            is_tool=True,
            content_captured=raw is not None,
            content_truncated=decode(raw).truncated,
        )
    if kind in _AGENT_KINDS:
        context = semconv_context(attributes, "invoke_agent")
        if context.agent_name is None:
            context = replace(context, agent_name=name)
        return SpanFacts(convention=TRACELOOP_CONVENTION, context=context, is_agent=True)
    return None


def _current_turn_start(prompts: dict[int, dict[str, Any]]) -> int:
    """Index just after the last user prompt; 0 when it was evicted or never there."""
    for index in sorted(prompts, reverse=True):
        fields = prompts[index]
        if fields.get("role") == "user" and text_attr(fields, "content"):
            return index + 1
    return 0


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
    return choice.get("finish_reason") in TOOL_FINISH_REASONS or any(
        key.startswith("tool_calls.") for key in choice
    )


def _answer(choice: Mapping[str, Any]) -> str | None:
    # A filtered choice carries the placeholder content "FILTERED", which is no answer.
    if choice.get("finish_reason") == "content_filter":
        return None
    return text_attr(choice, "content")
