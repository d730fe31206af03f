"""Event-form log records as neutral records, for every host: built from the fields an SDK or an OTLP
log record carries, and the bytes one keeps alive while it waits in a queue or a buffer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.payload import estimate_bytes
from otel_groundedness.records import LogEventRecord

# A record object with its ids, name, timestamp and attribute dict, before any values; queued spans
# are charged the same (``processor/queued_bytes.py``).
RECORD_OVERHEAD_BYTES = 1024


def log_event_from_fields(
    trace_id: int | None,
    span_id: int | None,
    event_name: str | None,
    attributes: Mapping[str, Any] | None,
    body: Any,
    timestamp_ns: int | None,
) -> LogEventRecord | None:
    """Build a ``LogEventRecord`` from the fields of a log record; None if it has no span or no name."""
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


def log_event_bytes(record: LogEventRecord) -> int:
    """Approximate bytes a queued event-form log record keeps alive."""
    return RECORD_OVERHEAD_BYTES + estimate_bytes(record.attributes) + estimate_bytes(record.body)
