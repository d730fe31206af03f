"""Replay of records already in memory (tests, the demo's read-back): grouped by trace, each trace
scored whole by the core (``core.score_trace``), results in input order. ``otel-groundedness
replay`` streams files instead (``replay/stream.py``), with the same core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from otel_groundedness.core.trace_feed import ScoredTurn, score_trace
from otel_groundedness.records import LogEventRecord, SpanRecord
from otel_groundedness.scoring import GroundednessPolicy


@dataclass
class ReplayResult:
    """Everything a replay produced."""

    scored: list[ScoredTurn] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    spans: list[SpanRecord] = field(default_factory=list)  # input order; scored ones enriched
    traces: int = 0


def replay(
    spans: Iterable[SpanRecord],
    log_events: Iterable[LogEventRecord] = (),
    *,
    policy: GroundednessPolicy | None = None,
) -> ReplayResult:
    """Pair and score recorded telemetry held in memory, trace by trace in order of first appearance."""
    span_list = list(spans)
    by_trace: dict[int, tuple[list[SpanRecord], list[LogEventRecord]]] = {}
    for record in span_list:
        by_trace.setdefault(record.trace_id, ([], []))[0].append(record)
    for event in log_events:
        by_trace.setdefault(event.trace_id, ([], []))[1].append(event)
    result = ReplayResult()
    enriched: dict[int, SpanRecord] = {}
    for trace_id, (trace_spans, trace_events) in by_trace.items():
        trace = score_trace(trace_id, trace_spans, trace_events, policy=policy, rescore=True)
        result.scored.extend(trace.scored)
        result.skipped.update(trace.skipped)
        result.traces += trace.paired
        enriched.update((id(original), copy) for original, copy in zip(trace_spans, trace.spans, strict=True))
    result.spans = [enriched[id(record)] for record in span_list]
    return result
