"""Reports rendered as span attributes, semconv evaluation attributes and the explanation line."""

from __future__ import annotations

from dataclasses import replace

from otel_groundedness.core import enrich_record, evaluate
from otel_groundedness.evaluator import describe
from otel_groundedness.records import SpanRecord, Turn, TurnContext
from otel_groundedness.scoring import AtomVerdict, Evidence, GroundednessPolicy, GroundednessReport
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.evaluation import evaluation_attributes, explanation, span_attributes

EVALUATOR = describe(GroundednessPolicy())
PROVENANCE = {
    names.ATTR_EVALUATOR_ID: "otel-groundedness",
    names.ATTR_EVALUATOR_VERSION: EVALUATOR.version,
    names.ATTR_EVALUATOR_TYPE: "deterministic",
    names.ATTR_POLICY_FINGERPRINT: EVALUATOR.policy_fingerprint,
}


def verdict(text: str, verdict: str, reason: str, kind: str = "money") -> AtomVerdict:
    return AtomVerdict(
        kind=kind, text=text, value=None, start=0, end=len(text), verdict=verdict, reason=reason
    )  # type: ignore[arg-type]


MIXED = GroundednessReport(
    score=2 / 3,
    total_atoms=3,
    supported=(
        verdict("INV-2210", "supported", "exact", "identifier"),
        verdict("March 3", "supported", "exact", "date"),
    ),
    contradicted=(verdict("$1,234,500", "contradicted", "digit_transposition"),),
    unsupported=(),
    no_factual_content=False,
    no_evidence=False,
    evidence_truncated=False,
    label="ungrounded",
    strict_pass=False,
    sentence_score=0.5,
    rule="atom_ratio",
)
NO_EVIDENCE = replace(
    MIXED,
    score=None,
    supported=(),
    contradicted=(),
    no_evidence=True,
    label="no_evidence",
    strict_pass=None,
    sentence_score=None,
)


def test_span_attributes_carry_score_percent_counts_and_flags() -> None:
    attributes = span_attributes(MIXED, evidence_truncated=True, evaluator=EVALUATOR)
    assert attributes == {
        **PROVENANCE,
        names.ATTR_LABEL: "ungrounded",
        names.ATTR_SCORE: 2 / 3,
        names.ATTR_SCORE_PERCENT: 67,
        names.ATTR_ATOMS_TOTAL: 3,
        names.ATTR_ATOMS_SUPPORTED: 2,
        names.ATTR_ATOMS_CONTRADICTED: 1,
        names.ATTR_ATOMS_UNSUPPORTED: 0,
        names.ATTR_EVIDENCE_TRUNCATED: True,
        names.ATTR_ANSWER_TRUNCATED: False,
        names.ATTR_EVIDENCE_TRUNCATION_REASONS: ("content_truncated",),
        names.ATTR_BUDGET_EXCEEDED: False,
        names.ATTR_ATOMS_UNCHECKED: 0,
        names.ATTR_STRICT_PASS: False,
        names.ATTR_SENTENCE_SCORE: 0.5,
    }
    assert isinstance(attributes[names.ATTR_SCORE_PERCENT], int)


def test_truncation_reasons_and_the_work_budget_reach_the_span() -> None:
    report = replace(
        MIXED,
        evidence_truncated=True,
        evidence_truncation_reasons=("max_evidence_bytes", "json_too_deep"),
        budget_exceeded=True,
        atoms_unchecked=40,
    )
    attributes = span_attributes(report, evidence_truncated=True, evaluator=EVALUATOR)
    assert attributes[names.ATTR_EVIDENCE_TRUNCATED] is True
    # The turn's own flag (content cut before scoring) joins the scorer's reasons, in vocabulary order.
    assert attributes[names.ATTR_EVIDENCE_TRUNCATION_REASONS] == (
        "max_evidence_bytes",
        "json_too_deep",
        "content_truncated",
    )
    assert attributes[names.ATTR_BUDGET_EXCEEDED] is True
    assert attributes[names.ATTR_ATOMS_UNCHECKED] == 40
    assert names.ATTR_EVIDENCE_TRUNCATION_REASONS not in span_attributes(
        MIXED, evidence_truncated=False, evaluator=EVALUATOR
    )


def test_explanation_says_how_many_atoms_the_budget_left_unchecked() -> None:
    report = replace(MIXED, budget_exceeded=True, atoms_unchecked=40)
    assert explanation(report).startswith("2 of 3 atoms supported; 40 more not checked (work budget)")


def test_none_values_are_omitted_rather_than_exported_as_zero() -> None:
    attributes = span_attributes(NO_EVIDENCE, evidence_truncated=False, evaluator=EVALUATOR)
    assert names.ATTR_SCORE not in attributes
    assert names.ATTR_SCORE_PERCENT not in attributes
    assert names.ATTR_STRICT_PASS not in attributes
    assert names.ATTR_SENTENCE_SCORE not in attributes
    assert attributes[names.ATTR_LABEL] == "no_evidence"
    assert names.ATTR_EVALUATION_SCORE_VALUE not in evaluation_attributes(NO_EVIDENCE, None, EVALUATOR)


def test_evaluation_attributes_follow_the_semconv_event() -> None:
    attributes = evaluation_attributes(MIXED, "chatcmpl-7", EVALUATOR)
    assert attributes == {
        **PROVENANCE,
        names.ATTR_EVALUATION_NAME: "groundedness",
        names.ATTR_EVALUATION_SCORE_VALUE: 2 / 3,
        names.ATTR_EVALUATION_SCORE_LABEL: "ungrounded",
        names.ATTR_EVALUATION_EXPLANATION: (
            "2 of 3 atoms supported; contradicted: $1,234,500 (digit_transposition)"
        ),
        names.ATTR_RESPONSE_ID: "chatcmpl-7",
    }


def test_explanation_lists_a_few_atoms_and_stays_short() -> None:
    many = tuple(verdict(f"${n},000", "unsupported", "not_found") for n in range(100, 160))
    report = replace(MIXED, unsupported=many, total_atoms=63)
    text = explanation(report)
    assert text.startswith(
        "2 of 63 atoms supported; contradicted: $1,234,500 (digit_transposition); unsupported: "
    )
    assert "$100,000, $101,000, $102,000, +57 more" in text
    assert len(text) <= 300
    assert explanation(NO_EVIDENCE).endswith("no evidence to check them against")


def test_a_recorded_span_gets_its_turns_agent_name_unless_it_has_its_own() -> None:
    # Replay writes its output with enrich_record: the same rule as the live hosts.
    evidence = (Evidence('{"total": 1243500}'),)
    turn = Turn(1, 2, "The total is $1,243,500.", evidence, None, TurnContext(agent_name="billing"))
    evaluation = evaluate(turn, GroundednessPolicy(), EVALUATOR)
    bare = SpanRecord(1, 2, None, "chat", "CLIENT", 0, 1)
    assert enrich_record(bare, evaluation).attributes[names.ATTR_AGENT_NAME] == "billing"
    own = replace(bare, attributes={names.ATTR_AGENT_NAME: "mine"})
    assert enrich_record(own, evaluation).attributes[names.ATTR_AGENT_NAME] == "mine"
