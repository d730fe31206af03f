"""Replay outputs say who scored them: the JSON report's ``evaluator`` block and the HTML report's line."""

from __future__ import annotations

import json
from pathlib import Path

from otel_groundedness.cli.main import main
from otel_groundedness.evaluator import EVALUATOR_ID, EVALUATOR_TYPE, evaluator_version, policy_fingerprint
from otel_groundedness.otlp.files import iter_otlp_file
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry import names

RECORDING = Path(__file__).resolve().parents[1] / "data" / "otlp" / "demo-latest.jsonl"


def _replay(tmp_path: Path, *extra: str) -> tuple[dict[str, object], str, Path]:
    report, html, out = tmp_path / "report.json", tmp_path / "report.html", tmp_path / "out.jsonl"
    args = [str(RECORDING), "--json", str(report), "--html", str(html), "--out", str(out), "--no-progress"]
    assert main(["replay", *args, *extra]) == 0
    return json.loads(report.read_text()), html.read_text(encoding="utf-8"), out


def test_json_report_names_the_evaluator_and_the_default_policy(tmp_path: Path) -> None:
    report, _, _ = _replay(tmp_path)
    assert report["evaluator"] == {
        "id": EVALUATOR_ID,
        "version": evaluator_version(),
        "type": EVALUATOR_TYPE,
        "policy_fingerprint": policy_fingerprint(GroundednessPolicy()),
    }
    assert list(report)[:2] == ["report_version", "evaluator"]  # who scored comes before what they found


def test_a_policy_file_moves_the_fingerprint_in_both_reports(tmp_path: Path) -> None:
    policy_file = tmp_path / "policy.json"
    policy_file.write_text('{"min_alert_score": 0.7}')
    report, page, _ = _replay(tmp_path, "--policy", str(policy_file))
    expected = policy_fingerprint(GroundednessPolicy(min_alert_score=0.7))
    assert expected != policy_fingerprint(GroundednessPolicy())
    assert report["evaluator"]["policy_fingerprint"] == expected  # type: ignore[index]
    assert expected in page


def test_report_provenance_is_what_the_enriched_spans_carry(tmp_path: Path) -> None:
    report, _, out = _replay(tmp_path)
    stamped = {
        (span.attributes[names.ATTR_EVALUATOR_VERSION], span.attributes[names.ATTR_POLICY_FINGERPRINT])
        for chunk in iter_otlp_file(out)
        for span in chunk.spans
        if names.ATTR_SCORE in span.attributes
    }
    evaluator = report["evaluator"]
    assert stamped == {(evaluator["version"], evaluator["policy_fingerprint"])}  # type: ignore[index]


def test_html_report_names_scorer_version_and_policy_fingerprint(tmp_path: Path) -> None:
    _, page, _ = _replay(tmp_path)
    line = next(line for line in page.splitlines() if 'class="sub provenance"' in line)
    assert f"{EVALUATOR_ID} {evaluator_version()}" in line
    assert EVALUATOR_TYPE in line
    assert policy_fingerprint(GroundednessPolicy()) in line
