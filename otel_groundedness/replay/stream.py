"""The second pass of a replay: read requests in the index's order, score each trace once it is whole.

Records wait in memory only while their trace is open, from its first request to its last one (per
``TraceIndex``); then the trace is replayed with ``core.score_trace`` and handed out, and forgotten.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path

from otel_groundedness.core.trace_feed import ScoredTrace, score_trace
from otel_groundedness.records import LogEventRecord, SpanRecord
from otel_groundedness.replay.otlp_files import InvalidInputError, iter_otlp_file
from otel_groundedness.replay.trace_index import TraceIndex
from otel_groundedness.scoring import GroundednessPolicy


@dataclass(frozen=True, slots=True)
class Step:
    """What reading one more request released: whole traces, and their records in input order."""

    traces: list[ScoredTrace]  # in order of first appearance
    spans: list[SpanRecord]  # of these traces, in input order; scored ones enriched
    log_events: list[LogEventRecord]
    values_cut: int  # in the request just read
    bytes_read: int  # of all inputs so far


@dataclass(slots=True)
class _OpenTrace:
    """Records of a trace not yet whole, numbered in input order so they can be written back in it."""

    spans: list[SpanRecord] = field(default_factory=list)
    span_numbers: list[int] = field(default_factory=list)
    log_events: list[LogEventRecord] = field(default_factory=list)
    event_numbers: list[int] = field(default_factory=list)


def replay_files(
    paths: Sequence[Path], index: TraceIndex, *, policy: GroundednessPolicy | None = None
) -> Iterator[Step]:
    """One ``Step`` per request of ``paths``, read in ``index.order`` (``InvalidInputError`` on bad input).

    ``index`` must come from ``index_files(paths)``; its ``last`` entries are consumed.
    """
    readers = [iter_otlp_file(path) for path in paths]
    offsets = [0] * len(paths)
    open_traces: dict[int, _OpenTrace] = {}
    due: dict[int, list[int]] = {}  # position -> traces whose last request it is
    number = 0
    for position, file_number in enumerate(index.order):
        chunk = next(readers[file_number], None)
        if chunk is None:
            raise InvalidInputError(f"{paths[file_number]}: the file changed while it was replayed")
        offsets[file_number] = chunk.end_offset
        records: list[SpanRecord | LogEventRecord] = [*chunk.spans, *chunk.log_events]
        for record in records:
            trace = open_traces.get(record.trace_id)
            if trace is None:
                trace = open_traces[record.trace_id] = _OpenTrace()
                due.setdefault(_last_position(index, record.trace_id, position), []).append(record.trace_id)
            if isinstance(record, SpanRecord):
                trace.spans.append(record)
                trace.span_numbers.append(number)
            else:
                trace.log_events.append(record)
                trace.event_numbers.append(number)
            number += 1
        released: list[tuple[_OpenTrace, ScoredTrace]] = []
        for trace_id in due.pop(position, ()):
            del index.last[trace_id]
            trace = open_traces.pop(trace_id)
            released.append((trace, score_trace(trace_id, trace.spans, trace.log_events, policy=policy)))
        yield _step(released, chunk.values_cut, sum(offsets))


def _last_position(index: TraceIndex, trace_id: int, position: int) -> int:
    last = index.last.get(trace_id, -1)
    if last < position:  # released already, or unseen by the first pass: the input is not what it read
        raise InvalidInputError(
            f"trace {trace_id:032x} has records the first pass did not see (did an input change meanwhile?)"
        )
    return last


def _step(released: list[tuple[_OpenTrace, ScoredTrace]], values_cut: int, bytes_read: int) -> Step:
    spans = sorted(
        (pair for opened, trace in released for pair in zip(opened.span_numbers, trace.spans, strict=True)),
        key=itemgetter(0),
    )
    events = sorted(
        (
            pair
            for opened, trace in released
            for pair in zip(opened.event_numbers, trace.log_events, strict=True)
        ),
        key=itemgetter(0),
    )
    return Step(
        [trace for _, trace in released],
        [span for _, span in spans],
        [event for _, event in events],
        values_cut,
        bytes_read,
    )
