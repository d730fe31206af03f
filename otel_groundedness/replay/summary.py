"""Summaries of scored turns: totals, and rows by model and agent.

``Summary`` is built as traces stream by and keeps a few numbers per turn, never the turn itself.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from otel_groundedness.replay.rendering import StepResult
from otel_groundedness.replay.turn_result import TurnFigures

LABELS = ("grounded", "partially_grounded", "ungrounded", "no_evidence", "no_factual_content")
# The layout of the replay JSON report; a baseline report must have the same (``replay.baseline``).
REPORT_VERSION = 2


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

    def add(self, step: StepResult) -> None:
        self.values_cut += step.values_cut
        for trace in step.traces:
            self.spans += trace.spans
            self.traces += trace.paired
            self.skipped.update(trace.skipped)
            for turn in trace.turns:
                figures = turn.figures
                self.overall.add(figures)
                self.groups.setdefault((figures.model, figures.agent), Totals()).add(figures)

    def by_model_and_agent(self) -> list[tuple[str, str, Totals]]:
        """Totals per (model, agent), sorted by model then agent; missing names shown as ``-``."""
        return [(model, agent, group) for (model, agent), group in sorted(self.groups.items())]
