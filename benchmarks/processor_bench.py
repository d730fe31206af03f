"""Processor cost on the application thread, against a plain ``BatchSpanProcessor`` in the same run,
and end-to-end scored turns per second.

Per-span cost is the wall time of one span start + end on the application thread, timed one span at
a time (p50/p99 over many spans, baseline and groundedness runs interleaved in rounds). Targets:
non-GenAI spans at most 1.10x the baseline median, GenAI spans at most 20 µs extra median.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Sequence
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.trace import Tracer

from otel_groundedness import GroundednessSpanProcessor

CHUNKS = 40
SPANS_PER_CHUNK = 500
TURNS_FOR_THROUGHPUT = 2000

_ANSWER = "Invoice INV-2210 totals $1,243,500 and is due on March 3, 2025."
_TOOL_RESULT = '{"invoice_id": "INV-2210", "total": 1243500, "currency": "USD", "due_date": "2025-03-03"}'
PLAIN_ATTRIBUTES = {
    "http.request.method": "GET",
    "http.route": "/invoices/{id}",
    "http.response.status_code": 200,
}
GENAI_ATTRIBUTES: dict[str, Any] = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "gpt-4o-mini",
    "gen_ai.response.id": "chatcmpl-bench",
    "gen_ai.input.messages": json.dumps(
        [
            {"role": "user", "parts": [{"type": "text", "content": "Total of INV-2210?"}]},
            {"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "get_invoice"}]},
            {
                "role": "tool",
                "parts": [{"type": "tool_call_response", "id": "call_1", "response": _TOOL_RESULT}],
            },
        ]
    ),
    "gen_ai.output.messages": json.dumps(
        [{"role": "assistant", "parts": [{"type": "text", "content": _ANSWER}], "finish_reason": "stop"}]
    ),
}


class _DiscardingExporter(SpanExporter):
    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return SpanExportResult.SUCCESS


def _baseline() -> SpanProcessor:
    return BatchSpanProcessor(_DiscardingExporter(), max_queue_size=CHUNKS * SPANS_PER_CHUNK + 1)


def _groundedness() -> SpanProcessor:
    return GroundednessSpanProcessor(
        _baseline(), max_queue_size=CHUNKS * SPANS_PER_CHUNK + 1, emit_log_record=False
    )


def _time_spans(tracer: Tracer, attributes: dict[str, Any], count: int, into: list[int]) -> None:
    clock = time.perf_counter_ns
    for _ in range(count):
        started = clock()
        tracer.start_span("span", attributes=attributes).end()
        into.append(clock() - started)


def _percentile(values: list[int], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] / 1000


def _compare(label: str, attributes: dict[str, Any]) -> tuple[float, float]:
    """Median µs per span for the baseline and the wrapped pipeline, timed in alternating chunks."""
    providers = []
    for processor in (_baseline(), _groundedness()):
        provider = TracerProvider()
        provider.add_span_processor(processor)
        providers.append(provider)
    baseline_tracer, wrapped_tracer = (provider.get_tracer("bench") for provider in providers)
    baseline: list[int] = []
    wrapped: list[int] = []
    for _ in range(CHUNKS):
        _time_spans(baseline_tracer, attributes, SPANS_PER_CHUNK, baseline)
        _time_spans(wrapped_tracer, attributes, SPANS_PER_CHUNK, wrapped)
    for provider in providers:
        provider.shutdown()
    b50, b99 = statistics.median(baseline) / 1000, _percentile(baseline, 0.99)
    g50, g99 = statistics.median(wrapped) / 1000, _percentile(wrapped, 0.99)
    print(f"{label:<16} baseline p50 {b50:6.2f} µs p99 {b99:7.2f} µs")
    print(f"{'':<16} wrapped  p50 {g50:6.2f} µs p99 {g99:7.2f} µs")
    return b50, g50


def _turns_per_second() -> float:
    provider = TracerProvider()
    processor = GroundednessSpanProcessor(
        _baseline(), max_queue_size=TURNS_FOR_THROUGHPUT * 2, emit_log_record=False
    )
    provider.add_span_processor(processor)
    tracer = provider.get_tracer("bench")
    started = time.perf_counter()
    for index in range(TURNS_FOR_THROUGHPUT):
        attributes = {**GENAI_ATTRIBUTES, "gen_ai.response.id": f"chatcmpl-{index}"}
        tracer.start_span("chat gpt-4o-mini", attributes=attributes).end()
    processor.force_flush(120_000)
    elapsed = time.perf_counter() - started
    provider.shutdown()
    return TURNS_FOR_THROUGHPUT / elapsed


def main() -> None:
    spans = CHUNKS * SPANS_PER_CHUNK
    print(f"processor: {spans} spans per pipeline and case, start+end on the app thread, alternating chunks")
    plain_base, plain_wrapped = _compare("non-GenAI span", PLAIN_ATTRIBUTES)
    genai_base, genai_wrapped = _compare("GenAI chat span", GENAI_ATTRIBUTES)
    ratio = plain_wrapped / plain_base
    extra = genai_wrapped - genai_base
    print(f"non-GenAI ratio   {ratio:.3f}x  (target <= 1.10x)  {'PASS' if ratio <= 1.10 else 'FAIL'}")
    print(f"GenAI extra p50   {extra:.2f} µs (target <= 20 µs) {'PASS' if extra <= 20 else 'FAIL'}")
    print(f"scored turns/s    {_turns_per_second():.0f} (self-contained chat spans, end to end, one core)")


if __name__ == "__main__":
    main()
