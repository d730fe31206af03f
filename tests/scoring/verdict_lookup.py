"""Reading one answer's verdicts in tests: every (text, verdict, reason), or the one for a figure."""

from __future__ import annotations

from typing import Any

from otel_groundedness.scoring import score


def verdicts_of(answer: str, evidence: list[Any]) -> list[tuple[str, str, str]]:
    return [(v.text, v.verdict, v.reason) for v in score(answer, evidence).verdicts]


def verdict_of(answer: str, evidence: list[Any], text: str) -> tuple[str, str]:
    """The (verdict, reason) of the one atom written ``text``; fails when there is not exactly one."""
    found = [
        (verdict, reason) for written, verdict, reason in verdicts_of(answer, evidence) if written == text
    ]
    assert len(found) == 1, verdicts_of(answer, evidence)
    return found[0]
