"""Joined by hand, a length-delimited field is encoded as protobuf encodes it (varint lengths too)."""

from __future__ import annotations

import pytest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from otel_groundedness.otlp.wire import length_delimited


@pytest.mark.parametrize("length", [0, 1, 127, 128, 300, 16_383, 16_384, 2_100_000])
def test_a_length_delimited_field_is_encoded_as_protobuf_does(length: int) -> None:
    text = "x" * length
    assert length_delimited(1, text.encode()) == AnyValue(string_value=text).SerializeToString()
    value = AnyValue(string_value=text).SerializeToString()
    assert length_delimited(2, value) == KeyValue(value=AnyValue(string_value=text)).SerializeToString()
