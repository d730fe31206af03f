"""The observability stack of the live tests: Collector, demo traffic, Prometheus, Alertmanager, webhook.

Test configurations are derived from the shipped files (collector overlay, sample prometheus.yml and
alertmanager.yml, the alert rules) with only targets, ports and waits changed.
"""

from __future__ import annotations

import json
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml

from tests.free_ports import free_port

from .services import (
    COLLECTOR_BIN,
    COLLECTOR_DIR,
    COLLECTOR_READY,
    PROMETHEUS_DIR,
    Service,
    http_ok,
    start_service,
    write_yaml,
)

DECISION_WAIT_S = 2


@dataclass
class Collector:
    service: Service
    otlp_http_url: str
    otlp_grpc_endpoint: str
    exporter_target: str
    out_dir: Path

    @property
    def metrics_url(self) -> str:
        return f"http://{self.exporter_target}/metrics"


def start_collector(workdir: Path, *extra_configs: Path, env: dict[str, str] | None = None) -> Collector:
    """The production config layered with the test overlay (file sinks) on free loopback ports."""
    out_dir = workdir / "out"
    out_dir.mkdir(parents=True, exist_ok=True)
    http_port, grpc_port, exporter_port, telemetry_port = (free_port() for _ in range(4))
    service_env = {
        "OTLP_HTTP_LISTEN": f"127.0.0.1:{http_port}",
        "OTLP_GRPC_LISTEN": f"127.0.0.1:{grpc_port}",
        "PROMETHEUS_EXPORTER_LISTEN": f"127.0.0.1:{exporter_port}",
        "OTELCOL_TELEMETRY_HOST": "127.0.0.1",
        "OTELCOL_TELEMETRY_PORT": str(telemetry_port),
        "TAIL_SAMPLING_DECISION_WAIT": f"{DECISION_WAIT_S}s",
        "OTELCOL_TEST_OUT": str(out_dir),
        # Required by the production exporters that the overlay takes out of the pipelines.
        "TRACES_OTLP_ENDPOINT": "127.0.0.1:9",
        "LOKI_OTLP_ENDPOINT": "http://127.0.0.1:9",
    }
    configs = [COLLECTOR_DIR / "otelcol-groundedness.yaml", COLLECTOR_DIR / "otelcol-groundedness.test.yaml"]
    argv = [str(COLLECTOR_BIN)]
    for config in (*configs, *extra_configs):
        argv += ["--config", str(config)]
    service = start_service("otelcol", argv, workdir, {**service_env, **(env or {})})
    collector = Collector(
        service,
        f"http://127.0.0.1:{http_port}",
        f"127.0.0.1:{grpc_port}",
        f"127.0.0.1:{exporter_port}",
        out_dir,
    )
    service.wait_ready("its ready log line", lambda: service.logged(COLLECTOR_READY), timeout=30)
    return collector


@dataclass
class DemoApp:
    service: Service
    metrics_target: str

    @property
    def metrics_url(self) -> str:
        return f"http://{self.metrics_target}/metrics"


def start_demo(
    workdir: Path,
    otlp_endpoint: str | None,
    *,
    metrics_port: int,
    turns: int,
    seed: int,
    fault_rate: float,
    pace: float,
    linger_s: float,
    env: dict[str, str] | None = None,
) -> DemoApp:
    """``otel-groundedness demo`` exporting OTLP to ``otlp_endpoint`` (None: no OTLP) and serving its own
    Prometheus endpoint on ``metrics_port``, ``pace`` turns per second, with ``env`` added to its
    environment (e.g. ``OTEL_GROUNDEDNESS_*`` policy settings); returns once all turns are done (its
    JSON report is written after the last turn)."""
    report = workdir / "demo-report.json"
    argv = [
        sys.executable, "-m", "otel_groundedness", "demo", "--turns", str(turns),
        "--fault-rate", str(fault_rate), "--seed", str(seed), "--pace", str(pace),
        "--prometheus-port", str(metrics_port),
        "--linger", str(linger_s), "--no-live", "--html", str(workdir / "demo-report.html"),
        "--json", str(report),
    ]  # fmt: skip
    if otlp_endpoint is not None:
        argv += ["--otlp-endpoint", otlp_endpoint]
    service = start_service("demo", argv, workdir, env)
    demo = DemoApp(service, f"127.0.0.1:{metrics_port}")
    service.wait_ready("all turns done", lambda: True if report.exists() else None, timeout=180)
    service.wait_ready("metrics endpoint", lambda: http_ok(demo.metrics_url), timeout=30)
    return demo


@dataclass
class WebhookSink:
    """A tiny HTTP server that records the JSON bodies Alertmanager posts to it."""

    server: ThreadingHTTPServer
    received: list[dict[str, Any]] = field(default_factory=list)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/alerts"

    def alerts(self) -> list[dict[str, Any]]:
        return [alert for message in list(self.received) for alert in message.get("alerts", [])]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start_webhook() -> WebhookSink:
    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            received.append(json.loads(self.rfile.read(length)))
            self.send_response(200)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, name="alert-webhook", daemon=True).start()
    return WebhookSink(server, received)


@dataclass
class Alertmanager:
    service: Service
    target: str


def start_alertmanager(workdir: Path, webhook_url: str) -> Alertmanager:
    """The sample alertmanager.yml with every receiver pointed at the webhook and 1s grouping."""
    config = yaml.safe_load((PROMETHEUS_DIR / "alertmanager.yml").read_text())
    for receiver in config["receivers"]:
        receiver["webhook_configs"] = [{"url": webhook_url, "send_resolved": False}]
    routes = [config["route"], *config["route"].get("routes", [])]
    for route in routes:
        route.update({"group_wait": "1s", "group_interval": "1s"})
    config_path = write_yaml(workdir / "alertmanager.yml", config)
    port = free_port()
    argv = [
        "prometheus-alertmanager", f"--config.file={config_path}", f"--storage.path={workdir / 'am-data'}",
        f"--web.listen-address=127.0.0.1:{port}", "--cluster.listen-address=",
    ]  # fmt: skip
    service = start_service("alertmanager", argv, workdir)
    target = f"127.0.0.1:{port}"
    service.wait_ready("ready endpoint", lambda: http_ok(f"http://{target}/-/ready"), timeout=30)
    return Alertmanager(service, target)


# Where the shipped alert rules' trace links point (a deployment's Jaeger query address).
SHIPPED_TRACE_STORE_URL = "http://jaeger:16686"


def write_test_rules(workdir: Path, trace_store_url: str = SHIPPED_TRACE_STORE_URL) -> Path:
    """The shipped rules with every ``for`` set to 0s, so alerts fire within the test's budget, and
    their trace links pointed at ``trace_store_url``."""
    text = (PROMETHEUS_DIR / "groundedness-rules.yml").read_text()
    rules = yaml.safe_load(text.replace(SHIPPED_TRACE_STORE_URL, trace_store_url))
    for group in rules["groups"]:
        for rule in group["rules"]:
            rule["for"] = "0s"
    return write_yaml(workdir / "groundedness-rules.yml", rules)


@dataclass
class Prometheus:
    service: Service
    url: str

    def stop(self) -> None:
        self.service.stop()


def _run_prometheus(workdir: Path, config: dict[str, Any], *flags: str) -> Prometheus:
    """Prometheus with ``config`` (written to ``workdir``) and extra ``flags`` on a free local port,
    once its ready endpoint answers."""
    config_path = write_yaml(workdir / "prometheus.yml", config)
    port = free_port()
    argv = [
        "prometheus", f"--config.file={config_path}", f"--storage.tsdb.path={workdir / 'prom-data'}",
        f"--web.listen-address=127.0.0.1:{port}", *flags,
    ]  # fmt: skip
    service = start_service("prometheus", argv, workdir)
    url = f"http://127.0.0.1:{port}"
    service.wait_ready("ready endpoint", lambda: http_ok(f"{url}/-/ready"), timeout=30)
    return Prometheus(service, url)


def start_prometheus(
    workdir: Path,
    *,
    collector_target: str,
    app_target: str,
    alertmanager_target: str,
    trace_store_url: str = SHIPPED_TRACE_STORE_URL,
) -> Prometheus:
    """The sample prometheus.yml with local targets, 1s scrape/evaluation and the test rules, storing
    exemplars as production does (docs/collector.md)."""
    config = yaml.safe_load((PROMETHEUS_DIR / "prometheus.yml").read_text())
    config["global"] = {"scrape_interval": "1s", "evaluation_interval": "1s"}
    config["rule_files"] = [str(write_test_rules(workdir, trace_store_url))]
    config["alerting"]["alertmanagers"][0]["static_configs"][0]["targets"] = [alertmanager_target]
    targets = {"otelcol-groundedness": collector_target, "agent-apps": app_target}
    for job in config["scrape_configs"]:
        job["static_configs"][0]["targets"] = [targets[job["job_name"]]]
    return _run_prometheus(workdir, config, "--enable-feature=exemplar-storage")


def start_remote_write_receiver(workdir: Path) -> Prometheus:
    """A Prometheus that scrapes nothing and accepts remote write on /api/v1/write."""
    workdir.mkdir(parents=True, exist_ok=True)
    config = {"global": {"evaluation_interval": "1s"}}
    return _run_prometheus(workdir, config, "--web.enable-remote-write-receiver")


def start_scraper(workdir: Path, jobs: dict[str, list[str]]) -> Prometheus:
    """A Prometheus without rules that scrapes ``jobs`` (job name to targets) every second."""
    workdir.mkdir(parents=True, exist_ok=True)
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "scrape_configs": [
            {"job_name": job, "static_configs": [{"targets": targets}]} for job, targets in jobs.items()
        ],
    }
    return _run_prometheus(workdir, config)
