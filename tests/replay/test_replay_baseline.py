"""``replay --baseline``: turns matched to a previous report, per-turn changes, and the baseline gates.

The recordings differ from the committed demo recording in exactly known ways (``recording_variants``):
one answer changed (a figure transposed), one turn removed, the same traffic with new ids, and the
same recording scored under another policy.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from statistics import fmean
from typing import Any

import pytest

from otel_groundedness.cli.main import main

from .recording_variants import FRESH_IDS, write_variant

RECORDING = Path(__file__).resolve().parents[1] / "data" / "otlp" / "demo-latest.jsonl"
EDITED = "51f5eff4"  # "The order total was $4,914.89." (grounded, 1.0)
REMOVED = "3279cb6e"  # a grounded contract turn
OLD, NEW = "$4,914.89", "$4,941.89"

Replay = Callable[..., tuple[int, dict[str, Any]]]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("baseline")


@pytest.fixture(scope="module")
def replay(work: Path) -> Replay:
    counter = iter(range(1000))

    def run(*args: str) -> tuple[int, dict[str, Any]]:
        report = work / f"report-{next(counter)}.json"
        code = main(["replay", *args, "--json", str(report), "--no-progress"])
        return code, json.loads(report.read_text()) if report.exists() else {}

    return run


@pytest.fixture(scope="module")
def baseline(work: Path, replay: Replay) -> tuple[Path, dict[str, Any]]:
    code, report = replay(str(RECORDING))
    assert code == 0
    path = work / "baseline.json"
    path.write_text(json.dumps(report, indent=2))
    return path, report


def _trace(report: dict[str, Any], prefix: str) -> str:
    return next(turn["trace_id"] for turn in report["turns"] if turn["trace_id"].startswith(prefix))


@pytest.fixture(scope="module")
def edited(work: Path, baseline: tuple[Path, dict[str, Any]]) -> Path:
    """The recording with one answer changed and one turn removed."""
    _, report = baseline
    path = work / "edited.jsonl"
    write_variant(
        RECORDING,
        path,
        drop_trace=int(_trace(report, REMOVED), 16),
        edit=(int(_trace(report, EDITED), 16), OLD, NEW),
    )
    return path


def _by_trace(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {turn["trace_id"]: turn for turn in report["turns"]}


def test_turns_carry_the_digests_a_baseline_is_matched_by(baseline: tuple[Path, dict[str, Any]]) -> None:
    _, report = baseline
    assert report["report_version"] == 2
    for turn in report["turns"]:
        assert len(turn["answer_digest"]) == len(turn["evidence_digest"]) == 32
    assert len({turn["answer_digest"] for turn in report["turns"]}) == len(report["turns"])


def test_the_same_recording_against_itself_changes_nothing(
    baseline: tuple[Path, dict[str, Any]], replay: Replay
) -> None:
    path, report = baseline
    code, current = replay(str(RECORDING), "--baseline", str(path), "--max-regressed", "0",
                           "--max-score-drop", "0", "--max-new-contradicted", "0")  # fmt: skip
    assert code == 0
    diff = current["diff"]
    assert diff["baseline"] == {"path": str(path), "evaluator": report["evaluator"], "turns": 10}
    assert diff["scorer_changed"] is False
    assert (diff["matched_by_id"], diff["matched_by_content"], diff["new_turns"], diff["removed_turns"]) == (
        10, 0, 0, 0,
    )  # fmt: skip
    assert (diff["regressed"], diff["improved"], diff["new_contradicted_atoms"]) == (0, 0, 0)
    assert diff["mean_score_drop"] == 0.0
    assert diff["turns"] == diff["removed"] == []
    assert current["gates"]["checks"] == [
        "PASS regressed turns 0 (allowed <= 0)",
        "PASS mean score drop 0.000 over 10 turns scored in both runs (allowed <= 0.000)",
        "PASS new contradicted atoms 0 (allowed <= 0)",
    ]


def test_a_changed_answer_and_a_removed_turn(
    baseline: tuple[Path, dict[str, Any]], edited: Path, replay: Replay
) -> None:
    path, before = baseline
    code, after = replay(str(edited), "--baseline", str(path))
    assert code == 0
    diff = after["diff"]
    assert (diff["matched_by_id"], diff["new_turns"], diff["removed_turns"]) == (9, 0, 1)
    [removed] = diff["removed"]
    removed_turn = _by_trace(before)[_trace(before, REMOVED)]
    assert removed == {
        key: removed_turn[key]
        for key in ("trace_id", "span_id", "span_name", "agent", "model", "label", "score")
    }
    [change] = diff["turns"]
    edited_id = _trace(before, EDITED)
    old_turn, new_turn = _by_trace(before)[edited_id], _by_trace(after)[edited_id]
    assert new_turn["score"] < old_turn["score"] == 1.0
    [old_atom] = [atom for atom in old_turn["report"]["supported"] if atom["text"] == OLD]
    [new_atom] = [atom for atom in new_turn["report"]["contradicted"] if atom["text"] == NEW]
    assert change == {
        "trace_id": edited_id,
        "span_id": old_turn["span_id"],
        "match": "id",
        "baseline_trace_id": edited_id,
        "baseline_span_id": old_turn["span_id"],
        "agent": old_turn["agent"],
        "model": old_turn["model"],
        "score_before": 1.0,
        "score_after": new_turn["score"],
        "label_before": "grounded",
        "label_after": new_turn["label"],
        "answer_changed": True,
        "evidence_changed": False,
        "scorer_changed": False,
        "new_contradicted_atoms": 1,
        "atoms": [
            {
                "kind": "money",
                "before": {"text": OLD, "verdict": "supported", "reason": old_atom["reason"]},
                "after": {"text": NEW, "verdict": "contradicted", "reason": new_atom["reason"]},
            }
        ],
    }
    assert (diff["regressed"], diff["improved"], diff["new_contradicted_atoms"]) == (1, 0, 1)
    assert diff["mean_score_drop"] == pytest.approx((1.0 - new_turn["score"]) / 9)
    assert (diff["answer_changed"], diff["evidence_changed"]) == (1, 0)


@pytest.mark.parametrize(
    ("gate", "code", "line"),
    [
        (["--max-regressed", "0"], 1, "FAIL regressed turns 1 (allowed <= 0)"),
        (["--max-regressed", "1"], 0, "PASS regressed turns 1 (allowed <= 1)"),
        (["--max-score-drop", "0.02"], 1, "FAIL mean score drop 0.028 over 9 turns scored in both runs"),
        (["--max-score-drop", "0.03"], 0, "PASS mean score drop 0.028 over 9 turns scored in both runs"),
        (["--max-new-contradicted", "0"], 1, "FAIL new contradicted atoms 1 (allowed <= 0)"),
        (["--max-new-contradicted", "1"], 0, "PASS new contradicted atoms 1 (allowed <= 1)"),
    ],
)
def test_baseline_gates(
    baseline: tuple[Path, dict[str, Any]], edited: Path, replay: Replay, gate: list[str], code: int, line: str
) -> None:
    path, _ = baseline
    exit_code, report = replay(str(edited), "--baseline", str(path), *gate)
    assert exit_code == code
    [check] = report["gates"]["checks"]
    assert check.startswith(line)
    assert report["gates"]["passed"] is (code == 0)


def test_a_turn_missing_from_the_baseline_is_new_and_its_contradictions_are_new(
    work: Path, edited: Path, replay: Replay
) -> None:
    _, report = replay(str(edited))
    path = work / "edited-baseline.json"
    path.write_text(json.dumps(report, indent=2))
    code, current = replay(str(RECORDING), "--baseline", str(path), "--max-new-contradicted", "0")
    assert code == 0  # the new turn is grounded, and going back fixes the edited one
    diff = current["diff"]
    assert (diff["matched_by_id"], diff["new_turns"], diff["removed_turns"]) == (9, 1, 0)
    new = next(change for change in diff["turns"] if change["match"] == "new")
    assert new["trace_id"].startswith(REMOVED) and new["score_before"] is None
    assert new["answer_changed"] is new["evidence_changed"] is new["scorer_changed"] is None
    assert diff["improved"] == 1 and diff["new_contradicted_atoms"] == 0


def test_a_new_policy_is_a_scorer_change_on_every_turn(
    work: Path, baseline: tuple[Path, dict[str, Any]], replay: Replay
) -> None:
    path, before = baseline
    policy = work / "no-identifiers.json"
    policy.write_text(json.dumps({"enabled_kinds": ["money", "percent", "number", "date"]}))
    code, after = replay(str(RECORDING), "--baseline", str(path), "--policy", str(policy))
    assert code == 0
    diff = after["diff"]
    assert diff["scorer_changed"] is True
    assert after["evaluator"]["policy_fingerprint"] != before["evaluator"]["policy_fingerprint"]
    old, new = _by_trace(before), _by_trace(after)
    # Expected independently of the diff: every turn whose score or atoms differ, identifiers gone.
    changed = {
        trace
        for trace in old
        if old[trace]["score"] != new[trace]["score"]
        or any(atom["kind"] == "identifier" for verdict in ("supported", "contradicted", "unsupported")
               for atom in old[trace]["report"][verdict])
    }  # fmt: skip
    assert {change["trace_id"] for change in diff["turns"]} == changed
    for change in diff["turns"]:
        assert (change["answer_changed"], change["evidence_changed"], change["scorer_changed"]) == (
            False, False, True,
        )  # fmt: skip
        assert change["atoms"] and all(
            atom["kind"] == "identifier" and atom["after"] is None for atom in change["atoms"]
        )
    drops = [old[trace]["score"] - new[trace]["score"] for trace in old]
    assert diff["regressed"] == sum(drop > 0 for drop in drops) > 0
    assert diff["improved"] == sum(drop < 0 for drop in drops) > 0
    assert diff["mean_score_drop"] == pytest.approx(fmean(drops))
    assert diff["new_contradicted_atoms"] == 0


def test_regenerated_traffic_is_matched_by_answer_and_evidence(
    work: Path, baseline: tuple[Path, dict[str, Any]], replay: Replay
) -> None:
    path, before = baseline
    fresh, fresh_edited = work / "fresh.jsonl", work / "fresh-edited.jsonl"
    write_variant(RECORDING, fresh, fresh_ids=True)
    write_variant(RECORDING, fresh_edited, fresh_ids=True, edit=(int(_trace(before, EDITED), 16), OLD, NEW))
    _, same = replay(str(fresh), "--baseline", str(path))
    assert (same["diff"]["matched_by_id"], same["diff"]["matched_by_content"]) == (0, 10)
    assert same["diff"]["turns"] == []
    _, changed = replay(str(fresh_edited), "--baseline", str(path))
    diff = changed["diff"]
    assert (diff["matched_by_content"], diff["new_turns"], diff["removed_turns"]) == (9, 1, 1)
    assert diff["removed"][0]["trace_id"] == _trace(before, EDITED)
    new = next(change for change in diff["turns"] if change["match"] == "new")
    assert int(new["trace_id"], 16) == int(_trace(before, EDITED), 16) ^ FRESH_IDS


def test_the_report_with_a_diff_is_laid_out_as_json_dumps_lays_it_out(
    work: Path, baseline: tuple[Path, dict[str, Any]], edited: Path
) -> None:
    path, _ = baseline
    report = work / "laid-out.json"
    assert main(["replay", str(edited), "--baseline", str(path), "--json", str(report), "--no-progress"]) == 0
    text = report.read_text()
    document = json.loads(text)
    assert text == json.dumps(document, indent=2)
    assert list(document) == ["report_version", "evaluator", "summary", "groups", "gates", "diff", "turns"]


def test_html_report_shows_what_changed_since_the_baseline(
    work: Path, baseline: tuple[Path, dict[str, Any]], edited: Path
) -> None:
    path, _ = baseline
    html = work / "changed.html"
    assert main(["replay", str(edited), "--baseline", str(path), "--html", str(html), "--no-progress"]) == 0
    page = html.read_text(encoding="utf-8")
    section = page[page.index("<h2>Changed since baseline</h2>") : page.index("<h2>Score distribution</h2>")]
    assert str(path) in section
    assert OLD in section and NEW in section and "supported → contradicted" in section
    assert "1.00 → 0.75" in section
    assert "removed turns</dt><dd>1</dd>" in section


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("{oops", "not a replay JSON report"),
        ("[]", "not a replay JSON report"),
        ('{"summary": {}, "turns": []}', "not a replay JSON report (no report_version"),
        ('{"report_version": 1, "turns": []}', "report version 1"),
        ('{"report_version": 3, "turns": []}', "report version 3"),
        ('{"report_version": 2, "evaluator": {"id": "x"}, "turns": []}', "evaluator"),
        ("recording", "not a replay JSON report"),
        ("no digests", "turn 0"),
    ],
)
def test_a_baseline_that_is_not_a_current_replay_report_exits_2(
    work: Path,
    baseline: tuple[Path, dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    content: str | None,
    message: str,
) -> None:
    path = work / "bad-baseline.json"
    path.unlink(missing_ok=True)
    if content == "recording":
        path.write_bytes(RECORDING.read_bytes())
    elif content == "no digests":
        report = json.loads(baseline[0].read_text())
        del report["turns"][0]["evidence_digest"]
        path.write_text(json.dumps(report))
    elif content is not None:
        path.write_text(content)
    assert main(["replay", str(RECORDING), "--baseline", str(path), "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("otel-groundedness replay: error: ") and error.count("\n") == 1
    assert str(path) in error and message in error


def test_baseline_gates_need_a_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDING), "--max-regressed", "0", "--no-progress"]) == 2
    assert "--max-regressed needs --baseline" in capsys.readouterr().err


def test_the_baseline_may_be_the_report_this_run_replaces(
    work: Path, baseline: tuple[Path, dict[str, Any]], edited: Path
) -> None:
    report = work / "rolling.json"
    report.write_bytes(baseline[0].read_bytes())
    args = [str(edited), "--baseline", str(report), "--json", str(report), "--no-progress"]
    assert main(["replay", *args]) == 0
    replaced = json.loads(report.read_text())
    assert replaced["summary"]["turns"] == 9 and replaced["diff"]["removed_turns"] == 1
