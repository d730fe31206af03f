"""``otel-groundedness replay`` on recorded demo traffic: scores, reports, gates, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from otel_groundedness.cli.main import main
from otel_groundedness.otlp.files import iter_otlp_file
from otel_groundedness.telemetry import names

DATA = Path(__file__).resolve().parents[1] / "data" / "otlp"
LATEST_JSON = DATA / "demo-latest.jsonl"
LATEST_PROTO = DATA / "demo-latest.pb"
LEGACY_JSON = DATA / "demo-legacy.jsonl"


def _replay(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "report.json"
    code = main(["replay", *args, "--json", str(report), "--no-progress"])
    return code, json.loads(report.read_text()) if report.exists() else {}


def _recorded_scores(path: Path) -> dict[str, float]:
    """The scores the live processor wrote on the recorded spans, by trace id."""
    scores = {}
    for chunk in iter_otlp_file(path):
        for span in chunk.spans:
            value = span.attributes.get(names.ATTR_SCORE)
            if isinstance(value, float):
                scores[f"{span.trace_id:032x}"] = value
    return scores


@pytest.mark.parametrize("recording", [LATEST_JSON, LATEST_PROTO, LEGACY_JSON], ids=lambda p: p.name)
def test_replay_reproduces_the_live_scores(tmp_path: Path, recording: Path) -> None:
    code, report = _replay(tmp_path, str(recording))
    assert code == 0
    live = _recorded_scores(recording)
    assert live, "the recording carries the processor's scores"
    assert {turn["trace_id"]: turn["score"] for turn in report["turns"]} == live
    assert report["summary"]["turns"] == len(live) == report["summary"]["traces"]
    # Healthy demo turns: the tool-calling chat step of each is no skip.
    assert report["summary"]["skipped"] == {}


def test_summary_groups_by_model_and_agent(tmp_path: Path) -> None:
    _, report = _replay(tmp_path, str(LATEST_JSON))
    groups = {(group["model"], group["agent"]) for group in report["groups"]}
    assert ("gpt-4o-mini", "billing-agent") in groups and ("gpt-4.1-mini", "orders-agent") in groups
    assert sum(group["turns"] for group in report["groups"]) == report["summary"]["turns"]
    labels = report["summary"]["labels"]
    assert labels["grounded"] > 0 and labels["grounded"] < report["summary"]["turns"]


@pytest.mark.parametrize(
    ("gate", "expected"),
    [
        (["--fail-under", "0.0"], 0),
        (["--fail-under", "1.0"], 1),
        (["--max-contradicted", "0"], 1),
        (["--max-contradicted", "1000"], 0),
        (["--fail-under", "0.5", "--max-contradicted", "0"], 1),
    ],
)
def test_gates_set_the_exit_code(tmp_path: Path, gate: list[str], expected: int) -> None:
    code, report = _replay(tmp_path, str(LATEST_JSON), *gate)
    assert code == expected
    assert report["gates"]["passed"] is (expected == 0)


def test_enriched_output_and_html(tmp_path: Path) -> None:
    enriched, html = tmp_path / "enriched.jsonl", tmp_path / "report.html"
    code, report = _replay(tmp_path, str(LEGACY_JSON), "--out", str(enriched), "--html", str(html))
    assert code == 0
    spans = [span for chunk in iter_otlp_file(enriched) for span in chunk.spans]
    scored = [span for span in spans if names.ATTR_SCORE in span.attributes]
    assert len(scored) == report["summary"]["turns"]
    assert all(span.events[-1].name == names.EVENT_EVALUATION_RESULT for span in scored)
    page = html.read_text()
    assert "<svg" in page and "Worst turns" in page


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "no such file"),
        ("garbage", "not JSON"),
        ("metrics_only", "no spans found"),
        ("bad_policy", "invalid policy"),
    ],
)
def test_invalid_input_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: str, message: str
) -> None:
    args = [str(LATEST_JSON)]
    if setup == "missing":
        args = [str(tmp_path / "nope.jsonl")]
    elif setup == "garbage":
        (tmp_path / "g.jsonl").write_text("{oops\n")
        args = [str(tmp_path / "g.jsonl")]
    elif setup == "metrics_only":
        (tmp_path / "m.jsonl").write_text('{"resourceMetrics": []}\n')
        args = [str(tmp_path / "m.jsonl")]
    else:
        (tmp_path / "policy.json").write_text('{"no_such_knob": 1}')
        args += ["--policy", str(tmp_path / "policy.json")]
    assert main(["replay", *args, "--no-progress"]) == 2
    assert message in capsys.readouterr().err


def test_console_script_runs_replay(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("otel-groundedness")
    completed = subprocess.run(
        [str(script), "replay", str(LATEST_PROTO), "--max-contradicted", "0", "--no-progress"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 1, completed.stderr
    assert "FAIL contradicted atoms" in completed.stdout
    assert "Groundedness by model and agent" in completed.stdout
