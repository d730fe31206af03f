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
