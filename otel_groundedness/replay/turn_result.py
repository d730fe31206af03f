"""What summaries and the baseline comparison keep of a scored turn: figures, ids, digests and the
verdict of each atom, never the evidence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from otel_groundedness.core.trace_feed import ScoredTurn


@dataclass(frozen=True, slots=True)
class TurnFigures:
    """What the summaries keep of one turn."""

    model: str
    agent: str
    label: str
    score: float | None
    contradicted: int
    unsupported: int

    @classmethod
    def of(cls, scored: ScoredTurn) -> TurnFigures:
        context, report = scored.turn.context, scored.report
        return cls(
            context.response_model or context.request_model or "-",
            context.agent_name or "-",
            report.label,
            report.score,
            len(report.contradicted),
            len(report.unsupported),
        )


@dataclass(frozen=True, slots=True)
class AtomOutcome:
    """One atom of an answer and its verdict."""

    kind: str
    text: str
    verdict: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "verdict": self.verdict, "reason": self.reason}


def atoms_of(report: Mapping[str, Any]) -> tuple[AtomOutcome, ...]:
    """The atoms of a ``GroundednessReport.to_dict()``, in answer order."""
    verdicts = [atom for key in ("supported", "contradicted", "unsupported") for atom in report[key]]
    return tuple(
        AtomOutcome(atom["kind"], atom["text"], atom["verdict"], atom["reason"])
        for atom in sorted(verdicts, key=lambda atom: atom["start"])
    )


@dataclass(frozen=True, slots=True)
class TurnResult:
    """A scored turn as the baseline comparison sees it."""

    trace_id: int
    span_id: int
    figures: TurnFigures
    answer_digest: str
    evidence_digest: str
    atoms: tuple[AtomOutcome, ...]  # answer order

    @classmethod
    def of(cls, scored: ScoredTurn, entry: Mapping[str, Any]) -> TurnResult:
        """From the turn and its JSON entry (``summary.turn_entry``), which holds the digests."""
        return cls(
            scored.turn.trace_id,
            scored.turn.span_id,
            TurnFigures.of(scored),
            entry["answer_digest"],
            entry["evidence_digest"],
            atoms_of(entry["report"]),
        )
