"""Released traces turned into plain results where they were scored: figures, digests, report entries
and encoded records, everything the writing process needs and nothing it must compute.

With ``--jobs`` every worker renders its own traces (turn entries and OTLP encoding cost about as much
as scoring), and the writing process only merges the results of one request position by their keys
and copies bytes. With one job the same code runs in process, so the outputs are the same bytes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from otel_groundedness.otlp.encoded import EncodedLog, EncodedSpan, RecordEncoder
from otel_groundedness.replay.stream import Step
from otel_groundedness.replay.turn_result import TurnResult


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """What to render: turn entries (a JSON or HTML report is written), and OTLP records (``--out``,
    protobuf or JSON, ``None`` for none)."""

    entries: bool
    otlp_proto: bool | None


@dataclass(frozen=True, slots=True)
class TraceResult:
    key: int  # where the trace first appeared in the input
    spans: int
    paired: bool
    skipped: Counter[str]
    turns: list[TurnResult]


@dataclass(frozen=True, slots=True)
class StepResult:
    """What one request position released, rendered; traces and records in input order."""

    traces: list[TraceResult]
    spans: list[EncodedSpan]
    log_events: list[EncodedLog]
    values_cut: int
    bytes_read: int

    def turns(self) -> Iterator[TurnResult]:
        for trace in self.traces:
            yield from trace.turns


class StepRenderer:
    """Renders the steps of one replay (it keeps the record encoder's cache)."""

    def __init__(self, options: RenderOptions) -> None:
        self._entries = options.entries
        self._encoder = None if options.otlp_proto is None else RecordEncoder(proto=options.otlp_proto)

    def __call__(self, step: Step) -> StepResult:
        traces: list[TraceResult] = []
        spans: list[EncodedSpan] = []
        log_events: list[EncodedLog] = []
        for released in step.traces:
            trace = released.trace
            turns = [TurnResult.of(scored, with_entry=self._entries) for scored in trace.scored]
            traces.append(TraceResult(released.key, len(trace.inputs), trace.paired, trace.skipped, turns))
            if self._encoder is not None:
                spans += map(self._encoder.span, released.span_keys, trace.spans)
                log_events += map(self._encoder.log, released.event_keys, trace.log_events)
        spans.sort(key=_key)
        log_events.sort(key=_key)
        return StepResult(traces, spans, log_events, step.values_cut, step.bytes_read)


def merge(results: Sequence[StepResult]) -> StepResult:
    """The results of several partitions for one request position, as one process renders it."""
    if len(results) == 1:
        return results[0]
    return StepResult(
        sorted((trace for result in results for trace in result.traces), key=_key),
        sorted((span for result in results for span in result.spans), key=_key),
        sorted((event for result in results for event in result.log_events), key=_key),
        sum(result.values_cut for result in results),
        results[0].bytes_read,
    )


def _key(item: TraceResult | EncodedSpan | EncodedLog) -> int:
    return item.key
