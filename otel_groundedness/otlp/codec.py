"""OTLP trace/log export requests (protobuf messages) to neutral records and back.

Decoding keeps what scoring needs (ids, names, kinds, times, attributes, events, resource,
scope, log bodies); encoding writes the same fields, so a record survives a round trip.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord, ResourceLogs, ScopeLogs
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

from otel_groundedness.core.log_events import log_event_from_fields
from otel_groundedness.otlp.partition import EVERYTHING, Partition
from otel_groundedness.otlp.values import ValueReader, add_key_values, set_any_value
from otel_groundedness.records import LogEventRecord, SpanEventRecord, SpanRecord

_KIND_NAMES = {0: "INTERNAL", 1: "INTERNAL", 2: "SERVER", 3: "CLIENT", 4: "PRODUCER", 5: "CONSUMER"}
_KIND_NUMBERS = {"INTERNAL": 1, "SERVER": 2, "CLIENT": 3, "PRODUCER": 4, "CONSUMER": 5}


def spans_from_request(
    request: ExportTraceServiceRequest, reader: ValueReader, partition: Partition = EVERYTHING
) -> Iterator[tuple[int, SpanRecord]]:
    """The spans ``partition`` owns, numbered by their place among all the request's spans, with
    their resource attributes and scope name.

    Values cut in a resource's attributes count in ``reader`` only for the partition that owns the
    block's first span (partition 0 for a block without spans), as in ``otlp.partition``.
    """
    number = 0
    for resource_spans in request.resource_spans:
        first = next((span for scope in resource_spans.scope_spans for span in scope.spans), None)
        counts = partition.number == (0 if first is None else int_id(first.trace_id) % partition.count)
        resource: dict[str, Any] | None = None
        if first is None and counts:
            reader.attributes(resource_spans.resource.attributes)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                if partition.owns(int_id(span.trace_id)):
                    if resource is None:
                        attributes = resource_spans.resource.attributes
                        resource = (reader if counts else ValueReader()).attributes(attributes)
                    yield number, span_record(span, resource, scope_spans.scope.name, reader)
                number += 1


def log_events_from_request(
    request: ExportLogsServiceRequest, reader: ValueReader, partition: Partition = EVERYTHING
) -> Iterator[tuple[int, LogEventRecord]]:
    """The log records ``partition`` owns that are events tied to a span (others are skipped),
    numbered by their place among all the request's log records."""
    number = 0
    for resource_logs in request.resource_logs:
        for scope_logs in resource_logs.scope_logs:
            for log in scope_logs.log_records:
                number += 1
                if not partition.owns(int_id(log.trace_id)):
                    continue
                record = log_event_record(log, reader)
                if record is not None:
                    yield number - 1, record


def log_event_record(log: LogRecord, reader: ValueReader) -> LogEventRecord | None:
    """One log record as an event tied to a span; None when it has no span or no event name."""
    return log_event_from_fields(
        int_id(log.trace_id),
        int_id(log.span_id),
        log.event_name or None,
        reader.attributes(log.attributes),
        reader.value(log.body) if log.HasField("body") else None,
        log.time_unix_nano or log.observed_time_unix_nano,
    )


def request_from_spans(spans: Iterable[SpanRecord]) -> ExportTraceServiceRequest:
    """A trace export request holding ``spans``, grouped by resource and scope."""
    request = ExportTraceServiceRequest()
    groups: dict[tuple[str, str], ScopeSpans] = {}
    resources: dict[str, ResourceSpans] = {}
    for record in spans:
        resource_key = repr(sorted(record.resource.items()))
        resource_spans = resources.get(resource_key)
        if resource_spans is None:
            resource_spans = request.resource_spans.add()
            add_key_values(resource_spans.resource.attributes, record.resource)
            resources[resource_key] = resource_spans
        scope_spans = groups.get((resource_key, record.scope))
        if scope_spans is None:
            scope_spans = resource_spans.scope_spans.add()
            scope_spans.scope.name = record.scope
            groups[(resource_key, record.scope)] = scope_spans
        scope_spans.spans.append(span_message(record))
    return request


def request_from_log_events(events: Iterable[LogEventRecord]) -> ExportLogsServiceRequest:
    """A logs export request holding ``events`` under one empty resource and scope."""
    scope_logs = ScopeLogs(log_records=[log_message(event) for event in events])
    return ExportLogsServiceRequest(resource_logs=[ResourceLogs(scope_logs=[scope_logs])])


def log_message(event: LogEventRecord) -> LogRecord:
    log = LogRecord(
        time_unix_nano=event.timestamp_ns,
        trace_id=event.trace_id.to_bytes(16, "big"),
        span_id=event.span_id.to_bytes(8, "big"),
        event_name=event.event_name,
    )
    add_key_values(log.attributes, event.attributes)
    if event.body is not None:
        set_any_value(log.body, event.body)
    return log


def span_record(span: Span, resource: dict[str, Any], scope: str, reader: ValueReader) -> SpanRecord:
    # Positional, and no generator for the usual span without events: the gateway reads every span here.
    events = span.events
    return SpanRecord(
        int_id(span.trace_id),
        int_id(span.span_id),
        int_id(span.parent_span_id) or None,
        span.name,
        _KIND_NAMES.get(span.kind, "INTERNAL"),
        span.start_time_unix_nano,
        span.end_time_unix_nano,
        reader.attributes(span.attributes),
        tuple(
            [
                SpanEventRecord(event.name, reader.attributes(event.attributes), event.time_unix_nano)
                for event in events
            ]
        )
        if events
        else (),
        resource,
        scope,
    )


def span_message(record: SpanRecord) -> Span:
    span = Span(
        trace_id=record.trace_id.to_bytes(16, "big"),
        span_id=record.span_id.to_bytes(8, "big"),
        name=record.name,
        kind=_KIND_NUMBERS.get(record.kind, 1),  # type: ignore[arg-type]
        start_time_unix_nano=record.start_time_ns,
        end_time_unix_nano=record.end_time_ns,
    )
    add_key_values(span.attributes, record.attributes)
    if record.parent_span_id:
        span.parent_span_id = record.parent_span_id.to_bytes(8, "big")
    for event in record.events:
        added = span.events.add(time_unix_nano=event.timestamp_ns, name=event.name)
        add_key_values(added.attributes, event.attributes)
    return span


def int_id(raw: bytes) -> int:
    """The integer form of an OTLP id (0 when absent), as the SDK keeps ids."""
    return int.from_bytes(raw, "big") if raw else 0
