"""Score every case of ``tables.jsonl`` and read the verdicts of its two figures.

A figure's verdict is that of the answer atom whose text is the figure, else of the atom over its
number (the scorer may read "13.13" of "13.13 points"); ``missing`` when the scorer extracted no
such atom (a figure it cannot see is neither supported nor flagged),
``unchecked`` when the work budget ran out before it, ``error`` when ``score`` raised.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from otel_groundedness.scoring import score
from tests.scoring.devset.corruption import NUMBER

DEVSET = Path(__file__).parent / "tables.jsonl"
FLAGS = ("contradicted", "unsupported")


@dataclass(frozen=True)
class Outcome:
    case: dict[str, Any]
    correct: str  # verdict of the correct figure
    correct_reason: str
    corrupted: str  # verdict of the corrupted figure
    corrupted_reason: str

    @property
    def supported(self) -> bool:
        return self.correct == "supported"

    @property
    def flagged(self) -> bool:
        return self.corrupted in FLAGS


def load_cases(path: Path = DEVSET) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def verdict(answer: str, figure: str, case: dict[str, Any]) -> tuple[str, str]:
    try:
        report = score(answer, case["evidence"], user_prompt=case["user_prompt"])
    except Exception as error:  # score() must never raise: a case that makes it raise fails, visibly
        return "error", f"{type(error).__name__}: {error}"
    start = answer.index(figure)
    for atom in report.verdicts:
        if atom.text == figure and atom.start == start:
            return atom.verdict, atom.reason
    # The scorer may read a shorter or longer span ("13.13" of "13.13 points"): the atom over the
    # figure's number is its verdict.
    number = NUMBER.search(figure)
    assert number is not None, figure
    low, high = start + number.start(), start + number.end()
    for atom in report.verdicts:
        if atom.start < high and atom.end > low:
            return atom.verdict, f"{atom.reason}, read as {atom.text!r}"
    if report.budget_exceeded:
        return "unchecked", f"work budget: {report.atoms_unchecked} atoms unchecked"
    return "missing", ", ".join(f"{atom.text!r} {atom.verdict}" for atom in report.verdicts)


def measure(cases: Iterable[dict[str, Any]]) -> list[Outcome]:
    outcomes = []
    for case in cases:
        correct = verdict(case["answer"], case["figure"], case)
        corrupted = verdict(case["corrupted_answer"], case["corrupted_figure"], case)
        outcomes.append(Outcome(case, *correct, *corrupted))
    return outcomes


@dataclass(frozen=True)
class Rates:
    cases: int
    supported: float
    contradicted: float  # of correct figures: the rate that must be 0
    flagged: float

    @classmethod
    def of(cls, outcomes: list[Outcome]) -> Rates:
        n = len(outcomes) or 1
        return cls(
            len(outcomes),
            sum(o.supported for o in outcomes) / n,
            sum(o.correct == "contradicted" for o in outcomes) / n,
            sum(o.flagged for o in outcomes) / n,
        )

    def line(self, name: str) -> str:
        return (
            f"{name:<24} {self.cases:>4}  supported {self.supported:6.1%}  "
            f"contradicted {self.contradicted:6.1%}  corruptions flagged {self.flagged:6.1%}"
        )


def breakdown(outcomes: list[Outcome], key: Callable[[dict[str, Any]], Iterable[str]]) -> dict[str, Rates]:
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        for name in key(outcome.case):
            groups.setdefault(name, []).append(outcome)
    return {name: Rates.of(group) for name, group in sorted(groups.items())}


def report(outcomes: list[Outcome]) -> str:
    lines = [Rates.of(outcomes).line("all")]
    for title, key in (
        ("by form", lambda c: [c["form"]]),
        ("by operation", lambda c: [c["operation"]]),
        ("by phrasing", lambda c: [c["phrasing"]]),
        ("by feature", lambda c: c["features"]),
    ):
        lines.append(title)
        lines += ["  " + rates.line(name) for name, rates in breakdown(outcomes, key).items()]
    return "\n".join(lines)


def failures(outcomes: list[Outcome]) -> str:
    """Every case that misses a target, with the verdicts and reasons the implementer works from."""
    lines = []
    for o in outcomes:
        if not o.supported or not o.flagged:
            lines.append(
                f"  {o.case['id']} {o.case['form']}/{o.case['operation']}: "
                f"{o.case['figure']!r} {o.correct} ({o.correct_reason}); "
                f"{o.case['corrupted_figure']!r} {o.corrupted} ({o.corrupted_reason})"
            )
    return "\n".join(lines)
