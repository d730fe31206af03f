"""Decisions written out as OTLP: the evaluation on the received protobuf span (attributes and the
``gen_ai.evaluation.result`` event, as ``core.enrich_record`` does on a record), the evaluation log
record the live processor emits, and encoded export requests grouped by resource and scope."""

from __future__ import annotations

from collections.abc import Iterable

from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.core import Evaluation
from otel_groundedness.gateway.trace_buffer import Origin
from otel_groundedness.otlp.values import add_key_values, set_any_value
from otel_groundedness.otlp.wire import length_delimited
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


# Fields of the export requests, identical for traces and logs: a request's resource blocks (1); a
# block's resource (1), scope blocks (2) and schema URL (3); a scope block's scope (1), spans or log
# records (2) and schema URL (3).
_BLOCKS, _RESOURCE, _SCOPE_BLOCKS, _SCHEMA_URL = 1, 1, 2, 3
_SCOPE, _ITEMS = 1, 2
_OWN_SCOPE = InstrumentationScope(name=names.INSTRUMENTATION_SCOPE).SerializeToString()


def trace_request(spans: Iterable[tuple[Origin, bytes]]) -> bytes:
    """One encoded trace export request holding the encoded ``spans`` under their own resources and
    scopes: a resource block per distinct origin, in order of first appearance (as in the request
    built of them and encoded whole), so no span is parsed or encoded again."""
    groups: dict[tuple[bytes, str, bytes, str], list[bytes]] = {}
    for origin, span in spans:
        groups.setdefault(origin.key, []).append(span)
    return b"".join(
        length_delimited(_BLOCKS, _block(resource, resource_schema_url, scope, scope_schema_url, items))
        for (resource, resource_schema_url, scope, scope_schema_url), items in groups.items()
    )


def logs_request(records: Iterable[tuple[Origin, LogRecord]]) -> bytes:
    """One encoded logs export request: each record under its span's resource, in the product's own
    scope."""
    groups: dict[tuple[bytes, str], list[bytes]] = {}
    for origin, record in records:
        groups.setdefault((origin.resource, origin.resource_schema_url), []).append(
            record.SerializeToString()
        )
    return b"".join(
        length_delimited(_BLOCKS, _block(resource, schema_url, _OWN_SCOPE, "", items))
        for (resource, schema_url), items in groups.items()
    )


def _block(
    resource: bytes, resource_schema_url: str, scope: bytes, scope_schema_url: str, items: list[bytes]
) -> bytes:
    """A resource block holding one scope block of ``items``; fields in number order, an empty
    schema URL left out, as protobuf encodes them."""
    scope_block = length_delimited(_SCOPE, scope) + b"".join(
        [length_delimited(_ITEMS, item) for item in items]
    )
    if scope_schema_url:
        scope_block += length_delimited(_SCHEMA_URL, scope_schema_url.encode())
    block = length_delimited(_RESOURCE, resource) + length_delimited(_SCOPE_BLOCKS, scope_block)
    if resource_schema_url:
        block += length_delimited(_SCHEMA_URL, resource_schema_url.encode())
    return block
