"""The release gate: the hand-labelled dev set under tests/data/devset.

No atom labelled contradicted or unsupported may come out supported (a false "supported" hides a
corrupted fact), and agreement with the labels must stay above the measured floor. Run with
``-s`` to see the confusion matrix and per-kind precision/recall of the flags.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from otel_groundedness.scoring import GroundednessPolicy, score

DEVSET = Path(__file__).parent.parent / "data" / "devset"
AGREEMENT_FLOOR = 0.95
VERDICTS = ("supported", "contradicted", "unsupported", "missing")


@dataclass
class Outcome:
    """One labelled atom: what the label says and what the scorer said (``missing``: not extracted)."""

    case: str
    text: str
    expected: str
    got: str
    kind: str
    reason: str


@dataclass
class Run:
    outcomes: list[Outcome] = field(default_factory=list)
    unwanted_atoms: list[tuple[str, str]] = field(default_factory=list)
    over_budget: list[str] = field(default_factory=list)
    cases: int = 0


def load_cases() -> list[dict[str, Any]]:
    cases = []
    for path in sorted(DEVSET.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                cases.append(json.loads(line))
    return cases


@pytest.fixture(scope="module")
def run() -> Run:
    result = Run()
    for case in load_cases():
        result.cases += 1
        policy = GroundednessPolicy.from_dict(case.get("policy", {}))
        report = score(case["answer"], case["evidence"], user_prompt=case.get("user_prompt"), policy=policy)
        if report.budget_exceeded:
            result.over_budget.append(case["id"])
        by_text: dict[str, list[Any]] = {}
        for verdict in report.verdicts:
            by_text.setdefault(verdict.text, []).append(verdict)
        for text, expected in case["expected"].items():
            found = by_text.get(text, [])
            if not found:
                result.outcomes.append(Outcome(case["id"], text, expected, "missing", "missing", ""))
            for verdict in found:
                result.outcomes.append(
                    Outcome(case["id"], text, expected, verdict.verdict, verdict.kind, verdict.reason)
                )
        for text in case.get("not_atoms", []):
            if text in by_text:
                result.unwanted_atoms.append((case["id"], text))
    print_summary(result)
    return result


def print_summary(result: Run) -> None:
    matrix = Counter((o.expected, o.got) for o in result.outcomes)
    agreement = sum(1 for o in result.outcomes if o.expected == o.got) / len(result.outcomes)
    print(
        f"\ndev set: {result.cases} cases, {len(result.outcomes)} labelled atoms, agreement {agreement:.1%}"
    )
    print("expected \\ got".ljust(16) + "".join(v.rjust(14) for v in VERDICTS))
    for expected in VERDICTS[:3]:
        print(expected.ljust(16) + "".join(str(matrix[(expected, got)]).rjust(14) for got in VERDICTS))
    print("flags (contradicted or unsupported) by kind: precision / recall")
    for kind in sorted({o.kind for o in result.outcomes}):
        rows = [o for o in result.outcomes if o.kind == kind]
        flagged = [o for o in rows if o.got != "supported"]
        should = [o for o in rows if o.expected != "supported"]
        hits = [o for o in flagged if o.expected != "supported"]
        precision = len(hits) / len(flagged) if flagged else 1.0
        recall = len(hits) / len(should) if should else 1.0
        print(f"  {kind:<11} {precision:6.1%} / {recall:6.1%}   ({len(rows)} atoms)")
    for o in result.outcomes:
        if o.expected != o.got:
            print(f"  disagreement {o.case}: {o.text!r} expected {o.expected}, got {o.got} ({o.reason})")


def test_devset_is_big_enough_and_well_formed() -> None:
    cases = load_cases()
    assert len(cases) >= 120
    assert len({case["id"] for case in cases}) == len(cases)
    for case in cases:
        for text, verdict in case["expected"].items():
            assert text in case["answer"], case["id"]
            assert verdict in VERDICTS[:3], case["id"]


def test_every_labelled_atom_is_extracted(run: Run) -> None:
    # A kind the scorer does not read (times, codes: times.jsonl, codes.jsonl) goes missing here.
    missing = [(o.case, o.text) for o in run.outcomes if o.got == "missing"]
    assert not missing


def test_no_false_supported(run: Run) -> None:
    false_supported = [o for o in run.outcomes if o.got == "supported" and o.expected != "supported"]
    assert not false_supported


def test_agreement_stays_above_the_floor(run: Run) -> None:
    agreeing = sum(1 for o in run.outcomes if o.expected == o.got)
    assert agreeing / len(run.outcomes) >= AGREEMENT_FLOOR


def test_names_and_codes_that_are_not_identifiers_are_not_atoms(run: Run) -> None:
    assert not run.unwanted_atoms


def test_the_default_work_budget_never_cuts_a_case(run: Run) -> None:
    assert not run.over_budget
