"""``ValueReader`` on every ``AnyValue`` kind: what ``add_key_values`` writes reads back the same
(arrays as tuples), an unset value reads as None, and a later duplicate key wins."""

from __future__ import annotations

from opentelemetry.proto.common.v1.common_pb2 import KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.otlp.values import ValueReader, add_key_values


def test_every_kind_reads_back_as_written() -> None:
    written = {
        "text": "hello",
        "flag": True,
        "count": 3,
        "ratio": 0.5,
        "raw": b"\x00\x01",
        "list": ("a", 1, ("nested", False)),
        "map": {"inner": "x", "deeper": {"n": 2}},
    }
    span = Span()
    add_key_values(span.attributes, written)
    reader = ValueReader()
    assert reader.attributes(span.attributes) == written
    assert reader.value(span.attributes[0].value) == "hello"
    assert reader.value(span.attributes[5].value) == ("a", 1, ("nested", False))
    assert reader.cut == 0


def test_an_unset_value_is_none_and_a_later_duplicate_wins() -> None:
    span = Span(attributes=[KeyValue(key="empty"), KeyValue(key="k")])
    span.attributes[1].value.string_value = "first"
    span.attributes.add(key="k").value.int_value = 2
    assert ValueReader().attributes(span.attributes) == {"empty": None, "k": 2}


def test_empty_and_zero_values_read_as_set_not_as_unset() -> None:
    written = {"text": "", "raw": b"", "count": 0, "ratio": 0.0, "flag": False}
    span = Span()
    add_key_values(span.attributes, written)
    reader = ValueReader()
    assert reader.attributes(span.attributes) == written
    assert reader.value(span.attributes[0].value) == ""
    assert reader.value(KeyValue().value) is None
