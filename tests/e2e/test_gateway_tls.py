"""The shipped front tier reaching a gateway over mutual TLS: the real Collector's ``load_balancing``
exporter with ``tls.ca_file``, ``cert_file`` and ``key_file`` (an overlay on
``otelcol-groundedness.gateway.yaml``), a gateway process with ``--tls-*``, certificates from a
``trustme`` test CA. Every span sent to the front arrives once, and the GenAI turns come out scored."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import trustme

from otel_groundedness.telemetry import names
from tests.free_ports import free_port
from tests.gateway.otlp_sink import OtlpSink
from tests.gateway.process import start_gateway_process
from tests.gateway.traffic import GrpcClient, demo_requests, plain_request, span_ids

from .gateway_tier import FRONT_CONFIG
from .services import COLLECTOR_READY, start_service, write_yaml

pytestmark = pytest.mark.e2e


def _write_leaf(leaf: trustme.LeafCert, directory: Path, name: str) -> tuple[Path, Path]:
    chain, key = directory / f"{name}.pem", directory / f"{name}-key.pem"
    chain.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
    leaf.private_key_pem.write_to_path(str(key))
    return chain, key


def test_the_front_tier_reaches_a_gateway_over_mutual_tls(tmp_path: Path, collector_binary: Path) -> None:
    ca = trustme.CA()
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    server_chain, server_key = _write_leaf(ca.issue_cert("127.0.0.1"), tmp_path, "gateway")
    front_chain, front_key = _write_leaf(ca.issue_cert("front-collector"), tmp_path, "front")

    sink = OtlpSink()
    gateway = start_gateway_process(
        tmp_path / "gateway",
        "gateway",
        env={"OTEL_EXPORTER_OTLP_ENDPOINT": sink.endpoint, "OTEL_METRICS_EXPORTER": "none"},
        args=[
            "--trace-idle-s", "1", "--tls-cert-file", str(server_chain), "--tls-key-file", str(server_key),
            "--tls-client-ca-file", str(ca_file),
        ],
    )  # fmt: skip
    front_grpc = free_port()
    tls = {
        "insecure": False,
        "ca_file": str(ca_file),
        "cert_file": str(front_chain),
        "key_file": str(front_key),
    }
    overlay = {"exporters": {"load_balancing": {"protocol": {"otlp": {"tls": tls}}}}}
    env = {
        "OTLP_GRPC_LISTEN": f"127.0.0.1:{front_grpc}",
        "OTLP_HTTP_LISTEN": f"127.0.0.1:{free_port()}",
        "OTELCOL_TELEMETRY_HOST": "127.0.0.1",
        "OTELCOL_TELEMETRY_PORT": str(free_port()),
        "GATEWAY_ENDPOINTS": f"[127.0.0.1:{gateway.grpc_port}]",
        "BACK_TIER_ENDPOINT": "127.0.0.1:9",
    }
    argv = [str(collector_binary), "--config", str(FRONT_CONFIG)]
    argv += ["--config", str(write_yaml(tmp_path / "overlay.yaml", overlay))]
    front = start_service("front", argv, tmp_path / "front", env)
    try:
        front.wait_ready("ready", lambda: front.logged(COLLECTOR_READY), timeout=30)
        assert [entry["receiver_tls"] for entry in gateway.log_entries() if "receiver_tls" in entry] == [
            "mutual_tls"
        ]
        traffic = [plain_request(10), *demo_requests(tmp_path / "recording.jsonl", 30_000)]
        client = GrpcClient(front_grpc)
        assert [client.send(request) for request in traffic] == [None] * len(traffic)
        client.close()
        sent = span_ids(traffic)
        sink.wait_for("every span through the TLS hop", lambda: len(sink.spans()) >= len(sent), timeout=60)
    finally:
        front.stop()
        gateway.terminate()
        sink.stop()
    assert Counter(span.span_id for span in sink.spans()) == Counter(sent)
    scored = [
        span for span in sink.spans() if any(e.name == names.EVENT_EVALUATION_RESULT for e in span.events)
    ]
    assert scored, "no GenAI turn came out of the gateway scored"
