"""``score()`` gives its recorded reports (``score_golden``: recorded from the native engine when
it and the deleted Python engine agreed on every case) and keeps the report's invariants on
generated pairs (``score_cases``; long runs: ``make fuzz``)."""

from __future__ import annotations

import dataclasses
import random

from otel_groundedness.scoring import score
from tests.native import score_cases, score_golden


def test_every_recorded_report_is_given_again() -> None:
    changed = list(score_golden.differences())
    assert not changed, (
        f"{len(changed)} report(s) changed; first: {changed[0][0]}\n"
        f"  recorded: {changed[0][1]!s:.2000}\n  now: {changed[0][2]!s:.2000}\n"
        "After an intended change: python -m tests.native.score_golden --update, and review the diff."
    )


def test_the_recording_covers_every_case_family() -> None:
    names = list(score_golden.recorded())
    for family in ("data/devset/", "scoring/devset/tables.jsonl", "bench_shapes", "cycles", "generated"):
        assert any(family in name for name in names), family
    assert sum(name.startswith("generated ") for name in names) == score_golden.GENERATED


def test_generated_pairs_keep_the_report_invariants() -> None:
    rng = random.Random(20261203)
    failures = [
        (case, found)
        for case in (score_cases.generate(rng) for _ in range(400))
        if (found := score_cases.difference(case))
    ]
    assert not failures, f"{len(failures)} of 400 fail; first: {failures[0][0]!r}\n{failures[0][1]}"


def test_a_broken_report_breaks_the_invariants() -> None:
    case = score_cases.Case("Revenue was $1,200 and $75 on 2024-01-02.", [{"revenue": 1200, "fee": 75}])
    report = score(case.answer, case.evidence)
    assert score_cases.problems(case, report) == []
    first = report.supported[0]
    moved = dataclasses.replace(first, start=first.start + 1)
    for broken in (
        dataclasses.replace(report, total_atoms=report.total_atoms + 1),
        dataclasses.replace(report, supported=(moved, *report.supported[1:])),
        dataclasses.replace(
            report, supported=(dataclasses.replace(first, citation=None), *report.supported[1:])
        ),
        dataclasses.replace(report, unsupported=report.supported),
        dataclasses.replace(report, score=None),
        dataclasses.replace(report, no_factual_content=True),
    ):
        assert score_cases.problems(case, broken), broken
