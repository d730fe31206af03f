"""The scored span leaves as a copy that keeps every field of the original, dropped counts included."""

from __future__ import annotations

import json

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanLimits, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Link, SpanKind, Status, StatusCode

from otel_groundedness import GroundednessSpanProcessor
from otel_groundedness.telemetry import names
from tests.processor.conftest import GROUNDED_ANSWER, chat_attributes


def test_enriched_copy_keeps_parent_kind_status_links_events_resource_scope_and_dropped_counts() -> None:
    plain, enriched = InMemorySpanExporter(), InMemorySpanExporter()
    resource = Resource.create({"service.name": "billing"})
    # Limits small enough that the SDK drops some of the span's own attributes, events and links.
    limits = SpanLimits(max_attributes=len(chat_attributes(GROUNDED_ANSWER)), max_events=1, max_links=1)
    spans_by_pipeline = []
    for exporter, wrap in ((plain, False), (enriched, True)):
        processor = SimpleSpanProcessor(exporter)
        provider = TracerProvider(resource=resource, span_limits=limits)
        provider.add_span_processor(
            GroundednessSpanProcessor(processor, meter_provider=MeterProvider()) if wrap else processor
        )
        tracer = provider.get_tracer("billing.agent", "1.2.3", schema_url="https://example.test/schema")
        with tracer.start_as_current_span("parent") as parent:
            link_target = parent.get_span_context()
            links = [Link(link_target, {"reason": "retry"}), Link(link_target)]
            with tracer.start_as_current_span("chat gpt-4o-mini", kind=SpanKind.CLIENT, links=links) as span:
                span.set_attribute("app.extra", "pushes the oldest attribute out")
                for attribute, value in chat_attributes(GROUNDED_ANSWER).items():
                    span.set_attribute(attribute, value)
                span.add_event("gen_ai.content.prompt", {"size": 1})
                span.add_event("retry")
                span.set_status(Status(StatusCode.ERROR, "upstream 503"))
        provider.shutdown()
        spans_by_pipeline.append({s.name: s for s in exporter.get_finished_spans()}["chat gpt-4o-mini"])
    original, copy = spans_by_pipeline

    assert names.ATTR_SCORE in (copy.attributes or {})
    assert (copy.dropped_attributes, copy.dropped_events, copy.dropped_links) == (1, 1, 1)
    assert (original.dropped_attributes, original.dropped_events, original.dropped_links) == (1, 1, 1)
    before, after = json.loads(original.to_json()), json.loads(copy.to_json())
    # Ids and times differ between the two runs; everything else must match field by field.
    for key in ("context", "parent_id", "start_time", "end_time", "attributes", "events", "links"):
        before.pop(key), after.pop(key)
    assert after == before
    assert copy.parent is not None and copy.parent.span_id != 0
    assert copy.instrumentation_scope == original.instrumentation_scope
    assert [dict(link.attributes or {}) for link in copy.links] == [
        dict(link.attributes or {}) for link in original.links
    ]
    assert [link.context.span_id for link in copy.links] == [copy.parent.span_id]
    assert [event.name for event in copy.events] == ["retry", names.EVENT_EVALUATION_RESULT]
    own = {
        key: value for key, value in (copy.attributes or {}).items() if not key.startswith(names.SPAN_PREFIX)
    }
    assert own == dict(original.attributes or {})
