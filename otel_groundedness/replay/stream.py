"""The second pass of a replay: read requests in the index's order, score each trace once it is whole.

Records wait in memory only while their trace is open, from its first request to its last one (per
``TraceIndex``); then the trace is replayed with ``core.score_trace`` and handed out, and forgotten.
Every record carries a key, its place in the whole input (request position, then its number in the
request), so that the traces of several partitions (``--jobs``) merge back into one order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from otel_groundedness.core.trace_feed import ScoredTrace, score_trace
from otel_groundedness.otlp.files import InvalidInputError, iter_otlp_file
from otel_groundedness.otlp.partition import EVERYTHING, Partition
from otel_groundedness.records import LogEventRecord, SpanRecord
from otel_groundedness.replay.trace_index import TraceIndex
from otel_groundedness.scoring import GroundednessPolicy

_NUMBER_BITS = 32  # a record's key: request position << _NUMBER_BITS | its number in the request


@dataclass(frozen=True, slots=True)
class ReleasedTrace:
    """A scored trace, with the keys of its first record and of each of its records."""

    trace: ScoredTrace
    key: int
    span_keys: list[int]  # of trace.spans
    event_keys: list[int]  # of trace.log_events


@dataclass(frozen=True, slots=True)
class Step:
    """What reading one more request released: whole traces, in order of first appearance."""

    traces: list[ReleasedTrace]
    values_cut: int  # in the request just read
    bytes_read: int  # of all inputs so far


@dataclass(slots=True)
class _OpenTrace:
    """Records of a trace not yet whole, with their keys."""

    key: int
    spans: list[SpanRecord] = field(default_factory=list)
    span_keys: list[int] = field(default_factory=list)
    log_events: list[LogEventRecord] = field(default_factory=list)
    event_keys: list[int] = field(default_factory=list)


def replay_files(
    paths: Sequence[Path],
    index: TraceIndex,
    *,
    policy: GroundednessPolicy | None = None,
    partition: Partition = EVERYTHING,
) -> Iterator[Step]:
    """One ``Step`` per request of ``paths``, read in ``index.order`` (``InvalidInputError`` on bad input),
    releasing the traces ``partition`` owns.

    ``index`` must come from ``index_files(paths, partition=partition)``; its ``last`` entries are consumed.
    """
    readers = [iter_otlp_file(path, partition) for path in paths]
    offsets = [0] * len(paths)
    open_traces: dict[int, _OpenTrace] = {}
    due: dict[int, list[int]] = {}  # position -> traces whose last request it is
    for position, file_number in enumerate(index.order):
        chunk = next(readers[file_number], None)
        if chunk is None:
            raise InvalidInputError(f"{paths[file_number]}: the file changed while it was replayed")
        offsets[file_number] = chunk.end_offset
        records: list[SpanRecord | LogEventRecord] = [*chunk.spans, *chunk.log_events]
        for record, number in zip(records, chunk.numbers, strict=True):
            key = position << _NUMBER_BITS | number
            trace = open_traces.get(record.trace_id)
            if trace is None:
                trace = open_traces[record.trace_id] = _OpenTrace(key)
                due.setdefault(_last_position(index, record.trace_id, position), []).append(record.trace_id)
            if isinstance(record, SpanRecord):
                trace.spans.append(record)
                trace.span_keys.append(key)
            else:
                trace.log_events.append(record)
                trace.event_keys.append(key)
        released: list[ReleasedTrace] = []
        for trace_id in due.pop(position, ()):
            del index.last[trace_id]
            opened = open_traces.pop(trace_id)
            scored = score_trace(trace_id, opened.spans, opened.log_events, policy=policy, rescore=True)
            released.append(ReleasedTrace(scored, opened.key, opened.span_keys, opened.event_keys))
        yield Step(released, chunk.values_cut, sum(offsets))


def _last_position(index: TraceIndex, trace_id: int, position: int) -> int:
    last = index.last.get(trace_id, -1)
    if last < position:  # released already, or unseen by the first pass: the input is not what it read
        raise InvalidInputError(
            f"trace {trace_id:032x} has records the first pass did not see (did an input change meanwhile?)"
        )
    return last
