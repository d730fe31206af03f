"""Summaries of scored turns: per-turn entries for JSON/HTML, totals, and rows by model and agent.

``Summary`` is built as traces stream by and keeps a few numbers per turn, never the turn itself.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from otel_groundedness.core.trace_feed import ScoredTurn
from otel_groundedness.replay.stream import Step
from otel_groundedness.replay.turn_digest import answer_digest, evidence_digest
from otel_groundedness.replay.turn_result import TurnFigures

LABELS = ("grounded", "partially_grounded", "ungrounded", "no_evidence", "no_factual_content")
# The layout of the replay JSON report; a baseline report must have the same (``replay.baseline``).
REPORT_VERSION = 2


def turn_entry(scored: ScoredTurn) -> dict[str, Any]:
    """One turn as a JSON-ready dict (the shape the HTML report renders). The digests let a later
    run match this turn without the evidence text (``replay.turn_digest``)."""
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
        "answer_digest": answer_digest(scored.turn),
        "evidence_digest": evidence_digest(scored.turn),
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

    def add(self, figures: TurnFigures) -> None:
        self.turns += 1
        if figures.score is not None:
            self.scores.append(figures.score)
        self.labels[figures.label] += 1
        self.contradicted += figures.contradicted
        self.unsupported += figures.unsupported

    def to_dict(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "scored_turns": len(self.scores),
            "mean_score": self.mean_score,
            "labels": {label: self.labels[label] for label in LABELS},
            "contradicted_atoms": self.contradicted,
            "unsupported_atoms": self.unsupported,
        }


@dataclass
class Summary:
    """Totals over every turn and per (model, agent), with span, trace and skip counts."""

    overall: Totals = field(default_factory=Totals)
    groups: dict[tuple[str, str], Totals] = field(default_factory=dict)
    spans: int = 0
    traces: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    values_cut: int = 0

    def add(self, step: Step) -> None:
        self.values_cut += step.values_cut
        for trace in step.traces:
            self.spans += len(trace.spans)
            self.traces += trace.paired
            self.skipped.update(trace.skipped)
            for scored in trace.scored:
                figures = TurnFigures.of(scored)
                self.overall.add(figures)
                self.groups.setdefault((figures.model, figures.agent), Totals()).add(figures)

    def by_model_and_agent(self) -> list[tuple[str, str, Totals]]:
        """Totals per (model, agent), sorted by model then agent; missing names shown as ``-``."""
        return [(model, agent, group) for (model, agent), group in sorted(self.groups.items())]
