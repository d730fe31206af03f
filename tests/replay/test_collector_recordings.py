"""Replay what the real Collector's ``file`` exporter wrote from live demo traffic sent over OTLP/gRPC.

The demo runs in legacy event mode, so the answers live in log records (``logs.jsonl``) and the
spans in another file: replay must join the two and reproduce the demo's own scores.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e.stack import start_collector

from otel_groundedness.cli.main import main

TURNS = 7


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.mark.e2e
def test_replay_of_collector_files_matches_the_live_scores(tmp_path: Path) -> None:
    collector = start_collector(tmp_path / "otelcol")
    try:
        demo_report = tmp_path / "demo.json"
        completed = subprocess.run(
            [sys.executable, "-m", "otel_groundedness", "demo", "--semconv", "legacy", "--turns", str(TURNS),
             "--fault-rate", "1.0", "--seed", "4", "--no-live", "--prometheus-port", "0",
             "--otlp-endpoint", f"grpc://{collector.otlp_grpc_endpoint}",
             "--html", str(tmp_path / "demo.html"), "--json", str(demo_report)],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert completed.returncode == 0, completed.stderr[-3000:]
        traces, logs = collector.out_dir / "received-traces.jsonl", collector.out_dir / "logs.jsonl"
        live = {turn["trace_id"]: turn["score"] for turn in json.loads(demo_report.read_text())["turns"]}
        assert len(live) == TURNS
        # The Collector batches and flushes on its own schedule: replay until every turn has arrived.
        replayed_report = tmp_path / "replayed.json"
        replayed: dict[str, float] = {}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and replayed != live:
            time.sleep(0.3)
            if _lines(traces) and _lines(logs):
                code = main(
                    ["replay", str(traces), str(logs), "--json", str(replayed_report), "--no-progress"]
                )
                assert code == 0
                turns = json.loads(replayed_report.read_text())["turns"]
                replayed = {turn["trace_id"]: turn["score"] for turn in turns}
    finally:
        collector.service.stop()
    assert replayed == live

    # Without the logs the legacy-mode chat spans carry no content: nothing to score.
    assert main(["replay", str(traces), "--json", str(replayed_report), "--no-progress"]) == 0
    alone = json.loads(replayed_report.read_text())["summary"]
    assert alone["turns"] == 0 and alone["skipped"].get("content_not_captured", 0) >= TURNS
