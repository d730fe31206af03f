"""Decisions written out as OTLP: the evaluation on the received protobuf span (attributes and the
``gen_ai.evaluation.result`` event, as ``core.enrich_record`` does on a record), the evaluation log
record the live processor emits, and export requests grouped by resource and scope."""

from __future__ import annotations

from collections.abc import Iterable

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord, ScopeLogs
from opentelemetry.proto.trace.v1.trace_pb2 import ScopeSpans, Span

from otel_groundedness.core import Evaluation
from otel_groundedness.gateway.trace_buffer import HeldSpan, Origin
from otel_groundedness.otlp.values import add_key_values, set_any_value
from otel_groundedness.telemetry import names

_TRACE_FLAGS_MASK = 0xFF


def write_evaluation(span: Span, evaluation: Evaluation) -> None:
    """Add the evaluation to ``span`` in place: attributes (replacing any of the same key), the defaults
    where the span has no value of its own (an instrumentation's is never replaced), and the event."""
    added = evaluation.span_attributes
    defaults = evaluation.span_defaults
    replaced: set[str] = set()
    for item in span.attributes:
        key = item.key  # read once: each read of a protobuf string field builds a new str
        if key in added:
            item.value.Clear()
            set_any_value(item.value, added[key])
            replaced.add(key)
        elif key in defaults:
            replaced.add(key)
    if replaced or defaults:
        added = {key: value for key, value in {**defaults, **added}.items() if key not in replaced}
    add_key_values(span.attributes, added)
    # Stamped at the span end so that viewers draw it inside the span it evaluates.
    event = span.events.add(time_unix_nano=span.end_time_unix_nano, name=names.EVENT_EVALUATION_RESULT)
    add_key_values(event.attributes, evaluation.event_attributes)


def evaluation_record(span: Span, evaluation: Evaluation, now_ns: int) -> LogRecord:
    """The ``gen_ai.evaluation.result`` log record for a scored span, in that span's trace context."""
    record = LogRecord(
        time_unix_nano=now_ns,
        observed_time_unix_nano=now_ns,
        trace_id=span.trace_id,
        span_id=span.span_id,
        flags=span.flags & _TRACE_FLAGS_MASK,
        event_name=names.EVENT_EVALUATION_RESULT,
    )
    add_key_values(record.attributes, evaluation.event_attributes)
    return record


class _Grouping:
    """Origins equal in content share one group, whichever request they arrived in; with
    ``by_scope`` False only the resource counts."""

    def __init__(self, *, by_scope: bool) -> None:
        self._by_scope = by_scope
        self._keys: dict[int, bytes] = {}

    def key(self, origin: Origin) -> bytes:
        key = self._keys.get(id(origin))
        if key is None:
            parts = [
                origin.resource.SerializeToString(deterministic=True),
                origin.resource_schema_url.encode(),
            ]
            if self._by_scope:
                parts += [
                    origin.scope.SerializeToString(deterministic=True),
                    origin.scope_schema_url.encode(),
                ]
            key = self._keys[id(origin)] = b"\0".join(parts)
        return key


def trace_request(spans: Iterable[HeldSpan]) -> ExportTraceServiceRequest:
    """One trace export request holding ``spans`` under their own resources and scopes."""
    request = ExportTraceServiceRequest()
    grouping = _Grouping(by_scope=True)
    scopes: dict[bytes, ScopeSpans] = {}
    for held in spans:
        key = grouping.key(held.origin)
        scope_spans = scopes.get(key)
        if scope_spans is None:
            resource_spans = request.resource_spans.add(schema_url=held.origin.resource_schema_url)
            resource_spans.resource.CopyFrom(held.origin.resource)
            scope_spans = resource_spans.scope_spans.add(schema_url=held.origin.scope_schema_url)
            scope_spans.scope.CopyFrom(held.origin.scope)
            scopes[key] = scope_spans
        scope_spans.spans.add().CopyFrom(held.span)  # a third of ``append``'s cost in upb
    return request


def logs_request(records: Iterable[tuple[Origin, LogRecord]]) -> ExportLogsServiceRequest:
    """One logs export request: each record under its span's resource, in the product's own scope."""
    request = ExportLogsServiceRequest()
    grouping = _Grouping(by_scope=False)
    scopes: dict[bytes, ScopeLogs] = {}
    for origin, record in records:
        key = grouping.key(origin)
        scope_logs = scopes.get(key)
        if scope_logs is None:
            resource_logs = request.resource_logs.add(schema_url=origin.resource_schema_url)
            resource_logs.resource.CopyFrom(origin.resource)
            scope_logs = resource_logs.scope_logs.add()
            scope_logs.scope.name = names.INSTRUMENTATION_SCOPE
            scopes[key] = scope_logs
        scope_logs.log_records.add().CopyFrom(record)
    return request
