"""The whole local stack on 127.0.0.1: Jaeger, the Collector exporting kept traces to it, Alertmanager
with a webhook, Prometheus with exemplar storage and the alert rules, and the demo's traffic through
all of them. ``tests/e2e/test_trace_store.py`` and ``make stack`` (scripts/stack.py) both start it here.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from otel_groundedness.demo.telemetry import SERVICE_NAME
from tests.free_ports import free_port

from .jaeger import Jaeger, start_jaeger
from .services import COLLECTOR_DIR
from .stack import (
    Alertmanager,
    Collector,
    DemoApp,
    Prometheus,
    WebhookSink,
    start_alertmanager,
    start_collector,
    start_demo,
    start_prometheus,
    start_webhook,
)

# Layered after the test overlay: kept traces go to the trace store, as in production.
STACK_OVERLAY = COLLECTOR_DIR / "otelcol-groundedness.stack.yaml"
# The demo's service.name: the Prometheus job on the Collector path and the service Jaeger searches.
DEMO_SERVICE = SERVICE_NAME


@dataclass(frozen=True)
class Traffic:
    """Demo traffic: enough scored turns per (agent, model) pair for the ungrounded-share alert (see
    tests/e2e/conftest.py for the arithmetic), paced over several scrapes."""

    turns: int = 200
    seed: int = 11
    fault_rate: float = 0.4
    pace: float = 20.0
    linger_s: float = 1800


@dataclass
class TraceStack:
    jaeger: Jaeger
    collector: Collector
    webhook: WebhookSink
    alertmanager: Alertmanager
    prometheus: Prometheus
    demo: DemoApp
    workdir: Path

    def report(self) -> dict[str, Any]:
        """The demo's JSON report: every scored turn with its trace id, span id, agent, model, label."""
        path = self.demo.service.log_path.parent / "demo-report.json"
        report: dict[str, Any] = json.loads(path.read_text())
        return report


def start_trace_stack(workdir: Path, stop: ExitStack, traffic: Traffic = Traffic()) -> TraceStack:
    """Start every service (each registered on ``stop``, so closing it stops them, last started first)
    and run the demo's traffic through them; returns once the demo's turns are done. A service that
    fails to start stops itself (``Service.wait_ready``)."""
    for name in ("alertmanager", "prometheus"):  # the others create their own directories
        (workdir / name).mkdir(parents=True, exist_ok=True)
    jaeger = start_jaeger(workdir / "jaeger")
    stop.callback(jaeger.service.stop)
    collector = start_collector(
        workdir / "otelcol",
        STACK_OVERLAY,
        env={"TRACES_OTLP_ENDPOINT": jaeger.otlp_grpc_endpoint, "TRACES_OTLP_INSECURE": "true"},
    )
    stop.callback(collector.service.stop)
    webhook = start_webhook()
    stop.callback(webhook.stop)
    alertmanager = start_alertmanager(workdir / "alertmanager", webhook.url)
    stop.callback(alertmanager.service.stop)
    demo_port = free_port()
    prometheus = start_prometheus(
        workdir / "prometheus",
        collector_target=collector.exporter_target,
        app_target=f"127.0.0.1:{demo_port}",
        alertmanager_target=alertmanager.target,
        trace_store_url=jaeger.query_url,
    )
    stop.callback(prometheus.stop)
    demo = start_demo(
        workdir / "demo",
        collector.otlp_http_url,
        metrics_port=demo_port,
        turns=traffic.turns,
        seed=traffic.seed,
        fault_rate=traffic.fault_rate,
        pace=traffic.pace,
        linger_s=traffic.linger_s,
    )
    stop.callback(demo.service.stop)
    return TraceStack(jaeger, collector, webhook, alertmanager, prometheus, demo, workdir)
