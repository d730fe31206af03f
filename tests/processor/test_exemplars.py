"""The processor scores on its worker after the span ended, yet each scored turn's metrics carry an
exemplar of that turn's span: a dashboard's point leads to the trace that made it."""

from __future__ import annotations

from opentelemetry.sdk.trace import ReadableSpan

from otel_groundedness.telemetry import names
from tests.processor.conftest import CORRUPTED_ANSWER, GROUNDED_ANSWER, PipelineFactory, emit_chat

TURN_METRICS = (names.METRIC_SCORE.name, names.METRIC_TURNS.name, names.METRIC_ATOMS.name)


def ids(span: ReadableSpan) -> tuple[int, int]:
    assert span.context is not None
    return span.context.trace_id, span.context.span_id


def test_each_scored_turn_leaves_exemplars_of_its_own_span(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id="chatcmpl-grounded")
    emit_chat(pipeline.tracer, CORRUPTED_ANSWER, response_id="chatcmpl-corrupted")
    pipeline.flush()
    scored = {
        ids(span): (span.attributes or {})[names.ATTR_SCORE] for span in pipeline.spans.get_finished_spans()
    }
    assert len(scored) == 2 and len(set(scored.values())) == 2  # two traces, two different scores

    points = pipeline.metric_points()
    for name in TURN_METRICS:
        assert points[name], name
        for point in points[name]:
            assert point.exemplars, name
            assert {(e.trace_id, e.span_id) for e in point.exemplars} <= scored.keys(), name
    # One exemplar per turn's score (different labels, so different series), valued at its own span's score.
    exemplars = [e for point in points[names.METRIC_SCORE.name] for e in point.exemplars]
    assert {(e.trace_id, e.span_id): e.value for e in exemplars} == scored
