"""A ``GroundednessReport`` rendered as telemetry: span attributes, the semconv
``gen_ai.evaluation.result`` attributes (span event and log record) and the explanation text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from otel_groundedness.evaluator import Evaluator
from otel_groundedness.records import TurnContext
from otel_groundedness.scoring import AtomVerdict, GroundednessReport
from otel_groundedness.scoring.results import TruncationReason, derived_from, ordered_reasons
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.instruments import capped

AttributeValue = str | bool | int | float | tuple[str, ...]
# Who produced a result, as far as scoring once is concerned: evaluator id, version, policy fingerprint.
ScorerKey: TypeAlias = tuple[str, str, str]

# The explanation is free text on a log record; keep it readable in one line of a log viewer.
_MAX_LISTED_ATOMS = 3
_MAX_EXPLANATION_CHARS = 300


def provenance_attributes(evaluator: Evaluator) -> dict[str, AttributeValue]:
    """Who scored: evaluator id, version, type and policy fingerprint."""
    return {
        names.ATTR_EVALUATOR_ID: evaluator.id,
        names.ATTR_EVALUATOR_VERSION: evaluator.version,
        names.ATTR_EVALUATOR_TYPE: evaluator.type,
        names.ATTR_POLICY_FINGERPRINT: evaluator.policy_fingerprint,
    }


def scorer_key(evaluator: Evaluator) -> ScorerKey:
    return (evaluator.id, evaluator.version, evaluator.policy_fingerprint)


def stamped_scorer(attributes: Mapping[str, Any]) -> ScorerKey | None:
    """The scorer whose result a span already carries (``span_attributes`` wrote it), or None."""
    evaluator_id = attributes.get(names.ATTR_EVALUATOR_ID)
    if evaluator_id is None:  # the usual span: one lookup
        return None
    return (
        str(evaluator_id),
        str(attributes.get(names.ATTR_EVALUATOR_VERSION, "")),
        str(attributes.get(names.ATTR_POLICY_FINGERPRINT, "")),
    )


def turn_attributes(context: TurnContext) -> dict[str, AttributeValue]:
    """The turn's agent name, for the scored span only where the span has no value of its own.

    The scored span is usually the ``chat`` span, while the agent name sits on its agent span (or
    under another convention's key): written here, a trace search on the scored span alone (Jaeger
    matches all tags on one span) finds one agent's turns. Cut as the metric label is, so an alert's
    link, built from that label, matches it.
    """
    if not context.agent_name:
        return {}
    return {names.ATTR_AGENT_NAME: capped(context.agent_name)}


def span_attributes(
    report: GroundednessReport, evidence_truncated: bool, evaluator: Evaluator
) -> dict[str, AttributeValue]:
    """Attributes added to the scored span (``gen_ai.evaluation.groundedness.*``); None values omitted.

    ``evidence_truncated`` is the turn's own flag (content cut before scoring), reported as the
    reason ``content_truncated`` next to the scorer's reasons.
    """
    reasons: list[TruncationReason] = list(report.evidence_truncation_reasons)
    if evidence_truncated:
        reasons.append("content_truncated")
    attributes: dict[str, AttributeValue] = {
        **provenance_attributes(evaluator),
        names.ATTR_LABEL: report.label,
        names.ATTR_ATOMS_TOTAL: report.total_atoms,
        names.ATTR_ATOMS_SUPPORTED: len(report.supported),
        names.ATTR_ATOMS_CONTRADICTED: len(report.contradicted),
        names.ATTR_ATOMS_UNSUPPORTED: len(report.unsupported),
        names.ATTR_EVIDENCE_TRUNCATED: bool(report.evidence_truncated or evidence_truncated),
        names.ATTR_ANSWER_TRUNCATED: report.answer_truncated,
        names.ATTR_BUDGET_EXCEEDED: report.budget_exceeded,
        names.ATTR_ATOMS_UNCHECKED: report.atoms_unchecked,
    }
    if reasons:
        attributes[names.ATTR_EVIDENCE_TRUNCATION_REASONS] = ordered_reasons(reasons)
    if report.score is not None:
        attributes[names.ATTR_SCORE] = float(report.score)
        attributes[names.ATTR_SCORE_PERCENT] = round(report.score * 100)
    if report.strict_pass is not None:
        attributes[names.ATTR_STRICT_PASS] = bool(report.strict_pass)
    if report.sentence_score is not None:
        attributes[names.ATTR_SENTENCE_SCORE] = float(report.sentence_score)
    return attributes


def evaluation_attributes(
    report: GroundednessReport, response_id: str | None, evaluator: Evaluator
) -> dict[str, AttributeValue]:
    """Attributes of the ``gen_ai.evaluation.result`` event, per the GenAI semantic conventions."""
    attributes: dict[str, AttributeValue] = {
        **provenance_attributes(evaluator),
        names.ATTR_EVALUATION_NAME: names.EVALUATION_NAME,
        names.ATTR_EVALUATION_SCORE_LABEL: report.label,
        names.ATTR_EVALUATION_EXPLANATION: explanation(report),
    }
    if report.score is not None:
        attributes[names.ATTR_EVALUATION_SCORE_VALUE] = float(report.score)
    if response_id:
        attributes[names.ATTR_RESPONSE_ID] = response_id
    return attributes


def explanation(report: GroundednessReport) -> str:
    """One line such as ``2 of 3 atoms supported; contradicted: $1,234,500 (digit_transposition)``;
    figures computed from evidence close it: ``derived: $2,000.00 = $.invoices[0].total +
    $.invoices[1].total``."""
    if report.no_factual_content:
        return "no hard facts (money, percent, number, date, identifier, time) in the answer"
    if report.no_evidence:
        return f"{report.total_atoms} hard facts in the answer but no evidence to check them against"
    parts = [f"{len(report.supported)} of {report.total_atoms} atoms supported"]
    if report.budget_exceeded:
        parts.append(f"{report.atoms_unchecked} more not checked (work budget)")
    if report.contradicted:
        parts.append("contradicted: " + _listing(report.contradicted, with_reason=True))
    if report.unsupported:
        parts.append("unsupported: " + _listing(report.unsupported, with_reason=False))
    derived = [verdict for verdict in report.supported if verdict.citation and verdict.citation.operation]
    if derived:
        parts.append("derived: " + _derivations(derived))
    text = "; ".join(parts)
    if len(text) > _MAX_EXPLANATION_CHARS:
        text = text[: _MAX_EXPLANATION_CHARS - 1] + "…"
    return text


def _listing(verdicts: Sequence[AtomVerdict], *, with_reason: bool) -> str:
    shown = []
    for verdict in verdicts[:_MAX_LISTED_ATOMS]:
        reason = verdict.reason if with_reason else None
        shown.append(f"{verdict.text} ({reason})" if reason else verdict.text)
    extra = len(verdicts) - len(shown)
    if extra > 0:
        shown.append(f"+{extra} more")
    return ", ".join(shown)


def _derivations(verdicts: Sequence[AtomVerdict]) -> str:
    shown = []
    for verdict in verdicts[:_MAX_LISTED_ATOMS]:
        assert verdict.citation is not None
        shown.append(f"{verdict.text} = {derived_from(verdict.citation)}")
    extra = len(verdicts) - len(shown)
    if extra > 0:
        shown.append(f"+{extra} more")
    return ", ".join(shown)
