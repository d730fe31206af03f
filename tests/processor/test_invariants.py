"""Every span in comes out downstream exactly once: under concurrency, on shutdown, on overflow, on errors."""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Tracer

from otel_groundedness.core import evaluation
from otel_groundedness.telemetry import names
from tests.processor.conftest import (
    CORRUPTED_ANSWER,
    GROUNDED_ANSWER,
    INVOICE_RESULT,
    PipelineFactory,
    emit_chat,
    emit_tool,
    wait_until,
)


def run_agent_turn(tracer: Tracer, index: int) -> int:
    """One agent turn: agent, tool, two chats, one plain span. Returns the number of spans."""
    with tracer.start_as_current_span(
        "invoke_agent worker", attributes={"gen_ai.operation.name": "invoke_agent"}
    ):
        emit_tool(tracer, INVOICE_RESULT, call_id=f"call_{index}")
        emit_chat(tracer, None, name="chat tool-call", response_id=f"r{index}a")
        emit_chat(tracer, GROUNDED_ANSWER if index % 2 else CORRUPTED_ANSWER, response_id=f"r{index}b")
        with tracer.start_as_current_span("db.query"):
            pass
    return 5


def span_ids(exporter: InMemorySpanExporter) -> Counter[int]:
    return Counter(span.context.span_id for span in exporter.get_finished_spans() if span.context)


@pytest.mark.parametrize("max_queue_size", [10_000, 8], ids=["roomy-queue", "overflowing-queue"])
def test_n_spans_in_n_spans_out_under_concurrency(
    make_pipeline: PipelineFactory, max_queue_size: int
) -> None:
    pipeline = make_pipeline(max_queue_size=max_queue_size)
    threads, turns_per_thread = 4, 150
    sent: list[int] = []

    def work() -> None:
        count = 0
        for index in range(turns_per_thread):
            count += run_agent_turn(pipeline.tracer, index)
        sent.append(count)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    pipeline.flush()

    exported = span_ids(pipeline.spans)
    assert sum(sent) == threads * turns_per_thread * 5
    assert sum(exported.values()) == sum(sent)
    assert set(exported.values()) == {1}  # never twice
    if max_queue_size > sum(sent):
        assert pipeline.counter(names.METRIC_QUEUE_DROPPED.name) == 0
        assert pipeline.counter(names.METRIC_TURNS.name) == threads * turns_per_thread
    else:
        assert pipeline.counter(names.METRIC_QUEUE_DROPPED.name) > 0


def test_shutdown_mid_stream_loses_nothing(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    stop = threading.Event()
    emitted = Counter[str]()

    def work() -> None:
        index = 0
        while not stop.is_set():
            emitted["spans"] += run_agent_turn(pipeline.tracer, index)
            index += 1

    worker = threading.Thread(target=work)
    worker.start()
    assert wait_until(lambda: emitted["spans"] >= 500)
    # An agent left open across shutdown: its answer is held and must still come out.
    with pipeline.tracer.start_as_current_span(
        "invoke_agent open", attributes={"gen_ai.operation.name": "invoke_agent"}
    ):
        emit_chat(pipeline.tracer, GROUNDED_ANSWER, name="held chat", response_id="held")
        stop.set()
        worker.join()
        pipeline.provider.shutdown()
    exported = pipeline.spans.get_finished_spans()
    names_out = Counter(span.name for span in exported)
    assert names_out["held chat"] == 1
    # Spans ended after shutdown (the open agent) are not exported by the SDK; all others are.
    assert len(exported) == emitted["spans"] + 1


class GateProcessor(SpanProcessor):
    """Downstream that blocks GenAI forwarding until opened, so the worker stalls and the queue fills."""

    def __init__(self, inner: SpanProcessor) -> None:
        self.inner = inner
        self.entered = threading.Event()
        self.opened = threading.Event()

    def on_end(self, span: ReadableSpan) -> None:
        if threading.current_thread().name == "otel-groundedness-worker":
            self.entered.set()
            self.opened.wait(10)
        self.inner.on_end(span)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)

    def shutdown(self) -> None:
        self.inner.shutdown()


def test_queue_overflow_forwards_unscored_at_once_and_counts_drops(make_pipeline: PipelineFactory) -> None:
    exporter = InMemorySpanExporter()
    gate = GateProcessor(SimpleSpanProcessor(exporter))
    pipeline = make_pipeline(gate, max_queue_size=5)
    total = 40
    emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id="r0")
    assert gate.entered.wait(10)
    for index in range(1, total):
        emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id=f"r{index}")
    # The worker holds one span at the gate and five wait in the queue; the rest left at once.
    dropped = pipeline.counter(names.METRIC_QUEUE_DROPPED.name)
    assert dropped == total - 6
    assert len(exporter.get_finished_spans()) == dropped
    assert all(names.ATTR_SCORE not in (span.attributes or {}) for span in exporter.get_finished_spans())
    gate.opened.set()
    pipeline.flush()
    assert len(exporter.get_finished_spans()) == total
    assert pipeline.counter(names.METRIC_TURNS.name) == 6


class FaultyProcessor(SpanProcessor):
    def __init__(self, inner: SpanProcessor) -> None:
        self.inner = inner

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        raise RuntimeError("downstream on_start")

    def on_end(self, span: ReadableSpan) -> None:
        self.inner.on_end(span)
        raise RuntimeError("downstream on_end")

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        raise RuntimeError("downstream force_flush")

    def shutdown(self) -> None:
        raise RuntimeError("downstream shutdown")


def test_never_raises_when_downstream_raises(make_pipeline: PipelineFactory) -> None:
    exporter = InMemorySpanExporter()
    pipeline = make_pipeline(FaultyProcessor(SimpleSpanProcessor(exporter)))
    with pipeline.tracer.start_as_current_span("plain"):
        pass
    emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    assert pipeline.processor.force_flush(5000) is False
    pipeline.provider.shutdown()
    assert {span.name for span in exporter.get_finished_spans()} == {"plain", "chat gpt-4o-mini"}
    assert pipeline.processor.worker_errors >= 1


@pytest.fixture
def broken_scorer(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def explode(*_args: Any, **_kwargs: Any) -> Any:
        raise ValueError("scorer bug")

    monkeypatch.setattr(evaluation, "score", explode)
    yield


@pytest.mark.parametrize("failure", ["broken_scorer", "panicking_engine"])
def test_scoring_errors_forward_the_span_unscored_and_count(
    make_pipeline: PipelineFactory, failure: str, request: pytest.FixtureRequest
) -> None:
    """A bug in scoring, a Rust panic included, is counted and the span is forwarded once."""
    request.getfixturevalue(failure)
    pipeline = make_pipeline()
    emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    pipeline.flush()
    (span,) = pipeline.spans.get_finished_spans()
    assert names.ATTR_SCORE not in (span.attributes or {})
    assert pipeline.counter(names.METRIC_SKIPPED.name, **{names.ATTR_SKIP_REASON: "error"}) == 1


@pytest.fixture
def panicking_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The native engine panics in Rust (through the same boundary every engine call crosses)."""
    from otel_groundedness import _native

    def panic(*_args: Any) -> Any:
        return _native.boundary_check(1, True, 0)

    monkeypatch.setattr(_native, "score", panic)
    yield


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX-only")
def test_forked_child_still_scores(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id="parent")
    pid = os.fork()
    if pid == 0:  # child: its own worker thread must pick up new spans
        code = 1
        try:
            pipeline.spans.clear()
            emit_chat(pipeline.tracer, CORRUPTED_ANSWER, name="child chat", response_id="child")
            pipeline.processor.force_flush(10_000)
            spans = pipeline.finished()
            child = spans.get("child chat")
            scored = child is not None and (child.attributes or {}).get(names.ATTR_ATOMS_CONTRADICTED) == 1
            code = 0 if scored and "chat gpt-4o-mini" not in spans else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    pipeline.flush()
    assert [span.name for span in pipeline.spans.get_finished_spans()] == ["chat gpt-4o-mini"]


def test_flush_timeout_forwards_what_is_still_queued_unscored(make_pipeline: PipelineFactory) -> None:
    exporter = InMemorySpanExporter()
    gate = GateProcessor(SimpleSpanProcessor(exporter))
    pipeline = make_pipeline(gate)
    emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id="first")
    assert gate.entered.wait(10)
    for index in range(5):
        emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id=f"queued{index}")
    assert pipeline.processor.force_flush(200) is False
    # The five queued spans went out unscored from the flushing thread; the first is still at the gate.
    assert len(exporter.get_finished_spans()) == 5
    assert all(names.ATTR_SCORE not in (span.attributes or {}) for span in exporter.get_finished_spans())
    gate.opened.set()
    pipeline.flush()
    assert len(exporter.get_finished_spans()) == 6
    assert names.ATTR_SCORE in (exporter.get_finished_spans()[-1].attributes or {})
