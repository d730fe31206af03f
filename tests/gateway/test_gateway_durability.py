"""Acknowledged means durable: a request is in the write-ahead log before the gateway answers OK, so a
gateway killed with SIGKILL sends, once restarted on the same log, everything it had acknowledged and
not yet delivered, scored as it would have been; a full log refuses with a retryable status; a
request sent again (a sender's retry) is taken once and counted."""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import grpc
import httpx
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord

from otel_groundedness.gateway.listen import ListenAddress
from otel_groundedness.gateway.rpc_status import retry_delay_s
from otel_groundedness.gateway.service import Gateway
from otel_groundedness.otlp.values import ValueReader
from otel_groundedness.telemetry import names

from .expectations import evaluation_attributes, expected_evaluations
from .otlp_sink import OtlpSink
from .process import start_gateway_process
from .test_gateway_backpressure import send_retrying
from .traffic import GrpcClient, Request, demo_requests, plain_request, span_ids

LOCAL = ListenAddress("127.0.0.1", 0)


def scored_spans(sink: OtlpSink) -> dict[tuple[int, int], dict[str, object]]:
    reader = ValueReader()
    return {
        (int.from_bytes(span.trace_id, "big"), int.from_bytes(span.span_id, "big")): evaluation_attributes(
            reader.attributes(span.attributes)
        )
        for span in sink.spans()
        if any(event.name == names.EVENT_EVALUATION_RESULT for event in span.events)
    }


def log_keys(records: list[LogRecord]) -> Counter[tuple[bytes, bytes, str, int]]:
    return Counter((r.trace_id, r.span_id, r.event_name, r.time_unix_nano) for r in records)


def test_a_gateway_killed_with_sigkill_delivers_what_it_acknowledged_once_restarted(
    tmp_path: Path, sink: OtlpSink
) -> None:
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": sink.endpoint, "OTEL_METRICS_EXPORTER": "none"}
    holding = ["--trace-idle-s", "30", "--max-trace-wait-s", "60"]  # nothing held is scored before the kill
    gateway = start_gateway_process(tmp_path, "gateway", env=env, args=holding)
    genai = demo_requests(tmp_path / "recording.jsonl", 100_000)
    plain = [plain_request(20) for _ in range(5)]
    traffic: list[Request] = [*plain, *genai]
    client = GrpcClient(gateway.grpc_port)
    assert all(client.send(request) is None for request in traffic)  # acknowledged
    client.close()
    forwarded_logs = [
        r for request in genai if not isinstance(request, ExportTraceServiceRequest)
        for rl in request.resource_logs for sl in rl.scope_logs for r in sl.log_records
    ]  # fmt: skip
    # What is forwarded at once has left (and its release is committed) before the kill.
    sink.wait_for("forwarded spans and records", lambda: len(sink.log_records()) >= len(forwarded_logs), 30)
    time.sleep(1.0)
    before_kill = len(sink.spans())
    gateway.kill()
    assert before_kill < len(span_ids(traffic))  # held GenAI spans were only on disk

    restarted = start_gateway_process(tmp_path, "gateway", env=env, args=["--trace-idle-s", "0.5"])
    try:
        sent = span_ids(traffic)
        sink.wait_for("every span acknowledged", lambda: len(sink.spans()) >= len(sent), timeout=60)
        expected = expected_evaluations(genai)
        sink.wait_for(
            "an evaluation record per turn",
            lambda: (
                sum(r.event_name == names.EVENT_EVALUATION_RESULT for r in sink.log_records())
                >= len(expected)
            ),
            timeout=30,
        )
        time.sleep(0.5)  # anything more would be a duplicate
    finally:
        assert restarted.terminate() == 0
    assert Counter(span.span_id for span in sink.spans()) == Counter(sent)
    assert scored_spans(sink) == expected
    content = [r for r in sink.log_records() if r.event_name != names.EVENT_EVALUATION_RESULT]
    assert log_keys(content) == log_keys(forwarded_logs)  # forwarded before the kill, not again
    replayed = [
        entry for entry in restarted.log_entries() if entry["message"] == "replayed the write-ahead log"
    ]
    assert replayed and replayed[0]["requests"] > 0


def test_a_full_log_refuses_with_a_retryable_status_until_downstream_takes_what_it_holds(
    sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(max_wal_bytes=64 * 1024, max_request_bytes=16 * 1024)
    sink.fail_next(10_000)  # downstream down: nothing is released
    client = GrpcClient(gateway.ports.grpc)
    accepted: list[Request] = []
    for _ in range(100):
        request = plain_request(40)
        error = client.send(request)
        if error is not None:
            break
        accepted.append(request)
    client.close()
    assert error is not None and error.code() == grpc.StatusCode.UNAVAILABLE
    assert retry_delay_s(error) is not None  # the Collector retries UNAVAILABLE; RetryInfo says when
    assert 64 * 1024 * 0.5 < sum(r.ByteSize() for r in accepted) <= 64 * 1024
    with httpx.Client(base_url=f"http://127.0.0.1:{gateway.ports.http}") as http:
        refused = http.post(
            "/v1/traces",
            content=plain_request(40).SerializeToString(),
            headers={"Content-Type": "application/x-protobuf"},
        )
    assert refused.status_code == 503 and refused.headers["retry-after"] == "1"

    sink.stop_failing()
    late = [plain_request(40) for _ in range(10)]
    refusals = send_retrying(gateway.ports.grpc, late)
    sent = span_ids([*accepted, *late])
    sink.wait_for("every span", lambda: len(sink.spans()) >= len(sent), timeout=60)
    assert Counter(span.span_id for span in sink.spans()) == Counter(sent)
    assert set(refusals) <= {grpc.StatusCode.UNAVAILABLE}


def duplicates_counted(gateway: Gateway) -> float:
    text = httpx.get(f"http://127.0.0.1:{gateway.ports.prometheus}/metrics").text
    found = re.search(r"^groundedness_gateway_duplicates_total(?:\{[^}]*\})? (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_a_request_sent_again_is_taken_once_and_counted_also_after_a_restart(
    sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(prometheus_listen=LOCAL)
    request = plain_request(40)
    client = GrpcClient(gateway.ports.grpc)
    assert client.send(request) is None
    assert client.send(request) is None  # a retry after a lost answer: acknowledged, not sent twice
    client.close()
    sink.wait_for("the spans", lambda: len(sink.spans()) >= 40, timeout=30)
    assert duplicates_counted(gateway) == 40
    gateway.shutdown()

    again = start_gateway(prometheus_listen=LOCAL, wal_dir=gateway.settings.wal_dir)
    client = GrpcClient(again.ports.grpc)
    assert client.send(request) is None
    client.close()
    assert duplicates_counted(again) == 40
    time.sleep(1.0)
    assert Counter(span.span_id for span in sink.spans()) == Counter(span_ids([request]))


def test_the_duplicate_window_is_bounded_in_spans(
    sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(dedup_window_spans=50)
    first, second = plain_request(40), plain_request(40)
    client = GrpcClient(gateway.ports.grpc)
    for request in (first, second, first):  # the first left the window when the second came in
        assert client.send(request) is None
    client.close()
    sink.wait_for("the spans", lambda: len(sink.spans()) >= 120, timeout=30)
    assert Counter(span.span_id for span in sink.spans()) == Counter(span_ids([first, second, first]))


def test_with_the_log_a_downstream_down_longer_than_the_retry_time_loses_nothing(
    sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(export_retry_s=0.5)  # without the log, given up after 0.5 s
    sink.fail_next(4)  # 0.2 + 0.4 + 0.8 + 1.6 s of backoff
    request = plain_request(40)
    client = GrpcClient(gateway.ports.grpc)
    assert client.send(request) is None
    client.close()
    sink.wait_for("the spans", lambda: len(sink.spans()) >= 40, timeout=30)
    assert Counter(span.span_id for span in sink.spans()) == Counter(span_ids([request]))
