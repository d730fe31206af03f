"""Score once: a processor that receives a span already scored by the same scorer (evaluator id,
version, policy fingerprint), e.g. two processors installed in a row, passes it through unscored; another
policy scores it again on purpose, and each result keeps its own provenance."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_groundedness import GroundednessSpanProcessor
from otel_groundedness.evaluator import describe
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry import names
from tests.processor.conftest import GROUNDED_ANSWER, Pipeline, PipelineFactory, emit_chat

OTHER_POLICY = GroundednessPolicy(locale="en-GB")


@dataclass
class Second:
    """A second processor behind the first: it sees the first one's output."""

    processor: GroundednessSpanProcessor
    spans: InMemorySpanExporter
    metrics: InMemoryMetricReader

    def counter(self, name: str, **attributes: str) -> int:
        data = self.metrics.get_metrics_data()
        total = 0
        for resource_metrics in data.resource_metrics if data else ():
            for scope_metrics in resource_metrics.scope_metrics:
                for metric in scope_metrics.metrics:
                    if metric.name == name:
                        total += sum(
                            point.value
                            for point in metric.data.data_points
                            if all(point.attributes.get(k) == v for k, v in attributes.items())
                        )
        return total


@pytest.fixture
def make_second() -> Iterator[Callable[[GroundednessPolicy], Second]]:
    built: list[GroundednessSpanProcessor] = []

    def build(policy: GroundednessPolicy) -> Second:
        spans, metrics = InMemorySpanExporter(), InMemoryMetricReader()
        processor = GroundednessSpanProcessor(
            SimpleSpanProcessor(spans), meter_provider=MeterProvider(metric_readers=[metrics]), policy=policy
        )
        built.append(processor)
        return Second(processor, spans, metrics)

    yield build
    for processor in built:
        processor.shutdown()


def run_chained(make_pipeline: PipelineFactory, second: Second) -> Pipeline:
    first = make_pipeline(downstream=second.processor)
    emit_chat(first.tracer, GROUNDED_ANSWER)
    first.flush()
    assert second.processor.force_flush(10_000)
    return first


def evaluation_events(second: Second) -> list[dict[str, object]]:
    (span,) = second.spans.get_finished_spans()
    return [dict(e.attributes or {}) for e in span.events if e.name == names.EVENT_EVALUATION_RESULT]


def test_a_span_scored_by_the_same_scorer_passes_through_unscored(
    make_pipeline: PipelineFactory, make_second: Callable[[GroundednessPolicy], Second]
) -> None:
    second = make_second(GroundednessPolicy())
    first = run_chained(make_pipeline, second)

    (event,) = evaluation_events(second)
    assert event[names.ATTR_POLICY_FINGERPRINT] == describe(GroundednessPolicy()).policy_fingerprint
    assert first.counter(names.METRIC_TURNS.name) == 1
    assert second.counter(names.METRIC_TURNS.name) == 0
    assert second.counter(names.METRIC_SKIPPED.name, **{names.ATTR_SKIP_REASON: "already_scored"}) == 1


def test_another_policy_scores_again_and_both_results_keep_their_provenance(
    make_pipeline: PipelineFactory, make_second: Callable[[GroundednessPolicy], Second]
) -> None:
    second = make_second(OTHER_POLICY)
    run_chained(make_pipeline, second)

    events = evaluation_events(second)
    assert [event[names.ATTR_POLICY_FINGERPRINT] for event in events] == [
        describe(GroundednessPolicy()).policy_fingerprint,
        describe(OTHER_POLICY).policy_fingerprint,
    ]
    (span,) = second.spans.get_finished_spans()  # the span's attributes name the last scorer
    assert (span.attributes or {})[names.ATTR_POLICY_FINGERPRINT] == describe(OTHER_POLICY).policy_fingerprint
    assert second.counter(names.METRIC_TURNS.name) == 1
