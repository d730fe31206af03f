"""Recordings that differ from a committed one in exactly known ways, for baseline comparisons."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from otel_groundedness.otlp.files import iter_otlp_file, write_otlp_file
from otel_groundedness.records import LogEventRecord, SpanRecord

# XORed into every id: the same conversations, as if the traffic had been generated again.
FRESH_IDS = 0x5EED


def write_variant(
    source: Path,
    dest: Path,
    *,
    drop_trace: int | None = None,
    edit: tuple[int, str, str] | None = None,
    fresh_ids: bool = False,
) -> None:
    """``source`` without the trace ``drop_trace``, with ``old`` replaced by ``new`` in every text of
    the trace named by ``edit`` (its answer, where it is repeated), and with new ids if ``fresh_ids``."""
    spans: list[SpanRecord] = []
    events: list[LogEventRecord] = []
    for chunk in iter_otlp_file(source):
        spans += [span for span in chunk.spans if span.trace_id != drop_trace]
        events += [event for event in chunk.log_events if event.trace_id != drop_trace]
    if edit is not None:
        trace_id, old, new = edit
        spans = [
            dataclasses.replace(span, attributes=_replaced(span.attributes, old, new))
            if span.trace_id == trace_id
            else span
            for span in spans
        ]
    if fresh_ids:
        spans = [
            dataclasses.replace(
                span,
                trace_id=span.trace_id ^ FRESH_IDS,
                span_id=span.span_id ^ FRESH_IDS,
                parent_span_id=None if span.parent_span_id is None else span.parent_span_id ^ FRESH_IDS,
            )
            for span in spans
        ]
        events = [
            dataclasses.replace(event, trace_id=event.trace_id ^ FRESH_IDS, span_id=event.span_id ^ FRESH_IDS)
            for event in events
        ]
    write_otlp_file(dest, spans, events)


def _replaced(attributes: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    return {
        key: value.replace(old, new) if isinstance(value, str) else value for key, value in attributes.items()
    }
