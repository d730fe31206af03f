"""Encoded by hand, a length-delimited field and a list of attributes are the bytes protobuf writes
(varint lengths, negative ints, doubles, and whatever falls back to protobuf itself)."""

from __future__ import annotations

import pytest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.otlp.values import add_key_values
from otel_groundedness.otlp.wire import key_values_field, length_delimited


@pytest.mark.parametrize("length", [0, 1, 127, 128, 300, 16_383, 16_384, 2_100_000])
def test_a_length_delimited_field_is_encoded_as_protobuf_does(length: int) -> None:
    text = "x" * length
    assert length_delimited(1, text.encode()) == AnyValue(string_value=text).SerializeToString()
    value = AnyValue(string_value=text).SerializeToString()
    assert length_delimited(2, value) == KeyValue(value=AnyValue(string_value=text)).SerializeToString()


ATTRIBUTES: dict[str, object] = {
    "text": "fünf € 🙂",
    "empty": "",
    "yes": True,
    "no": False,
    "zero": 0,
    "count": 300,
    "negative": -5,
    "largest": 2**63 - 1,
    "smallest": -(2**63),
    "score": 0.8,
    "float zero": 0.0,
    "negative zero": -0.0,
    "not a number": float("nan"),
    "reasons": ("content_truncated", "budget"),
    "list": ["a", 1, 2.5, False],
    "none": None,
    "raw": b"\x00\x01",
    "map": {"inner": {"deep": 1}},
}


@pytest.mark.parametrize("repeat", [1, 2])  # the second time from the cache
def test_encoded_key_values_are_the_bytes_protobuf_writes(repeat: int) -> None:
    built = Span()
    add_key_values(built.attributes, ATTRIBUTES)
    for _ in range(repeat):
        encoded = key_values_field(9, ATTRIBUTES)  # Span.attributes
    assert encoded == built.SerializeToString()
    assert key_values_field(9, {}) == b""


def test_an_int_outside_int64_is_refused_as_protobuf_refuses_it() -> None:
    with pytest.raises(ValueError):
        add_key_values(Span().attributes, {"big": 2**63})
    with pytest.raises(ValueError):
        key_values_field(9, {"big": 2**63})


def test_an_export_request_joined_from_encoded_pieces_is_the_request_protobuf_encodes() -> None:
    from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope
    from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
    from opentelemetry.proto.resource.v1.resource_pb2 import Resource

    from otel_groundedness.otlp.wire import export_request

    resource = Resource()
    add_key_values(resource.attributes, {"service.name": "svc", "n": 3})
    scopes = [InstrumentationScope(name="a"), InstrumentationScope(name="b", version="1")]
    spans = [Span(name=f"s{i}" * (i * 40), trace_id=bytes(16), span_id=bytes([i] * 8)) for i in range(4)]
    whole = ExportTraceServiceRequest()
    block = whole.resource_spans.add(schema_url="https://schema/1")
    block.resource.CopyFrom(resource)
    members_of = ((scopes[0], "", spans[:3]), (scopes[1], "https://schema/2", spans[3:]))
    for scope, schema_url, members in members_of:
        scope_spans = block.scope_spans.add(schema_url=schema_url)
        scope_spans.scope.CopyFrom(scope)
        for span in members:
            scope_spans.spans.add().CopyFrom(span)
    second = whole.resource_spans.add()  # an empty resource, still present, and no schema URL
    second.resource.CopyFrom(Resource())
    second.scope_spans.add().spans.add().CopyFrom(spans[0])
    joined = export_request(
        [
            (
                resource.SerializeToString(),
                "https://schema/1",
                [
                    (scopes[0].SerializeToString(), "", [span.SerializeToString() for span in spans[:3]]),
                    (scopes[1].SerializeToString(), "https://schema/2", [spans[3].SerializeToString()]),
                ],
            ),
            (b"", "", [(None, "", [spans[0].SerializeToString()])]),
        ]
    )
    assert joined == whole.SerializeToString()
    # No resource and no scope at all, as replay writes its log records.
    record = LogRecord(body=AnyValue(string_value="x"))
    logs = ExportLogsServiceRequest()
    logs.resource_logs.add().scope_logs.add().log_records.add().CopyFrom(record)
    joined_logs = export_request([(None, "", [(None, "", [record.SerializeToString()])])])
    assert joined_logs == logs.SerializeToString()
    assert export_request([]) == b""
