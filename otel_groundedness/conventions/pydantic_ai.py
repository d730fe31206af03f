"""Pydantic AI agent-run spans: ``final_result`` (the answer) and ``pydantic_ai.all_messages`` (the
run's history in the semconv parts vocabulary, tool results under ``result`` in role ``user`` messages).

Its chat and ``execute_tool`` spans, and Logfire's ``instrument_openai`` v2 spans (including the
streaming sibling log span), are semconv-shaped and read by ``semconv``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from otel_groundedness.conventions import semconv_messages as msgs
from otel_groundedness.conventions._common import semconv_context, text_attr
from otel_groundedness.conventions._json import as_list, decode
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord

CONVENTION = "pydantic_ai"
FINAL_RESULT = "final_result"
ALL_MESSAGES = "pydantic_ai.all_messages"
GATE_KEYS = frozenset({FINAL_RESULT, ALL_MESSAGES})


def read(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    answer, unrenderable = _final_text(attributes.get(FINAL_RESULT))
    decoded = decode(attributes.get(ALL_MESSAGES))
    messages = as_list(decoded.value)
    context = semconv_context(attributes, "invoke_agent")
    if context.request_model is None:
        context = replace(context, request_model=text_attr(attributes, "model_name"))
    if context.agent_name is None:
        context = replace(context, agent_name=text_attr(attributes, "agent_name"))
    return SpanFacts(
        convention=CONVENTION,
        context=context,
        answer=answer,
        evidence=msgs.tool_results(messages, msgs.current_turn_start(messages)),
        user_prompt=msgs.last_user_text(messages),
        is_agent=True,
        content_truncated=decoded.truncated or unrenderable,
    )


def _final_text(value: Any) -> tuple[str | None, bool]:
    """The run's output: text as-is, a structured output as its JSON text; True if it cannot be rendered."""
    if value is None or value == "":
        return None, False
    if isinstance(value, str):
        return value, False
    try:
        return json.dumps(value, default=str), False
    except (RecursionError, ValueError, TypeError):  # nested too deep, or a circular structure
        return None, True


PRODUCER = Producer(name=CONVENTION, order=30, gate_keys=GATE_KEYS, read_span=read)
