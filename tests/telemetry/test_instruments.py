"""Metric instruments: names and units from ``names.METRICS``, explicit buckets, low-cardinality labels."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from otel_groundedness.evaluator import describe
from otel_groundedness.records import TurnContext
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.instruments import GroundednessInstruments
from tests.telemetry.test_evaluation import MIXED, NO_EVIDENCE

EVALUATOR = describe(GroundednessPolicy())
BUDGET_EXCEEDED = replace(MIXED, budget_exceeded=True, atoms_unchecked=12)
CONTEXT = TurnContext(
    operation="chat",
    provider="openai",
    request_model="gpt-4o-mini",
    response_model="gpt-4o-mini-2024-07-18",
    agent_name="invoice-agent",
    response_id="chatcmpl-123",
    conversation_id="conv-9",
)


def collect(reader: InMemoryMetricReader) -> dict[str, Any]:
    data = reader.get_metrics_data()
    assert data is not None
    return {
        metric.name: metric
        for resource_metrics in data.resource_metrics
        for scope_metrics in resource_metrics.scope_metrics
        for metric in scope_metrics.metrics
    }


def test_every_declared_metric_is_exported_with_its_unit_and_buckets() -> None:
    reader = InMemoryMetricReader()
    instruments = GroundednessInstruments(
        MeterProvider(metric_readers=[reader]), queue_size=lambda: 7, evaluator=EVALUATOR
    )
    instruments.record_evaluation(MIXED, CONTEXT, 0.002)
    instruments.record_evaluation(BUDGET_EXCEEDED, CONTEXT, 0.2)
    instruments.record_skip("no_answer")
    instruments.record_drop()
    instruments.record_eviction("ttl")
    metrics = collect(reader)

    assert set(metrics) == {spec.name for spec in names.METRICS}
    for spec in names.METRICS:
        assert metrics[spec.name].unit == spec.unit
    (score_point,) = metrics[names.METRIC_SCORE.name].data.data_points
    assert tuple(score_point.explicit_bounds) == names.SCORE_BUCKETS
    assert score_point.sum == 2 * MIXED.score
    (budget_point,) = metrics[names.METRIC_BUDGET_EXCEEDED.name].data.data_points
    assert budget_point.value == 1
    (duration_point,) = metrics[names.METRIC_DURATION.name].data.data_points
    assert tuple(duration_point.explicit_bounds) == names.LATENCY_BUCKETS_S
    (queue_point,) = metrics[names.METRIC_QUEUE_SIZE.name].data.data_points
    assert queue_point.value == 7


def test_the_budget_counter_counts_only_turns_that_hit_the_budget() -> None:
    reader = InMemoryMetricReader()
    instruments = GroundednessInstruments(
        MeterProvider(metric_readers=[reader]), queue_size=lambda: 0, evaluator=EVALUATOR
    )
    instruments.record_evaluation(MIXED, CONTEXT, 0.002)
    assert names.METRIC_BUDGET_EXCEEDED.name not in collect(reader)
    instruments.record_evaluation(BUDGET_EXCEEDED, CONTEXT, 0.2)
    instruments.record_evaluation(BUDGET_EXCEEDED, CONTEXT, 0.2)
    (point,) = collect(reader)[names.METRIC_BUDGET_EXCEEDED.name].data.data_points
    assert point.value == 2
    assert dict(point.attributes) == {
        names.ATTR_EVALUATION_NAME: "groundedness",
        names.ATTR_PROVIDER: "openai",
        names.ATTR_REQUEST_MODEL: "gpt-4o-mini",
        names.ATTR_AGENT_NAME: "invoice-agent",
        names.ATTR_OPERATION: "chat",
        names.ATTR_METRIC_EVALUATOR_VERSION: EVALUATOR.version,
    }


def test_metric_attributes_are_low_cardinality_and_never_ids() -> None:
    reader = InMemoryMetricReader()
    instruments = GroundednessInstruments(
        MeterProvider(metric_readers=[reader]), queue_size=lambda: 0, evaluator=EVALUATOR
    )
    instruments.record_evaluation(MIXED, CONTEXT, 0.002)
    metrics = collect(reader)

    (turn,) = metrics[names.METRIC_TURNS.name].data.data_points
    assert dict(turn.attributes) == {
        names.ATTR_EVALUATION_NAME: "groundedness",
        names.ATTR_PROVIDER: "openai",
        names.ATTR_REQUEST_MODEL: "gpt-4o-mini",
        names.ATTR_AGENT_NAME: "invoice-agent",
        names.ATTR_OPERATION: "chat",
        names.ATTR_EVALUATION_SCORE_LABEL: "ungrounded",
        names.ATTR_METRIC_EVALUATOR_VERSION: EVALUATOR.version,
    }
    atoms = {
        (point.attributes[names.ATTR_ATOM_KIND], point.attributes[names.ATTR_ATOM_VERDICT]): point.value
        for point in metrics[names.METRIC_ATOMS.name].data.data_points
    }
    assert atoms == {("identifier", "supported"): 1, ("date", "supported"): 1, ("money", "contradicted"): 1}
    for metric in metrics.values():
        for point in metric.data.data_points:
            assert set(point.attributes) <= {a for spec in names.METRICS for a in spec.attributes}
            assert "chatcmpl-123" not in point.attributes.values()
            assert "conv-9" not in point.attributes.values()


def test_unscored_labels_count_as_turns_but_stay_out_of_the_score_histogram() -> None:
    reader = InMemoryMetricReader()
    instruments = GroundednessInstruments(
        MeterProvider(metric_readers=[reader]), queue_size=lambda: 0, evaluator=EVALUATOR
    )
    instruments.record_evaluation(NO_EVIDENCE, CONTEXT, 0.001)
    metrics = collect(reader)
    assert names.METRIC_SCORE.name not in metrics
    (turn,) = metrics[names.METRIC_TURNS.name].data.data_points
    assert turn.value == 1 and turn.attributes[names.ATTR_EVALUATION_SCORE_LABEL] == "no_evidence"


def test_attribute_values_copied_from_spans_are_capped() -> None:
    reader = InMemoryMetricReader()
    instruments = GroundednessInstruments(
        MeterProvider(metric_readers=[reader]), queue_size=lambda: 0, evaluator=EVALUATOR
    )
    huge = TurnContext(
        operation="chat", provider="p" * 380_001, request_model="m" * 500, agent_name="a" * 129
    )
    instruments.record_evaluation(MIXED, huge, 0.001)
    (point,) = collect(reader)[names.METRIC_TURNS.name].data.data_points
    attributes = dict(point.attributes)
    assert attributes[names.ATTR_PROVIDER] == "p" * names.MAX_METRIC_ATTRIBUTE_CHARS
    assert attributes[names.ATTR_REQUEST_MODEL] == "m" * names.MAX_METRIC_ATTRIBUTE_CHARS
    assert attributes[names.ATTR_AGENT_NAME] == "a" * names.MAX_METRIC_ATTRIBUTE_CHARS
    assert all(len(str(value)) <= names.MAX_METRIC_ATTRIBUTE_CHARS for value in attributes.values())


def test_turns_of_different_labels_or_contexts_count_apart_and_equal_ones_together() -> None:
    # Each turn's label sets are built once and then looked up: the lookup must tell them apart.
    reader = InMemoryMetricReader()
    instruments = GroundednessInstruments(
        MeterProvider(metric_readers=[reader]), queue_size=lambda: 0, evaluator=EVALUATOR
    )
    other_agent = replace(CONTEXT, agent_name="refund-agent")
    for report, context in ((MIXED, CONTEXT), (MIXED, other_agent), (MIXED, CONTEXT), (NO_EVIDENCE, CONTEXT)):
        instruments.record_evaluation(report, context, 0.002)
    metrics = collect(reader)

    turns = {
        (
            point.attributes[names.ATTR_AGENT_NAME],
            point.attributes[names.ATTR_EVALUATION_SCORE_LABEL],
        ): point.value
        for point in metrics[names.METRIC_TURNS.name].data.data_points
    }
    assert turns == {
        ("invoice-agent", MIXED.label): 2,
        ("refund-agent", MIXED.label): 1,
        ("invoice-agent", NO_EVIDENCE.label): 1,
    }
    atoms = {
        tuple(
            point.attributes[key]
            for key in (names.ATTR_AGENT_NAME, names.ATTR_ATOM_KIND, names.ATTR_ATOM_VERDICT)
        ): point.value
        for point in metrics[names.METRIC_ATOMS.name].data.data_points
    }
    per_turn = Counter(
        (atom.kind, atom.verdict) for atom in (*MIXED.supported, *MIXED.contradicted, *MIXED.unsupported)
    )
    assert atoms == {
        **{("invoice-agent", *kind_verdict): 2 * count for kind_verdict, count in per_turn.items()},
        **{("refund-agent", *kind_verdict): count for kind_verdict, count in per_turn.items()},
    }
    scores = {
        point.attributes[names.ATTR_AGENT_NAME]: point.count
        for point in metrics[names.METRIC_SCORE.name].data.data_points
    }
    assert scores == {"invoice-agent": 2, "refund-agent": 1}


def test_a_turns_atoms_of_one_kind_and_verdict_are_counted_together() -> None:
    reader = InMemoryMetricReader()
    instruments = GroundednessInstruments(
        MeterProvider(metric_readers=[reader]), queue_size=lambda: 0, evaluator=EVALUATOR
    )
    first = MIXED.supported[0]
    report = replace(MIXED, supported=(first, *MIXED.supported, first))
    instruments.record_evaluation(report, CONTEXT, 0.002)
    atoms = {
        (point.attributes[names.ATTR_ATOM_KIND], point.attributes[names.ATTR_ATOM_VERDICT]): point.value
        for point in collect(reader)[names.METRIC_ATOMS.name].data.data_points
    }
    expected = Counter((atom.kind, atom.verdict) for atom in (*report.supported, *report.contradicted))
    assert atoms == expected
    assert atoms[(first.kind, first.verdict)] == 3
