"""The alternative metrics path: the Collector with the remote-write overlay pushes the demo's metrics
into a Prometheus remote-write receiver under the same series names and job label as the scrape path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from otel_groundedness.telemetry.prometheus_names import series_owner
from tests.free_ports import free_port

from .promql import scraped_series_by_job
from .services import COLLECTOR_DIR, wait_for
from .stack import start_collector, start_remote_write_receiver

pytestmark = pytest.mark.e2e


def test_remote_write_delivers_the_predicted_series(collector_binary: Path, tmp_path: Path) -> None:
    receiver = start_remote_write_receiver(tmp_path / "prometheus")
    try:
        collector = start_collector(
            tmp_path / "otelcol",
            COLLECTOR_DIR / "otelcol-groundedness.remote-write.yaml",
            env={"PROMETHEUS_REMOTE_WRITE_URL": f"{receiver.url}/api/v1/write"},
        )
        try:
            demo = subprocess.run(
                [
                    sys.executable, "-m", "otel_groundedness", "demo", "--turns", "12", "--seed", "3",
                    "--otlp-endpoint", collector.otlp_http_url, "--prometheus-port", str(free_port()),
                    "--no-live", "--html", str(tmp_path / "report.html"),
                ],
                capture_output=True, text=True, timeout=180,
            )  # fmt: skip
            assert demo.returncode == 0, demo.stdout[-2000:] + demo.stderr[-2000:]

            def pushed() -> dict[str, set[str]] | None:
                by_job = scraped_series_by_job(receiver.url)
                return (
                    by_job if any("groundedness_turns_total" in names for names in by_job.values()) else None
                )

            by_job = wait_for("groundedness series pushed by remote write", pushed, timeout=30)
        finally:
            collector.service.stop()
    finally:
        receiver.stop()

    (job, series), *others = by_job.items()
    assert not others and job, f"expected one job named after the app's service.name, got {sorted(by_job)}"
    assert {"gen_ai_evaluation_score_bucket", "groundedness_atoms_total"} <= series
    for name in series:
        assert series_owner(name) is not None, (
            f"remote write produced {name}, which prometheus_names does not predict"
        )
