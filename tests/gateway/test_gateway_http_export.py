"""OTLP/HTTP out (``OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf``), into a second gateway's OTLP/HTTP
receiver: both directions of the HTTP path with real servers, and the chain still delivers each span
once with its evaluation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from otel_groundedness.gateway.service import Gateway
from otel_groundedness.telemetry import names

from .conftest import LOCAL
from .otlp_sink import OtlpSink
from .traffic import GrpcClient, demo_requests, plain_request, span_ids


def test_a_gateway_exports_over_http_to_another_gateway(
    tmp_path: Path, sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    second = start_gateway(trace_idle_s=0.5)
    first = Gateway(
        replace(
            second.settings,
            grpc_listen=LOCAL,
            http_listen=LOCAL,
            trace_idle_s=1.0,
            wal_dir=tmp_path / "first-wal",
        ),
        {
            "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{second.ports.http}",
            "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
            "OTEL_METRICS_EXPORTER": "none",
        },
    )
    first.start()
    try:
        traffic = [plain_request(20), *demo_requests(tmp_path / "recording.jsonl", 100_000)]
        client = GrpcClient(first.ports.grpc)
        assert all(client.send(request) is None for request in traffic)
        client.close()
        sent = span_ids(traffic)
        sink.wait_for("every span through both gateways", lambda: len(sink.spans()) >= len(sent), timeout=60)
    finally:
        first.shutdown()
    assert Counter(span.span_id for span in sink.spans()) == Counter(sent)
    scored = [
        span for span in sink.spans() if any(e.name == names.EVENT_EVALUATION_RESULT for e in span.events)
    ]
    assert scored  # by the first gateway; the second, with the same scorer, passes them through
    assert all(sum(e.name == names.EVENT_EVALUATION_RESULT for e in span.events) == 1 for span in scored)
