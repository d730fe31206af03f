"""Conversions from OpenTelemetry SDK objects to the neutral records in ``records``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan

from otel_groundedness.records import LogEventRecord, SpanEventRecord, SpanRecord


def span_record_from_sdk(span: ReadableSpan) -> SpanRecord:
    """Read a finished SDK span into a ``SpanRecord`` (no copies of attribute values)."""
    ctx = span.get_span_context()
    parent = span.parent
    resource = span.resource.attributes if span.resource is not None else {}
    scope = span.instrumentation_scope.name if span.instrumentation_scope is not None else ""
    return SpanRecord(
        trace_id=ctx.trace_id if ctx is not None else 0,
        span_id=ctx.span_id if ctx is not None else 0,
        parent_span_id=parent.span_id if parent is not None else None,
        name=span.name,
        kind=span.kind.name,
        start_time_ns=span.start_time or 0,
        end_time_ns=span.end_time or 0,
        attributes=span.attributes or {},
        events=tuple(
            SpanEventRecord(event.name, event.attributes or {}, event.timestamp or 0) for event in span.events
        ),
        resource=resource,
        scope=scope,
    )


def log_record_from_sdk(
    trace_id: int | None,
    span_id: int | None,
    event_name: str | None,
    attributes: Mapping[str, Any] | None,
    body: Any,
    timestamp_ns: int | None,
) -> LogEventRecord | None:
    """Build a ``LogEventRecord`` from the fields of an SDK log record; None if it has no span."""
    if not trace_id or not span_id:
        return None
    attrs = attributes or {}
    name = event_name or attrs.get("event.name")
    if not isinstance(name, str) or not name:
        return None
    return LogEventRecord(
        trace_id=trace_id,
        span_id=span_id,
        event_name=name,
        attributes=attrs,
        body=body,
        timestamp_ns=timestamp_ns or 0,
    )
