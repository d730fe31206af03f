"""The scoring result types: ``GroundednessReport``, ``AtomVerdict`` and ``Citation``.

``score`` is ``None`` (JSON ``null``) when the label is ``no_evidence`` or ``no_factual_content``:
such turns had nothing to check, so they must not be averaged into dashboards as a perfect 1.0.
``to_dict``/``to_json`` and ``from_dict`` round-trip exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

Verdict: TypeAlias = Literal["supported", "contradicted", "unsupported"]
Label: TypeAlias = Literal[
    "grounded", "partially_grounded", "ungrounded", "no_factual_content", "no_evidence"
]
# A normalised atom value: a number, an ISO date (readings joined by "|"), an identifier string.
NormalizedValue: TypeAlias = float | str | None
# Why evidence was read incompletely, or as flat text instead of JSON. The scorer reports all but
# ``content_truncated``: the turn's own flag (content cut before it reached the scorer), added by
# the telemetry layer.
TruncationReason: TypeAlias = Literal[
    "max_evidence_bytes", "max_depth", "unparseable_json", "json_too_deep", "content_truncated"
]
TRUNCATION_REASONS: tuple[TruncationReason, ...] = get_args(TruncationReason)


def ordered_reasons(reasons: Iterable[TruncationReason]) -> tuple[TruncationReason, ...]:
    """Each reason once, in vocabulary order (a stable attribute value)."""
    present = set(reasons)
    return tuple(reason for reason in TRUNCATION_REASONS if reason in present)


@dataclass(frozen=True, slots=True)
class Citation:
    """Where in the evidence a value was found.

    ``evidence_index`` is the item's position in the evidence passed to ``score`` (``None`` for the
    user prompt); ``path`` is the JSON path of the value (``$.invoice.total``; ``None`` for plain
    text); ``start``/``end`` are character offsets of ``text`` inside the string at ``path`` (or the
    text item), ``None`` for a raw JSON number.
    """

    evidence_index: int | None
    source_id: str | None
    source_kind: str
    name: str | None
    path: str | None
    start: int | None
    end: int | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "evidence_index": self.evidence_index,
            "source_id": self.source_id,
            "source_kind": self.source_kind,
            "name": self.name,
            "path": self.path,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Citation:
        return cls(**dict(data))

    def describe(self) -> str:
        """Short human form: ``#1 get_invoice $.invoice.total = 1243500``."""
        origin = "prompt" if self.evidence_index is None else f"#{self.evidence_index}"
        label = self.name or self.source_id
        where = self.path if self.path is not None else f"[{self.start}:{self.end}]"
        parts = [origin] + ([label] if label else []) + [where]
        return f"{' '.join(parts)} = {self.text}"


@dataclass(frozen=True, slots=True)
class AtomVerdict:
    """One answer atom and what the evidence says about it.

    ``reason`` is machine-readable: ``exact``, ``reformatted``, ``within_precision`` (supported);
    ``digit_transposition``, ``digit_changed``, ``digit_dropped``, ``digit_added``,
    ``magnitude_mismatch``, ``sign_flip``, ``currency_mismatch``, ``value_changed``,
    ``date_component_changed``, ``identifier_edit`` (contradicted); ``not_found``,
    ``more_precise_than_evidence`` (unsupported). ``citation`` cites the supporting value, or for a
    contradicted atom the evidence it contradicts (whose text is ``nearest_evidence``).
    """

    kind: str
    text: str
    value: NormalizedValue
    start: int
    end: int
    verdict: Verdict
    reason: str
    citation: Citation | None = None
    nearest_evidence: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "value": self.value,
            "start": self.start,
            "end": self.end,
            "verdict": self.verdict,
            "reason": self.reason,
            "citation": None if self.citation is None else self.citation.to_dict(),
            "nearest_evidence": self.nearest_evidence,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AtomVerdict:
        fields = dict(data)
        citation = fields.pop("citation", None)
        return cls(**fields, citation=None if citation is None else Citation.from_dict(citation))


@dataclass(frozen=True, slots=True)
class GroundednessReport:
    """The verdicts for one answer and the rules computed over them, side by side.

    ``score`` is the atom ratio (supported / total), ``None`` for ``no_evidence`` and
    ``no_factual_content``. ``strict_pass`` is True only when every atom is supported.
    ``sentence_score`` is the share of sentences (with atoms) whose atoms are all supported.
    ``rule`` names the rule that produced ``label``. ``answer_truncated`` says the answer was longer
    than ``policy.max_answer_chars`` and atoms past that point were not checked.
    ``evidence_truncation_reasons`` says why evidence was cut or read as flat text
    (``evidence_truncated`` is true exactly when it is non-empty). ``budget_exceeded`` says the
    per-call work budget ran out: the last ``atoms_unchecked`` atoms got no verdict and are not
    counted in ``total_atoms`` nor in any rule.
    """

    score: float | None
    total_atoms: int
    supported: tuple[AtomVerdict, ...]
    contradicted: tuple[AtomVerdict, ...]
    unsupported: tuple[AtomVerdict, ...]
    no_factual_content: bool
    no_evidence: bool
    evidence_truncated: bool
    label: Label
    strict_pass: bool | None
    sentence_score: float | None
    rule: str
    answer_truncated: bool = False
    evidence_truncation_reasons: tuple[TruncationReason, ...] = ()
    budget_exceeded: bool = False
    atoms_unchecked: int = 0

    @property
    def verdicts(self) -> list[AtomVerdict]:
        """All verdicts in answer order."""
        return sorted((*self.supported, *self.contradicted, *self.unsupported), key=lambda v: v.start)

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "total_atoms": self.total_atoms,
            "supported": [verdict.to_dict() for verdict in self.supported],
            "contradicted": [verdict.to_dict() for verdict in self.contradicted],
            "unsupported": [verdict.to_dict() for verdict in self.unsupported],
            "no_factual_content": self.no_factual_content,
            "no_evidence": self.no_evidence,
            "evidence_truncated": self.evidence_truncated,
            "label": self.label,
            "strict_pass": self.strict_pass,
            "sentence_score": self.sentence_score,
            "rule": self.rule,
            "answer_truncated": self.answer_truncated,
            "evidence_truncation_reasons": list(self.evidence_truncation_reasons),
            "budget_exceeded": self.budget_exceeded,
            "atoms_unchecked": self.atoms_unchecked,
        }

    def to_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GroundednessReport:
        fields = dict(data)
        for name in ("supported", "contradicted", "unsupported"):
            fields[name] = tuple(AtomVerdict.from_dict(item) for item in fields[name])
        fields["evidence_truncation_reasons"] = tuple(fields.get("evidence_truncation_reasons", ()))
        return cls(**fields)
