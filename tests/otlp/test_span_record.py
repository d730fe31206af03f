"""``span_record``: a protobuf span as a neutral record, with and without events and a parent."""

from __future__ import annotations

from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.otlp.codec import span_record
from otel_groundedness.otlp.values import ValueReader, add_key_values
from otel_groundedness.records import SpanEventRecord, SpanRecord


def test_every_field_and_event_is_read() -> None:
    span = Span(trace_id=(7).to_bytes(16, "big"), span_id=(3).to_bytes(8, "big"), name="chat", kind=3)
    span.start_time_unix_nano, span.end_time_unix_nano = 10, 20
    add_key_values(span.attributes, {"gen_ai.operation.name": "chat", "n": 2})
    resource = {"service.name": "svc"}
    bare = span_record(span, resource, "scope", ValueReader())
    expected = SpanRecord(7, 3, None, "chat", "CLIENT", 10, 20, {"gen_ai.operation.name": "chat", "n": 2})
    assert bare == SpanRecord(**{**_fields(expected), "resource": resource, "scope": "scope"})
    assert bare.events == ()
    span.parent_span_id = (5).to_bytes(8, "big")
    for name, stamp in (("first", 11), ("second", 12)):
        add_key_values(span.events.add(name=name, time_unix_nano=stamp).attributes, {"k": name})
    record = span_record(span, resource, "scope", ValueReader())
    assert record.parent_span_id == 5
    assert record.events == (
        SpanEventRecord("first", {"k": "first"}, 11),
        SpanEventRecord("second", {"k": "second"}, 12),
    )


def _fields(record: SpanRecord) -> dict[str, object]:
    return {name: getattr(record, name) for name in SpanRecord.__slots__}


def test_absent_ids_are_read_as_int_id_reads_them() -> None:
    record = span_record(Span(name="chat"), {}, "", ValueReader())
    assert (record.trace_id, record.span_id, record.parent_span_id) == (0, 0, None)
