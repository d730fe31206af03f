"""What the gateway should write on a set of requests: replay's evaluations of the same records."""

from __future__ import annotations

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from otel_groundedness.otlp.codec import log_events_from_request, spans_from_request
from otel_groundedness.otlp.values import ValueReader
from otel_groundedness.replay.in_memory import replay
from otel_groundedness.telemetry import names

from .traffic import Request


def expected_evaluations(requests: list[Request]) -> dict[tuple[int, int], dict[str, object]]:
    """What replay scores on these records: (trace id, span id) -> the scored span's evaluation attributes."""
    reader = ValueReader()
    spans = [
        span
        for r in requests
        if isinstance(r, ExportTraceServiceRequest)
        for _, span in spans_from_request(r, reader)
    ]
    logs = [
        event
        for r in requests
        if not isinstance(r, ExportTraceServiceRequest)
        for _, event in log_events_from_request(r, reader)
    ]
    result = replay(spans, logs)
    return {(t.turn.trace_id, t.turn.span_id): dict(t.evaluation.span_attributes) for t in result.scored}


def evaluation_attributes(attributes: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in attributes.items() if key.startswith(names.SPAN_PREFIX)}
