"""Convention adapters: read raw GenAI span and log attributes into neutral ``SpanFacts``/``LogFacts``.

One module per producer family, each declaring itself to ``registry``; the format is detected per
span from its attributes, never from the library or span name. ``is_genai_span`` is the cheap gate
the processor calls on every span, built from the same declarations as the readers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from otel_groundedness.conventions.registry import GATE_KEYS, LOG_READERS, claimants
from otel_groundedness.records import LogEventRecord, LogFacts, SpanFacts, SpanRecord

__all__ = ["has_gate_key", "is_genai_span", "read_log_event", "read_span"]

_logger = logging.getLogger(__name__)


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
        return not backing.keys().isdisjoint(GATE_KEYS)
    return any(key in attributes for key in GATE_KEYS)


def has_gate_key(keys: Iterable[str]) -> bool:
    """``is_genai_span`` from attribute keys read one at a time (the gateway's protobuf spans): it
    stops at the first gate key, so a GenAI span's other keys are never read."""
    return not GATE_KEYS.isdisjoint(keys)


def read_span(span: SpanRecord) -> SpanFacts | None:
    """What a GenAI span says (answer, evidence, prompt, context); None when it is not one. Never raises.

    The first producer in order that claims the span and reads facts from it wins: a span a specific
    producer leaves unread (a Traceloop ``task`` span with semconv content) falls to the next one.
    """
    try:
        for producer in claimants(span.attributes):
            facts = producer.read_span(span) if producer.read_span is not None else None
            if facts is not None:
                return facts
        return None
    except Exception:  # malformed producer data must never reach the application
        _logger.debug("could not read span %s", span.name, exc_info=True)
        return None


def read_log_event(record: LogEventRecord) -> LogFacts | None:
    """What a GenAI event-form log record says; None when it carries no GenAI content. Never raises."""
    try:
        reader = LOG_READERS.get(record.event_name)
        return reader(record) if reader is not None else None
    except Exception:  # malformed producer data must never reach the application
        _logger.debug("could not read log event %s", record.event_name, exc_info=True)
        return None
