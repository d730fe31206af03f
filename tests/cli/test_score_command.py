"""``otel-groundedness score``: table and JSON output, exit codes for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from otel_groundedness.cli.main import main
from otel_groundedness.scoring import GroundednessReport

ANSWER = "Invoice INV-2210 totals $1,234,500 and is due March 3, 2025."


@pytest.fixture
def invoice(tmp_path: Path) -> Path:
    path = tmp_path / "get_invoice.json"
    path.write_text(json.dumps({"invoice": {"id": "INV-2210", "total": 1243500, "due": "2025-03-03"}}))
    return path


def test_table_lists_each_atom_with_verdict_reason_and_citation(
    invoice: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "--answer", ANSWER, "--evidence", str(invoice)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["atom", "kind", "verdict", "reason", "citation"]
    rows = {line.split("  ")[0]: line for line in lines[1:4]}
    assert "contradicted" in rows["$1,234,500"] and "digit_transposition" in rows["$1,234,500"]
    assert "$.invoice.total = 1243500" in rows["$1,234,500"]
    assert "supported" in rows["INV-2210"] and "get_invoice.json $.invoice.id" in rows["INV-2210"]
    assert lines[-1].startswith("score 0.67  label ungrounded (rule atom_ratio)")


def test_json_output_is_the_report(invoice: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer_file = tmp_path / "answer.txt"
    answer_file.write_text(ANSWER)
    policy_file = tmp_path / "policy.json"
    policy_file.write_text(json.dumps({"label_rule": "strict"}))
    code = main(
        [
            "score",
            "--answer",
            f"@{answer_file}",
            "--evidence",
            str(invoice),
            "--policy",
            str(policy_file),
            "--json",
        ]
    )
    assert code == 0
    report = GroundednessReport.from_dict(json.loads(capsys.readouterr().out))
    assert (report.total_atoms, len(report.contradicted), report.rule, report.label) == (
        3,
        1,
        "strict",
        "ungrounded",
    )


def test_text_evidence_and_the_prompt_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    note = tmp_path / "note.txt"
    note.write_text("Shipped on 2025-03-01 from Dallas.")
    code = main(
        [
            "score",
            "--answer",
            "It shipped on March 1, 2025 for $310.00.",
            "--evidence",
            str(note),
            "--prompt",
            "Did my $310.00 order ship?",
            "--json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["label"] == "grounded"
    assert report["supported"][1]["citation"]["source_kind"] == "user_prompt"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--answer", "@/no/such/answer.txt"], "cannot read answer file"),
        (["--answer", "x", "--evidence", "/no/such/tool.json"], "cannot read evidence file"),
        (["--answer", "x", "--policy", "BAD_JSON"], "not valid JSON"),
        (["--answer", "x", "--policy", "BAD_VALUE"], "contradicted_band must be a number from 0 to 1"),
        (["--answer", "x", "--policy", "UNKNOWN_KEY"], "unknown policy field"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    policies = {
        "BAD_JSON": "{not json",
        "BAD_VALUE": '{"contradicted_band": 3}',
        "UNKNOWN_KEY": '{"band": 0.1}',
    }
    for name, text in policies.items():
        (tmp_path / name).write_text(text)
    resolved = [str(tmp_path / a) if a in policies else a for a in arguments]
    assert main(["score", *resolved]) == 2
    assert message in capsys.readouterr().err


def test_installed_console_script(invoice: Path) -> None:
    script = Path(sys.executable).parent / "otel-groundedness"
    completed = subprocess.run(
        [str(script), "score", "--answer", ANSWER, "--evidence", str(invoice), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["contradicted"][0]["reason"] == "digit_transposition"


def test_the_table_says_why_evidence_was_cut_and_what_was_left_unchecked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "1" + "]" * 5000)  # past the walker's depth cap, read as flat text
    long_answer = "Total $1,243,500. " + "x" * 40
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"max_answer_chars": 20}))
    assert main(["score", "--answer", long_answer, "--evidence", str(deep), "--policy", str(policy)]) == 0
    out = capsys.readouterr().out
    assert "max_evidence_bytes" not in out  # the cap was not what cut this evidence
    assert "evidence cut or read as text (json_too_deep)" in out
    assert "answer cut at max_answer_chars (20): atoms past it were not checked" in out


def test_the_table_says_when_the_work_budget_ran_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evidence = tmp_path / "figures.json"
    evidence.write_text(json.dumps({"values": [1000 + 7 * index for index in range(3000)]}))
    answer = " ".join(f"Item {index} cost ${5000 + 13 * index:,}." for index in range(200))
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"work_budget": 50}))
    assert main(["score", "--answer", answer, "--evidence", str(evidence), "--policy", str(policy)]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("work budget (50) ran out: ") and line.endswith(" atoms got no verdict")
