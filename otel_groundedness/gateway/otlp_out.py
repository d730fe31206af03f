"""Decisions written out as OTLP: the evaluation on the received span (attributes and the
``gen_ai.evaluation.result`` event, as ``core.enrich_record`` does on a record), the evaluation log
record the live processor emits, and encoded export requests grouped by resource and scope."""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from typing import Any

from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.core import Evaluation
from otel_groundedness.gateway.trace_buffer import Origin
from otel_groundedness.otlp.values import set_any_value
from otel_groundedness.otlp.wire import (
    export_request,
    key_values,
    key_values_field,
    length_delimited,
    repeated_field,
)
from otel_groundedness.telemetry import names

_TRACE_FLAGS_MASK = 0xFF
# Field numbers: a span's attributes and events, an event's time (fixed64) and attributes, a log
# record's attributes.
_SPAN_ATTRIBUTES, _SPAN_EVENTS, _EVENT_ATTRIBUTES, _RECORD_ATTRIBUTES = 9, 11, 3, 6
_EVENT_TIME = b"\x09"
_EVENT_NAME = length_delimited(2, names.EVENT_EVALUATION_RESULT.encode())
# A log record's time (1) and observed time (11), both fixed64; flags (8, fixed32); trace and span
# ids (9, 10); event name (12).
_RECORD_TIME, _RECORD_OBSERVED_TIME, _RECORD_FLAGS = b"\x09", b"\x59", b"\x45"
_RECORD_TRACE_ID, _RECORD_SPAN_ID = 9, 10
_RECORD_EVENT_NAME = length_delimited(12, names.EVENT_EVALUATION_RESULT.encode())


def scored_output(
    span: Span, encoded: bytes, present: Mapping[str, Any], evaluation: Evaluation, now_ns: int
) -> tuple[bytes, bytes]:
    """The scored span (``write_evaluation``) and its evaluation record (``evaluation_record``), both
    encoded: the result's attributes, on the span's event and on the record alike, encoded once."""
    attributes = key_values(evaluation.event_attributes)
    return (
        write_evaluation(span, encoded, present, evaluation, attributes),
        evaluation_record(span, attributes, now_ns),
    )


def write_evaluation(
    span: Span,
    encoded: bytes,
    present: Mapping[str, Any],
    evaluation: Evaluation,
    event_attributes: list[bytes],
) -> bytes:
    """``encoded`` (the span as received; ``span`` was parsed from it, ``present`` is its attributes
    as read) with the evaluation added: attributes (replacing any of the same key), the defaults where
    the span has no value of its own (an instrumentation's is never replaced), and the event
    (``event_attributes``: the evaluation's event attributes, as ``wire.key_values`` encodes them).

    Fields appended to a message's encoding are merged into it where it is parsed (repeated ones
    appended), so the usual span, which has none of the evaluation's attributes, gets them appended
    and is not encoded again; one that has some is changed in place and encoded again."""
    added = evaluation.span_attributes
    defaults = evaluation.span_defaults
    replaced: set[str] = set()
    changed = False
    # Keys compared in C: the usual span shares none with the evaluation, and its message's
    # attributes are not walked (each item read from protobuf builds Python objects).
    if not (added.keys().isdisjoint(present.keys()) and defaults.keys().isdisjoint(present.keys())):
        for item in span.attributes:
            key = item.key  # read once: each read of a protobuf string field builds a new str
            if key in added:
                item.value.Clear()
                set_any_value(item.value, added[key])
                replaced.add(key)
                changed = True
            elif key in defaults:
                replaced.add(key)
    if defaults or replaced:
        merged = {**defaults, **added}
        added = {key: value for key, value in merged.items() if key not in replaced} if replaced else merged
    # Stamped at the span end so that viewers draw it inside the span it evaluates.
    event = _EVENT_NAME
    if span.end_time_unix_nano:
        event = _EVENT_TIME + struct.pack("<Q", span.end_time_unix_nano) + event
    event += repeated_field(_EVENT_ATTRIBUTES, event_attributes)
    addition = key_values_field(_SPAN_ATTRIBUTES, added) + length_delimited(_SPAN_EVENTS, event)
    if not changed:
        return encoded + addition
    span.MergeFromString(addition)
    return span.SerializeToString()  # type: ignore[no-any-return]


def evaluation_record(span: Span, attributes: list[bytes], now_ns: int) -> bytes:
    """The encoded ``gen_ai.evaluation.result`` log record for a scored span, in that span's trace
    context (``attributes``: as ``wire.key_values`` encodes them): the bytes protobuf writes for the
    record built field by field, which costs several times more."""
    stamp = struct.pack("<Q", now_ns) if now_ns else b""
    flags = span.flags & _TRACE_FLAGS_MASK
    # Fields in number order, a zero or empty one left out, as protobuf writes them.
    return b"".join(
        (
            _RECORD_TIME + stamp if stamp else b"",
            repeated_field(_RECORD_ATTRIBUTES, attributes),
            _RECORD_FLAGS + struct.pack("<I", flags) if flags else b"",
            length_delimited(_RECORD_TRACE_ID, span.trace_id) if span.trace_id else b"",
            length_delimited(_RECORD_SPAN_ID, span.span_id) if span.span_id else b"",
            _RECORD_OBSERVED_TIME + stamp if stamp else b"",
            _RECORD_EVENT_NAME,
        )
    )


_OWN_SCOPE = InstrumentationScope(name=names.INSTRUMENTATION_SCOPE).SerializeToString()


def trace_request(spans: Iterable[tuple[Origin, bytes]]) -> bytes:
    """One encoded trace export request holding the encoded ``spans`` under their own resources and
    scopes: a resource block per distinct origin, in order of first appearance (as in the request
    built of them and encoded whole), so no span is parsed or encoded again."""
    groups: dict[tuple[bytes, str, bytes, str], list[bytes]] = {}
    for origin, span in spans:
        groups.setdefault(origin.key, []).append(span)
    return export_request(
        (resource, resource_schema_url, [(scope, scope_schema_url, items)])
        for (resource, resource_schema_url, scope, scope_schema_url), items in groups.items()
    )


def logs_request(records: Iterable[tuple[Origin, bytes]]) -> bytes:
    """One encoded logs export request of encoded ``records``: each under its span's resource, in the
    product's own scope."""
    groups: dict[tuple[bytes, str], list[bytes]] = {}
    for origin, record in records:
        groups.setdefault((origin.resource, origin.resource_schema_url), []).append(record)
    return export_request(
        (resource, schema_url, [(_OWN_SCOPE, "", items)]) for (resource, schema_url), items in groups.items()
    )
