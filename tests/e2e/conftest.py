"""Session fixtures for the live tests: one Collector, one demo app, Alertmanager with a webhook, and
Prometheus scraping both metric paths. Other suites rely on ``prometheus_with_demo_traffic`` (an
object with ``.url``: a running Prometheus that has scraped every metric the demo emits and loaded
the alert rules); keep its name and meaning stable.

Prometheus starts before the demo, and the demo paces its turns over several scrape intervals, so the
counters grow between samples and the rate/increase-based rules see real traffic.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.free_ports import free_port

from .promql import APP_JOB, exposed_series, scraped_series_by_job
from .services import COLLECTOR_BIN, COLLECTOR_DIR
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

T = TypeVar("T")

# GroundednessUngroundedShareHigh groups by (job, agent, model) and needs >= 20 scored turns in one with
# > 10% of them ungrounded; increase() misses each counter's first sample (a few turns). Each of the
# demo's five agents runs on one model and the families rotate with the turn index, so 200 turns give
# every pair 38 to 42 scored turns; with this seed and fault rate the ungrounded share per pair is 12% to
# 32%. At 20 turns per second the traffic spans 10 s, ten scrapes.
DEMO_TURNS = 200
DEMO_SEED = 11
DEMO_FAULT_RATE = 0.4
DEMO_PACE = 20.0
# The demo keeps serving its metrics for the whole session (stopped by PID at teardown), because
# Prometheus marks a vanished target's series stale and instant queries would come back empty.
DEMO_LINGER_S = 1800


@pytest.fixture(scope="session")
def collector_binary() -> Path:
    """The custom Collector, built by collector-config/build.sh (a no-op when it is up to date)."""
    subprocess.run(["bash", str(COLLECTOR_DIR / "build.sh")], check=True, timeout=900)
    return COLLECTOR_BIN


def _shared(
    request: pytest.FixtureRequest, name: str, start: Callable[[], T], stop: Callable[[T], None]
) -> T:
    """One instance per pytest run, even when another test directory re-exports these fixtures (pytest
    would otherwise start a second stack for it); stopped when the run ends, last started first."""
    stack: dict[str, Any] = request.config.__dict__.setdefault("_groundedness_e2e_stack", {})
    if name not in stack:
        stack[name] = start()
        request.config.add_cleanup(lambda: stop(stack[name]))
    instance: T = stack[name]
    return instance


@pytest.fixture(scope="session")
def collector(
    request: pytest.FixtureRequest, collector_binary: Path, tmp_path_factory: pytest.TempPathFactory
) -> Collector:
    return _shared(
        request,
        "collector",
        lambda: start_collector(tmp_path_factory.mktemp("otelcol")),
        lambda running: running.service.stop(),
    )


@pytest.fixture(scope="session")
def demo_metrics_port(request: pytest.FixtureRequest) -> int:
    """The port the demo will serve its metrics on, known before it starts so Prometheus can be ready."""
    return _shared(request, "demo_metrics_port", free_port, lambda port: None)


@pytest.fixture(scope="session")
def demo_app(
    request: pytest.FixtureRequest,
    collector: Collector,
    demo_metrics_port: int,
    prometheus_server: Prometheus,
    tmp_path_factory: pytest.TempPathFactory,
) -> DemoApp:
    """The demo after all of its turns: every metric, span and log record has been produced. It starts
    once Prometheus is scraping its port (``prometheus_server``), so its whole run is sampled."""

    return _shared(
        request,
        "demo",
        lambda: start_demo(
            tmp_path_factory.mktemp("demo"),
            collector.otlp_http_url,
            metrics_port=demo_metrics_port,
            turns=DEMO_TURNS,
            seed=DEMO_SEED,
            fault_rate=DEMO_FAULT_RATE,
            pace=DEMO_PACE,
            linger_s=DEMO_LINGER_S,
        ),
        lambda demo: demo.service.stop(),
    )


@pytest.fixture(scope="session")
def alert_webhook(request: pytest.FixtureRequest) -> WebhookSink:
    return _shared(request, "webhook", start_webhook, lambda sink: sink.stop())


@pytest.fixture(scope="session")
def alertmanager(
    request: pytest.FixtureRequest, alert_webhook: WebhookSink, tmp_path_factory: pytest.TempPathFactory
) -> Alertmanager:
    return _shared(
        request,
        "alertmanager",
        lambda: start_alertmanager(tmp_path_factory.mktemp("alertmanager"), alert_webhook.url),
        lambda running: running.service.stop(),
    )


@pytest.fixture(scope="session")
def prometheus_server(
    request: pytest.FixtureRequest,
    collector: Collector,
    demo_metrics_port: int,
    alertmanager: Alertmanager,
    tmp_path_factory: pytest.TempPathFactory,
) -> Prometheus:
    """Prometheus with the alert rules loaded, scraping the Collector's exporter and the demo's port
    (job ``agent-apps``) from before the demo starts; see ``prometheus_with_demo_traffic``."""
    return _shared(
        request,
        "prometheus",
        lambda: start_prometheus(
            tmp_path_factory.mktemp("prometheus"),
            collector_target=collector.exporter_target,
            app_target=f"127.0.0.1:{demo_metrics_port}",
            alertmanager_target=alertmanager.target,
        ),
        lambda prometheus: prometheus.stop(),
    )


@pytest.fixture(scope="session")
def prometheus_with_demo_traffic(
    request: pytest.FixtureRequest, prometheus_server: Prometheus, demo_app: DemoApp
) -> Prometheus:
    """Prometheus with the alert rules loaded that has scraped every metric the demo emits, both from
    the demo's endpoint (job ``agent-apps``) and through the Collector's exporter."""

    def wait_for_traffic() -> Prometheus:
        expected = exposed_series(demo_app.metrics_url)

        def scraped_everything() -> bool | None:
            by_job = scraped_series_by_job(prometheus_server.url)
            through_collector = set().union(*(names for job, names in by_job.items() if job != APP_JOB))
            complete = expected <= by_job.get(APP_JOB, set()) and expected <= through_collector
            return True if complete else None

        prometheus_server.service.wait_ready(
            "a sample of every demo metric on both paths", scraped_everything, 60
        )
        # One more evaluation round so the rules have seen the data too.
        time.sleep(2)
        return prometheus_server

    # Stopped by the ``prometheus_server`` entry; this one only records that the wait is done.
    return _shared(request, "prometheus_with_demo_traffic", wait_for_traffic, lambda prometheus: None)
