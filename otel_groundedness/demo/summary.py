"""The demo's outcome: per-turn results read back from the processor, and the detection table.

"Flagged" means the processor's own telemetry on the scored span reported at least one
contradicted or unsupported atom; the fault plan only says what was injected.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from otel_groundedness.demo.faults import FAULT_KINDS, HARMFUL_FAULTS
from otel_groundedness.demo.scenarios import PlannedTurn
from otel_groundedness.demo.telemetry import ScoredSpan
from otel_groundedness.report.histogram_svg import BINS, bin_counts

CLEAN = "none"


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """One planned turn and what the processor made of it (``scored`` is None if nothing was scored)."""

    planned: PlannedTurn
    trace_id: int | None
    error: str | None
    scored: ScoredSpan | None

    @property
    def fault_name(self) -> str:
        return self.planned.fault or CLEAN


@dataclass(frozen=True, slots=True)
class DetectionRow:
    """Injected vs flagged for one fault kind; ``should_flag`` is False for legit rewrites and clean turns."""

    fault: str
    should_flag: bool
    injected: int
    scored: int
    flagged: int

    @property
    def rate(self) -> float | None:
        """Flagged share of the scored turns of this kind."""
        return self.flagged / self.scored if self.scored else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "fault": self.fault,
            "should_flag": self.should_flag,
            "injected": self.injected,
            "scored": self.scored,
            "flagged": self.flagged,
            "rate": self.rate,
        }


@dataclass
class DemoSummary:
    """What a demo run produced (returned by ``run_demo``)."""

    semconv: str
    outcomes: list[TurnOutcome]
    wall_time_s: float
    html_path: Path | None = None
    json_path: Path | None = None
    otlp_file: Path | None = None
    metrics_url: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def turns_run(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.error is None)

    @property
    def turns_failed(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.error is not None)

    @property
    def turns_scored(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.scored is not None)

    @property
    def labels(self) -> Counter[str]:
        return Counter(outcome.scored.label for outcome in self.outcomes if outcome.scored is not None)

    @property
    def scores(self) -> list[float]:
        return [o.scored.score for o in self.outcomes if o.scored is not None and o.scored.score is not None]

    @property
    def histogram(self) -> list[int]:
        """Turn counts in ``BINS`` equal score bins over [0, 1]."""
        return bin_counts(self.scores, BINS)

    @property
    def detection(self) -> list[DetectionRow]:
        return detection_table(self.outcomes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "semconv": self.semconv,
            "turns": len(self.outcomes),
            "turns_run": self.turns_run,
            "turns_failed": self.turns_failed,
            "turns_scored": self.turns_scored,
            "labels": dict(sorted(self.labels.items())),
            "histogram": {"bins": BINS, "counts": self.histogram},
            "detection": [row.to_dict() for row in self.detection],
            "wall_time_s": round(self.wall_time_s, 3),
            "html": None if self.html_path is None else str(self.html_path),
            "otlp_file": None if self.otlp_file is None else str(self.otlp_file),
            "metrics_url": self.metrics_url,
            **self.extras,
        }


def outcomes_for(
    planned: Sequence[PlannedTurn],
    results: Sequence[tuple[int | None, str | None]],
    scores: Mapping[int, ScoredSpan],
) -> list[TurnOutcome]:
    """Join each planned turn with its (trace id, error) and the score found on its trace."""
    return [
        TurnOutcome(turn, trace_id, error, scores.get(trace_id) if trace_id is not None else None)
        for turn, (trace_id, error) in zip(planned, results, strict=True)
    ]


def detection_table(outcomes: Sequence[TurnOutcome]) -> list[DetectionRow]:
    """One row per fault kind (injected at least once) plus clean turns, in a fixed order."""
    rows: list[DetectionRow] = []
    for fault in (*FAULT_KINDS, CLEAN):
        mine = [outcome for outcome in outcomes if outcome.fault_name == fault]
        if not mine:
            continue
        scored = [outcome.scored for outcome in mine if outcome.scored is not None]
        rows.append(
            DetectionRow(
                fault=fault,
                should_flag=fault in HARMFUL_FAULTS,
                injected=len(mine),
                scored=len(scored),
                flagged=sum(1 for score in scored if score.flagged),
            )
        )
    return rows
