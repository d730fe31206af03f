"""SIGTERM drains: the gateway stops taking requests, scores every trace it holds, forwards the rest,
flushes its exporters and exits 0. Run as the real command, in a child process."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import httpx

from otel_groundedness.otlp.values import ValueReader
from otel_groundedness.telemetry import names

from .expectations import evaluation_attributes, expected_evaluations
from .otlp_sink import OtlpSink
from .process import start_gateway_process
from .traffic import GrpcClient, Request, demo_requests, plain_request, span_ids


def test_sigterm_scores_what_is_held_forwards_everything_and_exits_zero(
    tmp_path: Path, sink: OtlpSink
) -> None:
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": sink.endpoint, "OTEL_METRICS_EXPORTER": "none"}
    # Traces would wait five minutes to be idle: only the drain can release them.
    gateway = start_gateway_process(
        tmp_path, "gateway", env=env, args=["--trace-idle-s", "300", "--max-trace-wait-s", "600"]
    )
    try:
        genai = demo_requests(tmp_path / "recording.jsonl", 200_000)
        plain = plain_request(30)
        traffic: list[Request] = [plain, *genai]
        client = GrpcClient(gateway.grpc_port)
        assert all(client.send(request) is None for request in traffic)
        client.close()
        sink.wait_for("the plain spans", lambda: len(sink.spans()) >= 30, timeout=30)
        assert len(sink.spans()) == 30  # the GenAI spans are held
        metrics = httpx.get(f"http://127.0.0.1:{gateway.prometheus_port}/metrics", timeout=10).text
        held = next(
            line for line in metrics.splitlines() if line.startswith("groundedness_gateway_held_traces")
        )
        assert float(held.split()[-1]) > 0

        assert gateway.terminate(timeout=60) == 0
    finally:
        gateway.kill()

    sent = span_ids(traffic)
    assert Counter(span.span_id for span in sink.spans()) == Counter(sent)
    scored = {}
    reader = ValueReader()
    for span in sink.spans():
        attributes = evaluation_attributes(reader.attributes(span.attributes))
        if attributes:
            scored[(int.from_bytes(span.trace_id, "big"), int.from_bytes(span.span_id, "big"))] = attributes
    assert scored == expected_evaluations(genai)
    records = [r for r in sink.log_records() if r.event_name == names.EVENT_EVALUATION_RESULT]
    assert len(records) == len(scored)
    messages = [entry["message"] for entry in gateway.log_entries()]
    assert "draining" in messages and messages[-1] == "stopped"
