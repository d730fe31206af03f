"""A real SDK pipeline around ``GroundednessSpanProcessor`` and helpers that emit GenAI spans."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from opentelemetry.sdk._logs import LoggerProvider, ReadableLogRecord
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Span, SpanKind, Tracer

from otel_groundedness import GroundednessSpanProcessor

INVOICE_RESULT = '{"invoice_id": "INV-2210", "total": 1243500, "due_date": "2025-03-03"}'
GROUNDED_ANSWER = "Invoice INV-2210 totals $1,243,500 and is due on March 3, 2025."
CORRUPTED_ANSWER = "Invoice INV-2210 totals $1,234,500 and is due on March 3, 2025."
USER_PROMPT = "What is the total of invoice INV-2210 and when is it due?"


@dataclass
class Pipeline:
    provider: TracerProvider
    tracer: Tracer
    processor: GroundednessSpanProcessor
    spans: InMemorySpanExporter
    metrics: InMemoryMetricReader
    logs: InMemoryLogRecordExporter
    logger_provider: LoggerProvider

    def flush(self) -> None:
        assert self.processor.force_flush(10_000)
        self.logger_provider.force_flush()

    def finished(self) -> dict[str, ReadableSpan]:
        return {span.name: span for span in self.spans.get_finished_spans()}

    def log_records(self) -> list[ReadableLogRecord]:
        return list(self.logs.get_finished_logs())

    def metric_points(self) -> dict[str, list[Any]]:
        data = self.metrics.get_metrics_data()
        points: dict[str, list[Any]] = {}
        if data is None:
            return points
        for resource_metrics in data.resource_metrics:
            for scope_metrics in resource_metrics.scope_metrics:
                for metric in scope_metrics.metrics:
                    points.setdefault(metric.name, []).extend(metric.data.data_points)
        return points

    def counter(self, name: str, **attributes: Any) -> int:
        return sum(
            point.value
            for point in self.metric_points().get(name, [])
            if all(point.attributes.get(key) == value for key, value in attributes.items())
        )


PipelineFactory = Callable[..., Pipeline]


@pytest.fixture
def make_pipeline() -> Iterator[PipelineFactory]:
    built: list[Pipeline] = []

    def build(downstream: SpanProcessor | None = None, **settings: Any) -> Pipeline:
        spans = InMemorySpanExporter()
        metrics = InMemoryMetricReader()
        logs = InMemoryLogRecordExporter()
        logger_provider = LoggerProvider()
        processor = GroundednessSpanProcessor(
            downstream if downstream is not None else SimpleSpanProcessor(spans),
            meter_provider=MeterProvider(metric_readers=[metrics]),
            logger_provider=logger_provider,
            **settings,
        )
        logger_provider.add_log_record_processor(processor.log_processor())
        logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
        provider = TracerProvider()
        provider.add_span_processor(processor)
        pipeline = Pipeline(
            provider, provider.get_tracer("tests"), processor, spans, metrics, logs, logger_provider
        )
        built.append(pipeline)
        return pipeline

    yield build
    for pipeline in built:
        pipeline.provider.shutdown()


def messages(*items: dict[str, Any]) -> str:
    return json.dumps(list(items))


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"type": "text", "content": text}]}


def assistant_tool_call(call_id: str, name: str = "get_invoice") -> dict[str, Any]:
    part = {"type": "tool_call", "id": call_id, "name": name, "arguments": {"invoice_id": "INV-2210"}}
    return {"role": "assistant", "parts": [part]}


def tool_response(call_id: str, result: str) -> dict[str, Any]:
    return {"role": "tool", "parts": [{"type": "tool_call_response", "id": call_id, "response": result}]}


def assistant_text(text: str) -> dict[str, Any]:
    return {"role": "assistant", "parts": [{"type": "text", "content": text}], "finish_reason": "stop"}


def chat_attributes(
    answer: str | None, *, tool_result: str | None = INVOICE_RESULT, response_id: str = "chatcmpl-1"
) -> dict[str, Any]:
    """A final ``chat`` span as the official instrumentation writes it (semconv ≥1.37, JSON strings)."""
    inputs = [user(USER_PROMPT)]
    if tool_result is not None:
        inputs += [assistant_tool_call("call_1"), tool_response("call_1", tool_result)]
    attributes: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.id": response_id,
        "gen_ai.response.finish_reasons": ("stop",),
        "gen_ai.input.messages": messages(*inputs),
    }
    if answer is not None:
        attributes["gen_ai.output.messages"] = messages(assistant_text(answer))
    return attributes


def emit_chat(tracer: Tracer, answer: str | None, name: str = "chat gpt-4o-mini", **kwargs: Any) -> Span:
    with tracer.start_as_current_span(
        name, kind=SpanKind.CLIENT, attributes=chat_attributes(answer, **kwargs)
    ) as span:
        return span


def emit_tool(tracer: Tracer, result: str, call_id: str = "call_1") -> None:
    attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_invoice",
        "gen_ai.tool.call.id": call_id,
        "gen_ai.tool.call.result": result,
    }
    with tracer.start_as_current_span("execute_tool get_invoice", attributes=attributes):
        pass


def wait_until(condition: Callable[[], bool], timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()
