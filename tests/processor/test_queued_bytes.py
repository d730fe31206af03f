"""The byte estimate of a queued span, taken on the application's span-end path."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider

from otel_groundedness.processor.queued_bytes import span_bytes
from otel_groundedness.processor.sdk_attributes import raw_attributes


@pytest.fixture
def chat_span() -> ReadableSpan:
    """An ended SDK span as an instrumented chat call leaves it: strings, numbers, sequences, events."""
    tracer = TracerProvider().get_tracer("tests.queued_bytes")
    with tracer.start_as_current_span("chat gpt-4o-mini") as span:
        span.set_attributes(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "gpt-4o-mini",
                "gen_ai.usage.input_tokens": 1234,
                "gen_ai.request.temperature": 0.2,
                "gen_ai.request.stream": False,
                "gen_ai.response.finish_reasons": ("stop", "length"),
                "llm.token_counts": [12, 30],
            }
        )
        span.add_event("gen_ai.user.message", {"content": "What is the total of INV-2210?", "role": "user"})
        span.add_event("gen_ai.choice", {"index": 0, "message": "The total is $1,243.50."})
        span.add_event("checkpoint")
    assert isinstance(span, ReadableSpan)
    return span


def test_a_span_is_estimated_by_its_attribute_and_event_values(chat_span: ReadableSpan) -> None:
    overhead = 1024
    # "chat", "gpt-4o-mini", three scalars at 8 bytes, "stop" + "length", two numbers at 8 bytes
    attributes = 4 + 11 + 3 * 8 + (4 + 6) + 2 * 8
    # each event: its values and 8 bytes of its own
    events = (30 + 4 + 8) + (8 + 23 + 8) + 8
    assert span_bytes(chat_span) == overhead + attributes + events == 1178


@pytest.fixture
def proxy_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every read of ``ReadableSpan.attributes`` (the SDK's read-only proxy), by span name."""
    reads: list[str] = []
    proxied = ReadableSpan.attributes

    def counted(span: ReadableSpan) -> object:
        reads.append(span.name)
        return proxied.fget(span) if proxied.fget is not None else None

    monkeypatch.setattr(ReadableSpan, "attributes", property(counted))
    yield reads


def test_the_estimate_reads_the_attributes_without_the_sdk_proxy(
    chat_span: ReadableSpan, proxy_reads: list[str]
) -> None:
    assert span_bytes(chat_span) == 1178
    assert proxy_reads == []


def test_raw_attributes_are_the_backing_values_of_any_readable_span(chat_span: ReadableSpan) -> None:
    raw = raw_attributes(chat_span)
    assert type(raw) is dict and raw == dict(chat_span.attributes or {})
    plain = ReadableSpan("exported", attributes={"gen_ai.system": "openai"})
    assert raw_attributes(plain) == {"gen_ai.system": "openai"}
    assert dict(raw_attributes(ReadableSpan("bare"))) == {}
