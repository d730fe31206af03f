"""The gateway's score histogram, exported over OTLP, carries exemplars of the scored spans: each
exemplar names a span the gateway scored, valued at that span's score."""

from __future__ import annotations

from pathlib import Path

import pytest

from otel_groundedness.gateway.service import Gateway
from otel_groundedness.gateway.settings import GatewaySettings
from otel_groundedness.telemetry import names

from .conftest import LOCAL
from .expectations import expected_evaluations
from .otlp_sink import OtlpSink
from .traffic import GrpcClient, demo_requests


def test_score_exemplars_point_at_the_scored_spans(
    tmp_path: Path, sink: OtlpSink, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SDK's metric exporter and reader read the process environment; the periodic export is ten
    # minutes away, so the one export is the last, at shutdown.
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", sink.endpoint)
    monkeypatch.setenv("OTEL_METRIC_EXPORT_INTERVAL", "600000")
    settings = GatewaySettings(
        grpc_listen=LOCAL, http_listen=LOCAL, prometheus_listen=None, trace_idle_s=0.5, shutdown_timeout_s=10
    )
    gateway = Gateway(settings, {"OTEL_EXPORTER_OTLP_ENDPOINT": sink.endpoint})
    gateway.start()
    try:
        traffic = demo_requests(tmp_path / "recording.jsonl", 60_000)
        scores = {
            turn: attributes[names.ATTR_SCORE]
            for turn, attributes in expected_evaluations(traffic).items()
            if names.ATTR_SCORE in attributes
        }
        assert len(scores) > 5
        client = GrpcClient(gateway.ports.grpc)
        for request in traffic:
            assert client.send(request) is None
        client.close()
        sink.wait_for("the scored turns", lambda: len(sink.log_records()) >= len(scores), timeout=60)
    finally:
        gateway.shutdown()

    (histogram,) = sink.metrics(names.METRIC_SCORE.name)
    exemplars = [exemplar for point in histogram.histogram.data_points for exemplar in point.exemplars]
    assert exemplars
    for exemplar in exemplars:
        turn = (int.from_bytes(exemplar.trace_id, "big"), int.from_bytes(exemplar.span_id, "big"))
        assert exemplar.as_double == scores[turn]
    # Every bucket that counted a turn holds an exemplar of one of them.
    for point in histogram.histogram.data_points:
        assert sum(1 for count in point.bucket_counts if count) == len(point.exemplars)
