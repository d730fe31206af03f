"""Summaries of scored turns: per-turn entries for JSON/HTML, totals, and rows by model and agent."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from otel_groundedness.replay.engine import ScoredTurn

LABELS = ("grounded", "partially_grounded", "ungrounded", "no_evidence", "no_factual_content")


def turn_entry(scored: ScoredTurn) -> dict[str, Any]:
    """One turn as a JSON-ready dict (the shape the HTML report renders)."""
    context = scored.turn.context
    return {
        "trace_id": f"{scored.turn.trace_id:032x}",
        "span_id": f"{scored.turn.span_id:016x}",
        "span_name": scored.span.name,
        "agent": context.agent_name,
        "model": context.response_model or context.request_model,
        "provider": context.provider,
        "label": scored.report.label,
        "score": scored.report.score,
        "answer": scored.turn.answer,
        "report": scored.report.to_dict(),
    }


@dataclass
class Totals:
    """Counts over a set of turns."""

    turns: int = 0
    scores: list[float] = field(default_factory=list)
    labels: Counter[str] = field(default_factory=Counter)
    contradicted: int = 0
    unsupported: int = 0

    @property
    def mean_score(self) -> float | None:
        """Mean over turns with a score (``no_evidence``/``no_factual_content`` have none)."""
        return fmean(self.scores) if self.scores else None

    def add(self, scored: ScoredTurn) -> None:
        report = scored.report
        self.turns += 1
        if report.score is not None:
            self.scores.append(report.score)
        self.labels[report.label] += 1
        self.contradicted += len(report.contradicted)
        self.unsupported += len(report.unsupported)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "scored_turns": len(self.scores),
            "mean_score": self.mean_score,
            "labels": {label: self.labels[label] for label in LABELS},
            "contradicted_atoms": self.contradicted,
            "unsupported_atoms": self.unsupported,
        }


def totals(turns: Iterable[ScoredTurn]) -> Totals:
    """Totals over ``turns``."""
    result = Totals()
    for scored in turns:
        result.add(scored)
    return result


def by_model_and_agent(turns: Sequence[ScoredTurn]) -> list[tuple[str, str, Totals]]:
    """Totals per (model, agent), sorted by model then agent; missing names shown as ``-``."""
    groups: dict[tuple[str, str], Totals] = {}
    for scored in turns:
        context = scored.turn.context
        key = (context.response_model or context.request_model or "-", context.agent_name or "-")
        groups.setdefault(key, Totals()).add(scored)
    return [(model, agent, group) for (model, agent), group in sorted(groups.items())]
