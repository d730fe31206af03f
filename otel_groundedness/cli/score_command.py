"""``otel-groundedness score``: score one answer against evidence files and print the verdicts."""

from __future__ import annotations

import argparse
from pathlib import Path

from otel_groundedness.cli.errors import CliError
from otel_groundedness.scoring import Evidence, GroundednessPolicy, GroundednessReport, score

HELP = "score an answer against evidence files (tool outputs) and print each atom's verdict"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--answer", required=True, help="the answer text, or @FILE to read it from a file")
    parser.add_argument(
        "--evidence",
        action="append",
        default=[],
        metavar="FILE",
        help="a tool output (JSON is parsed, anything else is text); repeat for several",
    )
    parser.add_argument("--prompt", help="the user's prompt (counts as evidence unless the policy says not)")
    parser.add_argument(
        "--policy", type=Path, metavar="FILE", help="a JSON object of GroundednessPolicy fields"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    answer = _answer(args.answer)
    evidence = [_evidence(Path(name)) for name in args.evidence]
    policy = GroundednessPolicy.from_file(args.policy) if args.policy else GroundednessPolicy()
    report = score(answer, evidence, user_prompt=args.prompt, policy=policy)
    print(report.to_json(indent=2) if args.json else render(report, policy))
    return 0


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read {what} {str(path)!r}: {error}") from None


def _answer(value: str) -> str:
    return _read(Path(value[1:]), "answer file") if value.startswith("@") else value


def _evidence(path: Path) -> Evidence:
    # Passed as text: the scorer parses JSON documents itself and scans anything else as text.
    return Evidence(_read(path, "evidence file"), source_id=str(path), name=path.name)


def render(report: GroundednessReport, policy: GroundednessPolicy) -> str:
    """A plain-text table: one row per atom, then the rules side by side and what went unchecked."""
    header = ("atom", "kind", "verdict", "reason", "citation")
    rows = [header]
    for verdict in report.verdicts:
        citation = "" if verdict.citation is None else verdict.citation.describe()
        rows.append((verdict.text, verdict.kind, verdict.verdict, verdict.reason, citation))
    widths = [max(len(row[column]) for row in rows) for column in range(len(header) - 1)]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)) + "  " + row[-1]
        for row in rows
    ]
    lines[0] = lines[0].rstrip()
    if len(rows) == 1:
        lines.append("(no hard-data atoms in the answer)")
    score_text = "n/a" if report.score is None else f"{report.score:.2f}"
    sentence_text = "n/a" if report.sentence_score is None else f"{report.sentence_score:.2f}"
    strict_text = "n/a" if report.strict_pass is None else ("pass" if report.strict_pass else "fail")
    lines.append("")
    lines.append(
        f"score {score_text}  label {report.label} (rule {report.rule})  strict {strict_text}  "
        f"sentences {sentence_text}  atoms {report.total_atoms}: {len(report.supported)} supported, "
        f"{len(report.contradicted)} contradicted, {len(report.unsupported)} unsupported"
    )
    lines.extend(_caveats(report, policy))
    return "\n".join(line.rstrip() for line in lines)


def _caveats(report: GroundednessReport, policy: GroundednessPolicy) -> list[str]:
    """One line per bound that left part of the turn unchecked, naming the bound."""
    caveats = []
    if report.evidence_truncated:
        reasons = ", ".join(report.evidence_truncation_reasons) or "unknown"
        caveats.append(
            f"evidence cut or read as text ({reasons}): some atoms may be unsupported only for that"
        )
    if report.answer_truncated:
        caveats.append(
            f"answer cut at max_answer_chars ({policy.max_answer_chars}): atoms past it were not checked"
        )
    if report.budget_exceeded:
        caveats.append(
            f"work budget ({policy.work_budget}) ran out: {report.atoms_unchecked} atoms got no verdict"
        )
    return caveats
