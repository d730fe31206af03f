"""A small live stack where one service scores with two policies: a Prometheus scraping two demo
processes that differ only in their policy, for the scorer-change annotation and the scorer table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.prometheus_names import family_name, label_name
from tests.e2e.promql import query
from tests.e2e.services import wait_for
from tests.e2e.stack import Prometheus, start_demo, start_scraper
from tests.free_ports import free_port

# A policy setting that changes the fingerprint and nothing a dashboard test looks at.
OTHER_POLICY_ENV = {"OTEL_GROUNDEDNESS_MIN_ALERT_SCORE": "0.7"}


@dataclass(frozen=True)
class TwoPolicies:
    """A Prometheus scraping two demo processes that differ only in their policy: job ``changed`` has
    both as targets (one service scoring with two policies, as during a rollout), job ``steady`` only
    the first."""

    prometheus: Prometheus
    changed: str = "policy-changed-app"
    steady: str = "single-policy-app"


@contextmanager
def two_policies(workdir: Path) -> Iterator[TwoPolicies]:
    """The running stack; every process is stopped on exit, demos first."""
    with ExitStack() as stack:
        ports = free_port(), free_port()
        targets = [f"127.0.0.1:{port}" for port in ports]
        prometheus = start_scraper(
            workdir / "prometheus",
            {TwoPolicies.changed: targets, TwoPolicies.steady: targets[:1]},
        )
        stack.callback(prometheus.stop)
        for index, (port, env) in enumerate(zip(ports, ({}, OTHER_POLICY_ENV), strict=True)):
            demo = start_demo(
                workdir / f"demo-{index}",
                None,
                metrics_port=port,
                turns=2,
                seed=3,
                fault_rate=0.0,
                pace=0.0,
                linger_s=900,
                env=env,
            )
            stack.callback(demo.service.stop)
        running = TwoPolicies(prometheus)
        info = family_name(names.METRIC_EVALUATOR_INFO)
        fingerprint = label_name(names.ATTR_METRIC_POLICY_FINGERPRINT)
        expected = {running.changed: "2", running.steady: "1"}

        def both_policies_scraped() -> bool | None:
            found = query(prometheus.url, f"count by (job) (group by (job, {fingerprint}) ({info}))")
            counts = {sample["metric"]["job"]: sample["value"][1] for sample in found}
            return True if counts == expected else None

        wait_for("one policy on the steady job, two on the changed one", both_policies_scraped, 60)
        yield running
