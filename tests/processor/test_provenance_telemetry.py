"""Scored spans, evaluation log records and metrics say which scorer and which policy produced them."""

from __future__ import annotations

import logging

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from otel_groundedness.evaluator import describe
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.instruments import GroundednessInstruments
from tests.processor.conftest import GROUNDED_ANSWER, PipelineFactory, emit_chat
from tests.telemetry.test_evaluation import MIXED
from tests.telemetry.test_instruments import CONTEXT, collect

POLICY = GroundednessPolicy(locale="en-GB")
EVALUATOR = describe(POLICY)


def test_scored_span_and_log_record_carry_evaluator_and_policy_fingerprint(
    make_pipeline: PipelineFactory,
) -> None:
    pipeline = make_pipeline(policy=POLICY)
    emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    pipeline.flush()
    (span,) = pipeline.spans.get_finished_spans()
    attributes = span.attributes or {}
    assert attributes[names.ATTR_EVALUATOR_VERSION] == EVALUATOR.version
    assert attributes[names.ATTR_POLICY_FINGERPRINT] == EVALUATOR.policy_fingerprint
    (event,) = [event for event in span.events if event.name == names.EVENT_EVALUATION_RESULT]
    assert (event.attributes or {})[names.ATTR_EVALUATOR_ID] == "otel-groundedness"
    (record,) = [
        log for log in pipeline.log_records() if log.log_record.event_name == names.EVENT_EVALUATION_RESULT
    ]
    assert (record.log_record.attributes or {})[names.ATTR_POLICY_FINGERPRINT] == EVALUATOR.policy_fingerprint


def test_metrics_carry_the_version_and_an_info_series_names_the_policy() -> None:
    reader = InMemoryMetricReader()
    instruments = GroundednessInstruments(MeterProvider(metric_readers=[reader]), lambda: 0, EVALUATOR)
    instruments.record_evaluation(MIXED, CONTEXT, 0.001)
    metrics = collect(reader)
    (turns,) = metrics[names.METRIC_TURNS.name].data.data_points
    assert turns.attributes[names.ATTR_METRIC_EVALUATOR_VERSION] == EVALUATOR.version
    assert names.ATTR_METRIC_POLICY_FINGERPRINT not in turns.attributes  # one info series carries it
    (info,) = metrics[names.METRIC_EVALUATOR_INFO.name].data.data_points
    assert info.value == 1
    assert dict(info.attributes) == {
        names.ATTR_METRIC_EVALUATOR_VERSION: EVALUATOR.version,
        names.ATTR_METRIC_POLICY_FINGERPRINT: EVALUATOR.policy_fingerprint,
    }


def test_a_bad_policy_variable_keeps_only_its_own_default_in_the_processor(
    make_pipeline: PipelineFactory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("OTEL_GROUNDEDNESS_LOCALE", "en-GB")
    monkeypatch.setenv("OTEL_GROUNDEDNESS_MIN_ALERT_SCORE", "eighty percent")
    with caplog.at_level(logging.WARNING, logger="otel_groundedness.config"):
        pipeline = make_pipeline()
    emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    pipeline.flush()
    (span,) = pipeline.spans.get_finished_spans()
    # en-GB applies (the policy of POLICY), only the bad variable fell back to its default.
    assert (span.attributes or {})[names.ATTR_POLICY_FINGERPRINT] == EVALUATOR.policy_fingerprint
    assert "OTEL_GROUNDEDNESS_MIN_ALERT_SCORE='eighty percent'" in caplog.text
