"""Backpressure, never silent loss: when the trace buffer or the export queue is full the gateway
refuses whole requests with a retryable status carrying ``RetryInfo``; a sender that retries as told
gets every span through exactly once after the burst."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc

from otel_groundedness.gateway.rpc_status import retry_delay_s
from otel_groundedness.gateway.service import Gateway
from otel_groundedness.telemetry import names

from .otlp_sink import OtlpSink
from .traffic import GrpcClient, Request, demo_requests, plain_request, span_ids

RETRYABLE = (grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.UNAVAILABLE)


def send_retrying(port: int, requests: list[Request]) -> list[grpc.StatusCode]:
    """Send each request until accepted, waiting the delay each refusal names; the refusals seen."""
    refusals: list[grpc.StatusCode] = []
    client = GrpcClient(port)
    try:
        for request in requests:
            for _ in range(120):
                error = client.send(request)
                if error is None:
                    break
                assert error.code() in RETRYABLE, error
                delay = retry_delay_s(error)
                assert delay is not None, "a refusal without RetryInfo is not retried by the Collector"
                refusals.append(error.code())
                time.sleep(delay)
            else:
                raise AssertionError("a request was refused 120 times")
    finally:
        client.close()
    return refusals


def burst(port: int, requests: list[Request], senders: int = 4) -> list[grpc.StatusCode]:
    shares = [requests[index::senders] for index in range(senders)]
    with ThreadPoolExecutor(senders) as pool:
        return [
            code for codes in pool.map(lambda share: send_retrying(port, share), shares) for code in codes
        ]


def test_a_full_buffer_refuses_until_traces_are_scored_and_nothing_is_lost(
    tmp_path: Path, sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(
        trace_idle_s=2.0, max_buffer_bytes=160 * 1024, max_request_bytes=32 * 1024, max_traces=40
    )
    traffic = demo_requests(tmp_path / "recording.jsonl", 900_000)
    refusals = burst(gateway.ports.grpc, traffic)
    sent = span_ids(traffic)
    sink.wait_for("every span", lambda: len(sink.spans()) >= len(sent), timeout=60)
    assert Counter(span.span_id for span in sink.spans()) == Counter(sent)
    assert refusals and set(refusals) == {grpc.StatusCode.RESOURCE_EXHAUSTED}
    # What the gateway sends fits the request limit it applies itself.
    assert max(request.ByteSize() for request in sink.trace_requests) <= 32 * 1024
    scored = sum(
        1 for span in sink.spans() for event in span.events if event.name == names.EVENT_EVALUATION_RESULT
    )
    sink.wait_for(
        "one record per scored span",
        lambda: sum(1 for r in sink.log_records() if r.event_name == names.EVENT_EVALUATION_RESULT) == scored,
        timeout=10,
    )
    assert scored > 0
    print(f"refused {len(refusals)} times; {len(sent)} spans arrived once each, {scored} turns scored")


def test_a_failing_downstream_fills_the_queue_then_everything_is_delivered(
    sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(max_export_queue_bytes=32 * 1024, max_request_bytes=16 * 1024)
    sink.fail_next(10)
    traffic: list[Request] = [plain_request(40) for _ in range(40)]
    refusals = burst(gateway.ports.grpc, traffic)
    sent = span_ids(traffic)
    sink.wait_for("every span", lambda: len(sink.spans()) >= len(sent), timeout=60)
    assert Counter(span.span_id for span in sink.spans()) == Counter(sent)
    assert refusals and set(refusals) == {grpc.StatusCode.RESOURCE_EXHAUSTED}
    assert sink.calls >= 10 + 40 // 40
    print(f"refused {len(refusals)} times while the sink failed; {len(sent)} spans arrived once each")
