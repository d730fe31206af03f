"""The gateway in this process, between a real gRPC client and a real gRPC sink: every span it receives
leaves exactly once, and GenAI turns leave with the evaluation ``score_trace`` (replay) gives on the
same records: the same span attributes, one ``gen_ai.evaluation.result`` event and one log record."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from otel_groundedness.gateway.service import Gateway
from otel_groundedness.otlp.values import ValueReader
from otel_groundedness.telemetry import names

from .expectations import evaluation_attributes, expected_evaluations
from .otlp_sink import OtlpSink
from .traffic import GrpcClient, Request, demo_requests, plain_request, span_ids


def test_every_span_leaves_once_and_turns_score_as_replay(
    tmp_path: Path, sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(trace_idle_s=1.5)
    genai = demo_requests(tmp_path / "recording.jsonl", 300_000)
    plain = [plain_request(50) for _ in range(20)]
    traffic: list[Request] = [item for pair in zip(genai, plain, strict=False) for item in pair]
    traffic += genai[len(plain) :]
    client = GrpcClient(gateway.ports.grpc)
    for request in traffic:
        assert client.send(request) is None
    client.close()
    sent = span_ids(traffic)
    expected = expected_evaluations(genai)
    assert len(expected) > 40  # the recording holds that many scored turns
    sink.wait_for(
        "every span and one evaluation record per turn",
        lambda: len(sink.spans()) >= len(sent) and len(sink.log_records()) >= len(expected),
        timeout=60,
    )

    received = sink.spans()
    assert Counter(span.span_id for span in received) == Counter(sent)
    reader = ValueReader()
    scored: dict[tuple[int, int], dict[str, object]] = {}
    for span in received:
        attributes = evaluation_attributes(reader.attributes(span.attributes))
        events = [event for event in span.events if event.name == names.EVENT_EVALUATION_RESULT]
        if attributes:
            assert len(events) == 1
            scored[(int.from_bytes(span.trace_id, "big"), int.from_bytes(span.span_id, "big"))] = attributes
        else:
            assert not events
    assert scored == expected

    evaluation_records = [r for r in sink.log_records() if r.event_name == names.EVENT_EVALUATION_RESULT]
    by_span = Counter(
        (int.from_bytes(r.trace_id, "big"), int.from_bytes(r.span_id, "big")) for r in evaluation_records
    )
    assert by_span == Counter(expected.keys())
    forwarded = Counter(
        (r.trace_id, r.span_id, r.event_name, r.time_unix_nano)
        for r in sink.log_records()
        if r.event_name != names.EVENT_EVALUATION_RESULT
    )
    sent_logs = Counter(
        (r.trace_id, r.span_id, r.event_name, r.time_unix_nano)
        for request in genai
        if not isinstance(request, ExportTraceServiceRequest)
        for rl in request.resource_logs
        for sl in rl.scope_logs
        for r in sl.log_records
    )
    assert forwarded == sent_logs
