"""This run's turns compared with a baseline report's: per turn what changed, over all how much.

A turn matched to a baseline turn is listed when its score, label or any atom's verdict moved, or its
answer or evidence differ; a turn the baseline does not have is listed as new. Atoms are paired by
kind and text first, then what is left of a kind in answer order, so a figure the answer now states
differently reads as one atom that changed (``$4,914.89`` supported → ``$4,941.89`` contradicted).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from otel_groundedness.evaluator import Evaluator
from otel_groundedness.replay.baseline import EVALUATOR_KEYS, Baseline, BaselineTurn, content_key
from otel_groundedness.replay.turn_result import AtomOutcome, TurnResult

CONTRADICTED = "contradicted"


@dataclass(frozen=True, slots=True)
class AtomChange:
    """An atom whose verdict or text differs between the runs; ``None`` where a run does not have it."""

    kind: str
    before: AtomOutcome | None
    after: AtomOutcome | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "before": None if self.before is None else self.before.to_dict(),
            "after": None if self.after is None else self.after.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class TurnChange:
    """One listed turn. ``match`` is ``id``, ``content`` or ``new``; a new turn has no ``baseline``."""

    turn: TurnResult
    match: Literal["id", "content", "new"]
    baseline: BaselineTurn | None
    scorer_changed: bool
    new_contradicted: int
    atoms: tuple[AtomChange, ...]

    def to_dict(self) -> dict[str, Any]:
        turn, before = self.turn, self.baseline
        return {
            "trace_id": f"{turn.trace_id:032x}",
            "span_id": f"{turn.span_id:016x}",
            "match": self.match,
            "baseline_trace_id": None if before is None else before.trace_id,
            "baseline_span_id": None if before is None else before.span_id,
            "agent": turn.figures.agent,
            "model": turn.figures.model,
            "score_before": None if before is None else before.score,
            "score_after": turn.figures.score,
            "label_before": None if before is None else before.label,
            "label_after": turn.figures.label,
            "answer_changed": None if before is None else before.answer_digest != turn.answer_digest,
            "evidence_changed": None if before is None else before.evidence_digest != turn.evidence_digest,
            "scorer_changed": None if before is None else self.scorer_changed,
            "new_contradicted_atoms": self.new_contradicted,
            "atoms": [atom.to_dict() for atom in self.atoms],
        }


@dataclass
class DiffTotals:
    """Counts over the comparison; ``score_drops`` sums baseline score − score over turns scored twice."""

    matched_by_id: int = 0
    matched_by_content: int = 0
    new_turns: int = 0
    removed_turns: int = 0
    scored_in_both: int = 0
    score_drops: float = 0.0
    regressed: int = 0
    improved: int = 0
    new_contradicted: int = 0
    answer_changed: int = 0
    evidence_changed: int = 0

    @property
    def mean_score_drop(self) -> float | None:
        """Mean of (baseline score − score) over turns scored in both runs; positive is worse."""
        return self.score_drops / self.scored_in_both if self.scored_in_both else None


class BaselineDiff:
    """Feeds this run's turns, in report order, against a ``Baseline``; each baseline turn matches once."""

    def __init__(self, baseline: Baseline, evaluator: Evaluator) -> None:
        self.baseline = baseline
        before = baseline.evaluator
        self.scorer_changed = (before["version"], before["policy_fingerprint"]) != (
            evaluator.version,
            evaluator.policy_fingerprint,
        )
        self.totals = DiffTotals()

    def add(self, turn: TurnResult) -> TurnChange | None:
        """The turn's change, or ``None`` when it matched a baseline turn and nothing moved."""
        totals, figures = self.totals, turn.figures
        found = self.baseline.match(
            turn.trace_id, turn.span_id, content_key(turn.answer_digest, turn.evidence_digest)
        )
        if found is None:
            totals.new_turns += 1
            totals.new_contradicted += figures.contradicted
            atoms = tuple(AtomChange(atom.kind, None, atom) for atom in turn.atoms)
            return TurnChange(turn, "new", None, self.scorer_changed, figures.contradicted, atoms)
        number, how = found
        before = self.baseline.turn(number)
        if how == "id":
            totals.matched_by_id += 1
        else:
            totals.matched_by_content += 1
        atoms = atom_changes(before.atoms, turn.atoms)
        new_contradicted = sum(
            change.after is not None
            and change.after.verdict == CONTRADICTED
            and (change.before is None or change.before.verdict != CONTRADICTED)
            for change in atoms
        )
        totals.new_contradicted += new_contradicted
        answer_changed = before.answer_digest != turn.answer_digest
        evidence_changed = before.evidence_digest != turn.evidence_digest
        totals.answer_changed += answer_changed
        totals.evidence_changed += evidence_changed
        if before.score is not None and figures.score is not None:
            totals.scored_in_both += 1
            totals.score_drops += before.score - figures.score
            totals.regressed += figures.score < before.score
            totals.improved += figures.score > before.score
        moved = before.score != figures.score or before.label != figures.label
        if not (moved or atoms or answer_changed or evidence_changed):
            return None
        return TurnChange(turn, how, before, self.scorer_changed, new_contradicted, atoms)

    def removed(self) -> Iterator[BaselineTurn]:
        """The baseline turns no turn matched (counted as they come); after the last ``add``."""
        for turn in self.baseline.unmatched():
            self.totals.removed_turns += 1
            yield turn

    def head(self) -> dict[str, Any]:
        """The JSON report's ``diff`` block but its lists (``turns``, ``removed``); after ``removed``."""
        totals, baseline = self.totals, self.baseline
        return {
            "baseline": {
                "path": str(baseline.path),
                "evaluator": {key: baseline.evaluator[key] for key in EVALUATOR_KEYS},
                "turns": baseline.turns,
            },
            "scorer_changed": self.scorer_changed,
            "matched_by_id": totals.matched_by_id,
            "matched_by_content": totals.matched_by_content,
            "new_turns": totals.new_turns,
            "removed_turns": totals.removed_turns,
            "scored_in_both": totals.scored_in_both,
            "regressed": totals.regressed,
            "improved": totals.improved,
            "mean_score_drop": totals.mean_score_drop,
            "new_contradicted_atoms": totals.new_contradicted,
            "answer_changed": totals.answer_changed,
            "evidence_changed": totals.evidence_changed,
        }


def atom_changes(before: tuple[AtomOutcome, ...], after: tuple[AtomOutcome, ...]) -> tuple[AtomChange, ...]:
    """Atoms whose verdict or text differ, or that one run does not have.

    Pairs of the same kind and text first, in this run's order; then, kind by kind, what is left of
    each run in answer order.
    """
    same_text: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, atom in enumerate(before):
        same_text[atom.kind, atom.text].append(index)
    changes: list[AtomChange] = []
    paired: set[int] = set()
    left_after: dict[str, list[AtomOutcome]] = defaultdict(list)
    for atom in after:
        twins = same_text[atom.kind, atom.text]
        if not twins:
            left_after[atom.kind].append(atom)
            continue
        index = twins.pop(0)
        paired.add(index)
        if before[index].verdict != atom.verdict:
            changes.append(AtomChange(atom.kind, before[index], atom))
    left_before: dict[str, list[AtomOutcome]] = defaultdict(list)
    for index, atom in enumerate(before):
        if index not in paired:
            left_before[atom.kind].append(atom)
    for kind in dict.fromkeys([*left_after, *left_before]):
        olds, news = left_before[kind], left_after[kind]
        for position in range(max(len(olds), len(news))):
            old = olds[position] if position < len(olds) else None
            new = news[position] if position < len(news) else None
            changes.append(AtomChange(kind, old, new))
    return tuple(changes)
