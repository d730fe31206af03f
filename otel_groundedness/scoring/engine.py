"""``score()`` on the native engine (``otel_groundedness._native``, Rust): its plain result turned
into the report types of ``scoring.results``."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, cast

from otel_groundedness import _native
from otel_groundedness.scoring.evidence import Evidence
from otel_groundedness.scoring.policy import GroundednessPolicy
from otel_groundedness.scoring.results import (
    AtomVerdict,
    Citation,
    DerivedOperation,
    GroundednessReport,
    Label,
    TruncationReason,
    derivation_formula,
)

DEFAULT_POLICY = GroundednessPolicy()
_SURROGATE = re.compile("[\ud800-\udfff]")
_REPORT_TYPES = (AtomVerdict, Citation)

# (evidence_index, source_id, source_kind, name, path, start, end, text, cell)
_Cited = tuple[Any, ...]


def score(
    answer: str,
    evidence: Iterable[Any] | Evidence | Mapping[str, Any] | str | None,
    *,
    user_prompt: str | None = None,
    policy: GroundednessPolicy | None = None,
) -> GroundednessReport:
    """``scoring.score`` computed by the native engine."""
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a str, got {type(answer).__name__}")
    policy = policy or DEFAULT_POLICY
    answer = readable(answer)
    found = _native.score(answer, items(evidence), user_prompt, policy, _REPORT_TYPES)
    groups, no_evidence, reasons, answer_truncated, unchecked, figures, label = found
    # The engine makes each verdict an `AtomVerdict`, but for a derived figure (its citation's
    # text is `derivation_formula`'s), listed by (group, position).
    supported, contradicted, unsupported, derived = groups
    judged = (supported, contradicted, unsupported)
    for group, at in derived:
        judged[group][at] = _verdict(answer, judged[group][at])
    total = len(supported) + len(contradicted) + len(unsupported)
    ratio, sentences, strict = figures if figures is not None else (None, None, None)
    return GroundednessReport(
        score=ratio,
        total_atoms=total,
        supported=tuple(supported),
        contradicted=tuple(contradicted),
        unsupported=tuple(unsupported),
        no_factual_content=not total,
        no_evidence=no_evidence,
        evidence_truncated=bool(reasons),
        label=cast(Label, label),
        strict_pass=strict,
        sentence_score=sentences,
        rule=policy.label_rule,
        answer_truncated=answer_truncated,
        evidence_truncation_reasons=cast(tuple[TruncationReason, ...], tuple(reasons)),
        budget_exceeded=unchecked > 0,
        atoms_unchecked=unchecked,
    )


def readable(text: str) -> str:
    """``text`` with each lone surrogate as U+FFFD (same length): no UTF-8 export (OTLP, JSON) can
    carry one, so the answer is read and quoted with the replacement character."""
    if text.isascii():  # O(1) for a str: no surrogate, no copy made
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def items(evidence: Iterable[Any] | Evidence | Mapping[str, Any] | str | None) -> Iterable[Any]:
    """The evidence as items: a single str, bytes, mapping, ``Evidence`` or other non-iterable
    value is one item, ``None`` none."""
    if evidence is None:
        return ()
    if isinstance(evidence, str | bytes | Mapping | Evidence) or not isinstance(evidence, Iterable):
        return (evidence,)
    return evidence


def _citation(cited: _Cited) -> Citation:
    evidence_index, source_id, source_kind, name, path, start, end, text, cell = cited
    return Citation(evidence_index, source_id, source_kind, name, path, start, end, text, cell=cell)


def _derived(operation: DerivedOperation, operands: list[_Cited]) -> Citation:
    """Every operand's citation under one naming the operation; its item fields are the first
    operand's and its text the computation over the operands' texts."""
    cited = tuple(_citation(operand) for operand in operands)
    first = cited[0]
    return Citation(
        evidence_index=first.evidence_index,
        source_id=first.source_id,
        source_kind=first.source_kind,
        name=first.name,
        path=None,
        start=None,
        end=None,
        text=derivation_formula(operation, [operand.text for operand in cited]),
        operation=operation,
        operands=cited,
    )


def _verdict(answer: str, found: tuple[Any, ...]) -> AtomVerdict:
    """A derived figure's verdict: its citation names the operation over its operands' citations.
    A derived figure is always supported: no nearest evidence."""
    kind, start, end, value, verdict, reason, _, operation, operands = found
    return AtomVerdict(
        kind=kind,
        text=answer[start:end],
        value=value,
        start=start,
        end=end,
        verdict=verdict,
        reason=reason,
        citation=_derived(cast(DerivedOperation, operation), operands),
        nearest_evidence=None,
    )
