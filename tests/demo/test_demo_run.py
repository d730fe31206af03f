"""The demo end to end: real openai client and instrumentation, fake model, processor, Prometheus.

Every planned fault kind is injected once; "flagged" is read from the spans the processor
exported, so these assertions hold the scorer to the demo's promises.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from rich.console import Console

from otel_groundedness.cli.main import main
from otel_groundedness.demo import DemoOptions, DemoSummary, run_demo
from otel_groundedness.demo.faults import FAULT_KINDS, HARMFUL_FAULTS, LEGIT_VARIANTS
from otel_groundedness.telemetry.names import METRIC_ATOMS, METRIC_DURATION, METRIC_SCORE, METRIC_TURNS
from otel_groundedness.telemetry.prometheus_names import PROMETHEUS_METRICS
from tests.free_ports import free_port

TURNS = 14  # with fault rate 0.5: each of the 7 fault kinds once, and 7 clean turns
EXPECTED_FAMILIES = [
    PROMETHEUS_METRICS[spec.name].series[0]
    for spec in (METRIC_SCORE, METRIC_TURNS, METRIC_ATOMS, METRIC_DURATION)
]


def _scrape_until(url: str, names: list[str], done: threading.Event, timeout_s: float = 60) -> str:
    deadline = time.monotonic() + timeout_s
    text = ""
    while time.monotonic() < deadline and not done.is_set():
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                text = response.read().decode()
        except OSError:
            text = ""
        if all(f"\n{name}" in text for name in names):
            return text
        time.sleep(0.1)
    return text


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[DemoSummary, str, Path]:
    out = tmp_path_factory.mktemp("demo")
    port = free_port()
    options = DemoOptions(
        turns=TURNS,
        fault_rate=0.5,
        seed=11,
        stream_share=0.5,
        prometheus_port=port,
        linger_s=3.0,
        live=False,
        html=out / "report.html",
        json=out / "report.json",
        otlp_file=out / "recording.jsonl",
    )
    result: list[DemoSummary] = []
    done = threading.Event()

    def play() -> None:
        try:
            result.append(run_demo(options, console=Console(file=io.StringIO(), width=120)))
        finally:
            done.set()

    thread = threading.Thread(target=play)
    thread.start()
    scrape = _scrape_until(f"http://127.0.0.1:{port}/metrics", EXPECTED_FAMILIES, done)
    thread.join(timeout=120)
    assert result, "run_demo did not finish"
    return result[0], scrape, out


def test_every_turn_is_scored(demo_run: tuple[DemoSummary, str, Path]) -> None:
    summary, _, _ = demo_run
    assert summary.turns_failed == 0
    assert summary.turns_scored == TURNS
    assert sum(summary.histogram) == len(summary.scores) == TURNS


def test_each_fault_kind_was_injected(demo_run: tuple[DemoSummary, str, Path]) -> None:
    summary, _, _ = demo_run
    injected = {row.fault: row.injected for row in summary.detection}
    assert injected == {**dict.fromkeys(FAULT_KINDS, 1), "none": TURNS - len(FAULT_KINDS)}


def test_harmful_faults_are_flagged(demo_run: tuple[DemoSummary, str, Path]) -> None:
    summary, _, _ = demo_run
    for outcome in summary.outcomes:
        if outcome.planned.fault in HARMFUL_FAULTS:
            assert outcome.scored is not None and outcome.scored.flagged, (
                outcome.planned.answer,
                outcome.scored,
            )
            assert outcome.scored.label != "grounded"


def test_legit_rewrites_and_clean_answers_stay_supported(demo_run: tuple[DemoSummary, str, Path]) -> None:
    summary, _, _ = demo_run
    for outcome in summary.outcomes:
        if outcome.planned.fault is None or outcome.planned.fault in LEGIT_VARIANTS:
            assert outcome.scored is not None
            assert not outcome.scored.flagged, (outcome.planned.answer, outcome.scored)
            assert outcome.scored.label == "grounded" and outcome.scored.score == 1.0


def test_prometheus_endpoint_serves_our_metrics(demo_run: tuple[DemoSummary, str, Path]) -> None:
    _, scrape, _ = demo_run
    for name in EXPECTED_FAMILIES:
        assert f"\n{name}" in scrape, name
    # Low-cardinality labels only: the agent names are there, trace ids are not.
    assert 'gen_ai_agent_name="billing-agent"' in scrape
    assert "trace_id" not in scrape


def test_reports_agree_with_the_processor(demo_run: tuple[DemoSummary, str, Path]) -> None:
    summary, _, out = demo_run
    document = json.loads((out / "report.json").read_text())
    assert document["summary"]["turns_scored"] == TURNS
    by_trace = {f"{o.trace_id:032x}": o for o in summary.outcomes if o.trace_id is not None}
    assert len(document["turns"]) == TURNS
    for entry in document["turns"]:
        outcome = by_trace[entry["trace_id"]]
        assert outcome.scored is not None and entry["score"] == outcome.scored.score
        assert entry["fault"] == outcome.fault_name
    html = (out / "report.html").read_text()
    assert "Detection: injected vs flagged" in html and "<svg" in html


def test_the_recording_replays_to_the_same_scores(demo_run: tuple[DemoSummary, str, Path]) -> None:
    summary, _, out = demo_run
    report = out / "replayed.json"
    assert main(["replay", str(out / "recording.jsonl"), "--json", str(report), "--no-progress"]) == 0
    replayed = {turn["trace_id"]: turn["score"] for turn in json.loads(report.read_text())["turns"]}
    live = {f"{o.trace_id:032x}": o.scored.score for o in summary.outcomes if o.scored is not None}
    assert replayed == live


def test_legacy_event_mode_in_a_fresh_process(tmp_path: Path) -> None:
    # The instrumentation fixes its semconv mode once per process, hence the subprocess.
    report = tmp_path / "legacy.json"
    completed = subprocess.run(
        [sys.executable, "-m", "otel_groundedness", "demo", "--semconv", "legacy", "--turns", "7",
         "--fault-rate", "1.0", "--seed", "3", "--no-live", "--prometheus-port", "0",
         "--html", str(tmp_path / "legacy.html"), "--json", str(report)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    summary = json.loads(report.read_text())["summary"]
    assert summary["semconv"] == "legacy" and summary["turns_scored"] == 7
    for row in summary["detection"]:
        assert row["flagged"] == (row["scored"] if row["should_flag"] else 0), row
