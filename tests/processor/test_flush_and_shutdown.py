"""Flush and shutdown keep their promises: the timeout budget, and downstream shut only after the drain."""

from __future__ import annotations

import threading

from opentelemetry.sdk._logs import LogRecordProcessor, ReadWriteLogRecord
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.processor.conftest import GROUNDED_ANSWER, PipelineFactory, emit_chat


class StallingProcessor(SpanProcessor):
    """Downstream that holds the scoring worker until released, so the queue cannot drain."""

    def __init__(self, inner: SpanProcessor) -> None:
        self.inner = inner
        self.entered = threading.Event()
        self.released = threading.Event()

    def on_end(self, span: ReadableSpan) -> None:
        if threading.current_thread().name == "otel-groundedness-worker":
            self.entered.set()
            self.released.wait(10)
        self.inner.on_end(span)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)

    def shutdown(self) -> None:
        self.inner.shutdown()


class BudgetRecordingLogProcessor(LogRecordProcessor):
    """Remembers the timeout each ``force_flush`` was given."""

    def __init__(self) -> None:
        self.budgets: list[int] = []

    def on_emit(self, log_record: ReadWriteLogRecord) -> None:
        pass

    def shutdown(self) -> None:
        pass

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        self.budgets.append(timeout_millis)
        return True


def test_log_processor_flush_gives_downstream_only_the_time_left(make_pipeline: PipelineFactory) -> None:
    stall = StallingProcessor(SimpleSpanProcessor(InMemorySpanExporter()))
    pipeline = make_pipeline(stall)
    downstream = BudgetRecordingLogProcessor()
    log_processor = pipeline.processor.log_processor(downstream)
    try:
        emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id="first")
        assert stall.entered.wait(10)
        emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id="queued")
        # The queue cannot drain, so waiting for it uses the whole budget.
        assert log_processor.force_flush(300) is False
        assert downstream.budgets and downstream.budgets[0] < 300
    finally:
        stall.released.set()


def test_a_second_concurrent_shutdown_waits_for_the_first_before_shutting_downstream(
    make_pipeline: PipelineFactory,
) -> None:
    exporter = InMemorySpanExporter()
    stall = StallingProcessor(SimpleSpanProcessor(exporter))
    pipeline = make_pipeline(stall)
    emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    assert stall.entered.wait(10)
    callers = [threading.Thread(target=pipeline.processor.shutdown) for _ in range(2)]
    for caller in callers:
        caller.start()
    # Neither caller may finish (and shut the exporter) while the worker still holds the span.
    callers[0].join(0.5)
    stall.released.set()
    for caller in callers:
        caller.join(10)
    assert [span.name for span in exporter.get_finished_spans()] == ["chat gpt-4o-mini"]
