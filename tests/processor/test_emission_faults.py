"""A failing side channel (the log pipeline) must not cost the span its score."""

from __future__ import annotations

from opentelemetry.sdk._logs import LogRecordProcessor, ReadWriteLogRecord

from otel_groundedness.telemetry import names
from tests.processor.conftest import GROUNDED_ANSWER, PipelineFactory, emit_chat


class RaisingLogRecordProcessor(LogRecordProcessor):
    """A log processor that fails on every record (a broken exporter without its own guard)."""

    def on_emit(self, log_record: ReadWriteLogRecord) -> None:
        raise RuntimeError("log pipeline down")

    def shutdown(self) -> None:
        pass

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True


def test_a_raising_log_pipeline_still_leaves_the_score_on_the_span(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    pipeline.logger_provider.add_log_record_processor(RaisingLogRecordProcessor())
    emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    pipeline.flush()

    (span,) = pipeline.spans.get_finished_spans()
    assert (span.attributes or {}).get(names.ATTR_SCORE) == 1.0
    assert [event.name for event in span.events] == [names.EVENT_EVALUATION_RESULT]
    assert pipeline.counter(names.METRIC_SKIPPED.name, **{names.ATTR_SKIP_REASON: "error"}) == 0
    assert pipeline.counter(names.METRIC_TURNS.name) == 1
    assert pipeline.processor.worker_errors == 1
