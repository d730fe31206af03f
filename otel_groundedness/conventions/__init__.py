"""Convention adapters: read raw GenAI span and log attributes into neutral ``SpanFacts``/``LogFacts``.

One module per producer family; the format is detected per span from its attributes, never from
the library or span name. ``is_genai_span`` is the cheap gate the processor calls on every span.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from otel_groundedness.conventions import (
    openinference,
    openllmetry,
    pydantic_ai,
    semconv,
    semconv_events,
    vercel_ai,
)
from otel_groundedness.records import LogEventRecord, LogFacts, SpanFacts, SpanRecord

__all__ = ["is_genai_span", "read_log_event", "read_span"]

_logger = logging.getLogger(__name__)

# One key per producer family suffices. Keys written late survive 128-attribute eviction
# (which drops the oldest): OpenInference sets its span kind last, OpenLLMetry its completions.
_GENAI_KEYS = frozenset(
    {
        "gen_ai.operation.name",
        "gen_ai.provider.name",
        "gen_ai.system",
        "gen_ai.output.messages",
        "gen_ai.response.id",
        "gen_ai.completion.0.role",
        "gen_ai.prompt.0.role",
        "llm.request.type",
        "openinference.span.kind",
        "ai.operationId",
        "traceloop.span.kind",
        "final_result",
        "pydantic_ai.all_messages",
    }
)


def is_genai_span(attributes: Mapping[str, Any] | None, name: str = "") -> bool:
    """Whether a span may carry GenAI content: a few hash lookups, no parsing.

    ``name`` is accepted but not used: span names are no reliable signal (``openai.chat``,
    ``ChatCompletion``, ``Chat Completion with ...``), attributes are.
    """
    if not attributes:
        return False
    # The SDK's BoundedAttributes has no __contains__: each miss would raise and catch a KeyError
    # inside Mapping.__contains__ (~0.5 µs). Its backing dict is read, never written.
    backing = getattr(attributes, "_dict", attributes)
    if isinstance(backing, dict):
        return not backing.keys().isdisjoint(_GENAI_KEYS)
    return any(key in attributes for key in _GENAI_KEYS)


def _reader_for(attributes: Mapping[str, Any]) -> Callable[[SpanRecord], SpanFacts | None] | None:
    # Most specific markers first: OpenInference and AI SDK spans may also carry gen_ai.* keys.
    if openinference.SPAN_KIND in attributes:
        return openinference.read
    if vercel_ai.OPERATION_ID in attributes:
        return vercel_ai.read
    if pydantic_ai.claims(attributes):
        return pydantic_ai.read
    if "traceloop.span.kind" in attributes:
        return openllmetry.read_traceloop
    if openllmetry.claims_indexed(attributes):
        return openllmetry.read_indexed
    if semconv.claims(attributes):
        return semconv.read
    return None


def read_span(span: SpanRecord) -> SpanFacts | None:
    """What a GenAI span says (answer, evidence, prompt, context); None when it is not one. Never raises."""
    try:
        reader = _reader_for(span.attributes)
        return reader(span) if reader is not None else None
    except Exception:  # malformed producer data must never reach the application
        _logger.debug("could not read span %s", span.name, exc_info=True)
        return None


def read_log_event(record: LogEventRecord) -> LogFacts | None:
    """What a GenAI event-form log record says; None when it carries no GenAI content. Never raises."""
    try:
        return semconv_events.read(record)
    except Exception:  # malformed producer data must never reach the application
        _logger.debug("could not read log event %s", record.event_name, exc_info=True)
        return None
