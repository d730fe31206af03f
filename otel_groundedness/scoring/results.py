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
# How an answer figure was computed from evidence figures (the engine's `derivations.rs`).
DerivedOperation: TypeAlias = Literal[
    "sum", "difference", "pct_change", "ratio", "average", "product", "pp_difference"
]
DERIVED_OPERATIONS: tuple[DerivedOperation, ...] = get_args(DerivedOperation)
# Why an atom got its verdict; see ``AtomVerdict``.
Reason: TypeAlias = Literal[
    "exact",
    "reformatted",
    "within_precision",
    "derived_sum",
    "derived_difference",
    "derived_pct_change",
    "derived_ratio",
    "derived_average",
    "derived_product",
    "derived_pp_difference",
    "digit_transposition",
    "digit_changed",
    "digit_dropped",
    "digit_added",
    "magnitude_mismatch",
    "sign_flip",
    "currency_mismatch",
    "value_changed",
    "date_component_changed",
    "identifier_edit",
    "time_mismatch",
    "timezone_mismatch",
    "not_found",
    "more_precise_than_evidence",
]
REASONS: tuple[Reason, ...] = get_args(Reason)
Label: TypeAlias = Literal[
    "grounded", "partially_grounded", "ungrounded", "no_factual_content", "no_evidence"
]
# A normalised atom value: a number, an ISO date (readings joined by "|"), an identifier string,
# a time of day ("14:05", "14:05:30 UTC").
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

    A derived figure's citation names its ``operation`` and cites every evidence figure it was
    computed from in ``operands`` (in the operation's order: minuend first, numerator first);
    its own item fields are those of the first operand, ``path``/``start``/``end`` are ``None``
    and ``text`` is the computation over the operands' texts (``1200.5 + 799.5``). Direct
    citations leave both out of ``to_dict``, so their JSON is what it always was.
    """

    evidence_index: int | None
    source_id: str | None
    source_kind: str
    name: str | None
    path: str | None
    start: int | None
    end: int | None
    text: str
    operation: DerivedOperation | None = None
    operands: tuple[Citation, ...] = ()
    cell: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "evidence_index": self.evidence_index,
            "source_id": self.source_id,
            "source_kind": self.source_kind,
            "name": self.name,
            "path": self.path,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }
        if self.operation is not None:
            data["operation"] = self.operation
            data["operands"] = [operand.to_dict() for operand in self.operands]
        if self.cell is not None:
            data["cell"] = self.cell
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Citation:
        fields = dict(data)
        operands = tuple(cls.from_dict(operand) for operand in fields.pop("operands", ()))
        return cls(**fields, operands=operands)

    def describe(self) -> str:
        """Short human form: ``#1 get_invoice $.invoice.total = 1243500``; for a derived figure
        ``#0 $.invoices[0].total + $.invoices[1].total = 1200.5 + 799.5``."""
        if self.operation is not None:
            return describe_derivation(self)
        return f"{_item(self)} {self.location()} = {self.text}"

    def location(self) -> str:
        """A table cell's row and columns, else the JSON path, else the character span:
        ``Operating income / 2024``, ``$.invoice.total``, ``[51:61]``."""
        if self.cell is not None:
            return self.cell
        return self.path if self.path is not None else f"[{self.start}:{self.end}]"


def derivation_formula(operation: DerivedOperation, terms: list[str]) -> str:
    """``a + b``, ``(a - b) / b``, ``average(a, b, c)``: the computation over ``terms``."""
    if operation == "sum":
        return " + ".join(terms) if len(terms) <= 3 else f"sum({_listed(terms)})"
    if operation == "average":
        return f"average({_listed(terms)})"
    first, second = terms[0], terms[-1]
    if operation in ("difference", "pp_difference"):
        return f"{first} - {second}"
    if operation == "pct_change":
        return f"({first} - {second}) / {second}"
    if operation == "ratio":
        return f"{first} / {second}"
    return f"{first} × {second}"


def _listed(terms: list[str]) -> str:
    """Up to three terms, else the first two, the count and the last: long columns stay one line."""
    if len(terms) <= 3:
        return ", ".join(terms)
    return f"{terms[0]}, {terms[1]}, … {len(terms) - 3} more …, {terms[-1]}"


def describe_derivation(citation: Citation) -> str:
    """Where each operand comes from, then the computation over their texts. The evidence item is
    named once when every operand comes from the same one."""
    items = {_item(operand) for operand in citation.operands}
    head = f"{items.pop()} " if len(items) == 1 else ""
    return f"{head}{derived_from(citation)} = {citation.text}"


def derived_from(citation: Citation) -> str:
    """The computation over where the operands are: ``$.invoices[0].total + $.invoices[1].total``;
    each location is prefixed by its item (``#1 $.revenue``) when the operands come from several."""
    assert citation.operation is not None
    several = len({_item(operand) for operand in citation.operands}) > 1
    # A cell's "row / column" is parenthesised where the formula divides: (a / 2024) / (b / 2024).
    divides = citation.operation in ("ratio", "pct_change")
    places = []
    for operand in citation.operands:
        place = operand.location()
        if divides and operand.cell is not None:
            place = f"({place})"
        places.append(f"{_item(operand)} {place}" if several else place)
    return derivation_formula(citation.operation, places)


def _item(citation: Citation) -> str:
    """``#0``, ``#1 get_invoice``, ``prompt``: the evidence item a citation points into."""
    origin = "prompt" if citation.evidence_index is None else f"#{citation.evidence_index}"
    label = citation.name or citation.source_id
    return f"{origin} {label}" if label else origin


@dataclass(frozen=True, slots=True)
class AtomVerdict:
    """One answer atom and what the evidence says about it.

    ``reason`` is machine-readable: ``exact``, ``reformatted``, ``within_precision``,
    ``derived_sum``, ``derived_difference``, ``derived_pct_change``, ``derived_ratio``,
    ``derived_average``, ``derived_product``, ``derived_pp_difference`` (supported);
    ``digit_transposition``, ``digit_changed``, ``digit_dropped``, ``digit_added``,
    ``magnitude_mismatch``, ``sign_flip``, ``currency_mismatch``, ``value_changed``,
    ``date_component_changed``, ``identifier_edit``, ``time_mismatch``, ``timezone_mismatch``
    (contradicted); ``not_found``,
    ``more_precise_than_evidence`` (unsupported). ``citation`` cites the supporting value (for a
    derived figure: the operation and every operand), or for a contradicted atom the evidence it
    contradicts (whose text is ``nearest_evidence``).
    """

    kind: str
    text: str
    value: NormalizedValue
    start: int
    end: int
    verdict: Verdict
    reason: Reason
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
