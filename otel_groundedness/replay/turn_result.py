"""A scored turn as the JSON report shows it (``turn_entry``), and what summaries, the baseline
comparison and the reports keep of it (``TurnResult``): figures, ids, digests, the verdict of each
atom and the entry's text, never the evidence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from otel_groundedness.core.trace_feed import ScoredTurn
from otel_groundedness.replay.json_layout import list_item
from otel_groundedness.replay.turn_digest import answer_digest, evidence_digest

# A turn entry's depth in the JSON report: an item of the top-level ``turns``.
TURNS_DEPTH = 1


def turn_entry(scored: ScoredTurn) -> dict[str, Any]:
    """One turn as a JSON-ready dict (the shape the HTML report renders). The digests let a later
    run match this turn without the evidence text (``replay.turn_digest``)."""
    context = scored.turn.context
    return {
        "trace_id": f"{scored.turn.trace_id:032x}",
        "span_id": f"{scored.turn.span_id:016x}",
        "span_name": scored.source.name,
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
    """A scored turn as summaries, the baseline comparison and the reports see it."""

    trace_id: int
    span_id: int
    figures: TurnFigures
    answer_digest: str
    evidence_digest: str
    atoms: tuple[AtomOutcome, ...]  # answer order
    entry: str | None  # the turn's JSON report entry, laid out at TURNS_DEPTH, if a report needs it

    @classmethod
    def of(cls, scored: ScoredTurn, *, with_entry: bool) -> TurnResult:
        entry = turn_entry(scored)
        return cls(
            scored.turn.trace_id,
            scored.turn.span_id,
            TurnFigures.of(scored),
            entry["answer_digest"],
            entry["evidence_digest"],
            atoms_of(entry["report"]),
            list_item(entry, TURNS_DEPTH) if with_entry else None,
        )
