"""Exemplars: every measurement of a scored turn is made in the context of the scored span, so the
SDK's default (trace-based) exemplar filter keeps the span's ids on each data point; an unsampled
span gives none."""

from __future__ import annotations

from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.trace import SpanContext, TraceFlags

from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.instruments import GroundednessInstruments
from tests.telemetry.test_instruments import BUDGET_EXCEEDED, CONTEXT, EVALUATOR, collect


def span(trace_id: int, span_id: int, *, sampled: bool = True) -> SpanContext:
    flags = TraceFlags(TraceFlags.SAMPLED if sampled else TraceFlags.DEFAULT)
    return SpanContext(trace_id, span_id, is_remote=False, trace_flags=flags)


SCORED = span(0x0AF7651916CD43DD8448EB211C80319C, 0xB7AD6B7169203331)
LATER = span(0x1BF7651916CD43DD8448EB211C80319D, 0x17AD6B7169203332)
# Every metric a scored turn records (BUDGET_EXCEEDED has a score, atoms of each verdict, the budget flag).
TURN_METRICS = (
    names.METRIC_SCORE,
    names.METRIC_TURNS,
    names.METRIC_ATOMS,
    names.METRIC_BUDGET_EXCEEDED,
    names.METRIC_DURATION,
)


def instruments() -> tuple[GroundednessInstruments, InMemoryMetricReader]:
    reader = InMemoryMetricReader()
    return GroundednessInstruments(MeterProvider(metric_readers=[reader]), lambda: 0, EVALUATOR), reader


def turn_points(reader: InMemoryMetricReader) -> dict[str, list[Any]]:
    metrics = collect(reader)
    return {spec.name: list(metrics[spec.name].data.data_points) for spec in TURN_METRICS}


def test_every_point_of_a_scored_turn_has_an_exemplar_of_the_scored_span() -> None:
    recorder, reader = instruments()
    recorder.record_evaluation(BUDGET_EXCEEDED, CONTEXT, 0.2, SCORED)
    points = turn_points(reader)
    assert len(points[names.METRIC_ATOMS.name]) == 3  # one series per (kind, verdict)
    for name, series in points.items():
        assert series, name
        for point in series:
            assert [(e.trace_id, e.span_id) for e in point.exemplars] == [(SCORED.trace_id, SCORED.span_id)]
    (score,) = points[names.METRIC_SCORE.name]
    assert score.exemplars[0].value == BUDGET_EXCEEDED.score


def test_an_unsampled_span_gives_no_exemplar() -> None:
    recorder, reader = instruments()
    unsampled = span(SCORED.trace_id, SCORED.span_id, sampled=False)
    recorder.record_evaluation(BUDGET_EXCEEDED, CONTEXT, 0.2, unsampled)
    for name, series in turn_points(reader).items():
        assert series, name
        assert all(not point.exemplars for point in series), name


def test_a_turn_recorded_without_its_span_gives_no_exemplar() -> None:
    recorder, reader = instruments()
    recorder.record_evaluation(BUDGET_EXCEEDED, CONTEXT, 0.2)
    assert all(not point.exemplars for series in turn_points(reader).values() for point in series)


def test_a_counter_series_points_at_its_latest_scored_turn() -> None:
    recorder, reader = instruments()
    recorder.record_evaluation(BUDGET_EXCEEDED, CONTEXT, 0.2, SCORED)
    recorder.record_evaluation(BUDGET_EXCEEDED, CONTEXT, 0.2, LATER)
    (turns,) = turn_points(reader)[names.METRIC_TURNS.name]
    assert turns.value == 2
    assert [(e.trace_id, e.span_id) for e in turns.exemplars] == [(LATER.trace_id, LATER.span_id)]
