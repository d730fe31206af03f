"""``force_flush(timeout)`` keeps to its budget: what the queue used up is not given again downstream."""

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
