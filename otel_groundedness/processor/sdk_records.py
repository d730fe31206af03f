"""Conversion of an ended SDK span to the neutral ``SpanRecord`` (log records: ``core/log_events.py``)."""

from __future__ import annotations

from opentelemetry.sdk.trace import ReadableSpan

from otel_groundedness.records import SpanEventRecord, SpanRecord


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
