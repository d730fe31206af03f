"""Byte estimates of queued spans, taken on the application thread: flat loops, no parsing.

SDK span attributes and event attributes are primitives or flat sequences of them, so one pass over
the values is enough (read from their backing dicts: ``sdk_attributes``). A log record body may nest:
its estimate is ``core.log_events.log_event_bytes``, shared with the gateway.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan

from otel_groundedness.core.log_events import RECORD_OVERHEAD_BYTES
from otel_groundedness.payload import SCALAR_BYTES
from otel_groundedness.processor.sdk_attributes import backing, raw_attributes


def _flat_bytes(attributes: Mapping[str, Any]) -> int:
    size = 0
    for value in attributes.values():
        if isinstance(value, str):
            size += len(value)
        elif isinstance(value, tuple | list):
            size += sum(len(item) if isinstance(item, str) else SCALAR_BYTES for item in value)
        else:
            size += SCALAR_BYTES
    return size


def span_bytes(span: ReadableSpan) -> int:
    """Approximate bytes a queued span keeps alive: its attribute and event values."""
    size = RECORD_OVERHEAD_BYTES + _flat_bytes(raw_attributes(span))
    for event in span.events:
        size += _flat_bytes(backing(event.attributes)) + SCALAR_BYTES
    return size
