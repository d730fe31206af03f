"""Score recorded spans and log events with the live processor's engine, trace by trace.

A trace is replayed whole (``replay_trace``): its records are fed to ``PairingBuffer`` in the order
a live processor sees them (agent starts, log events and span ends by timestamp), each released turn
is scored with ``score``, and scored spans get the same attributes and ``gen_ai.evaluation.result``
event as live.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from otel_groundedness.conventions import read_log_event, read_span
from otel_groundedness.evaluator import Evaluator, describe
from otel_groundedness.pairing import PairingBuffer, PairingLimits, Release
from otel_groundedness.records import LogEventRecord, SpanEventRecord, SpanFacts, SpanRecord, Turn
from otel_groundedness.scoring import GroundednessPolicy, GroundednessReport, score
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.evaluation import evaluation_attributes, span_attributes

# Offline there is no memory pressure from other traces (each trace has a buffer of its own) and
# no clock: only a trace larger than this is cut short, as the live buffer would do.
_REPLAY_LIMITS = PairingLimits(max_traces=1, max_trace_bytes=64 * 1024 * 1024, trace_ttl_s=float("inf"))


@dataclass(frozen=True, slots=True)
class ScoredTurn:
    """A turn, the span its score belongs to, and the report."""

    span: SpanRecord
    turn: Turn
    report: GroundednessReport


@dataclass(frozen=True, slots=True)
class TraceReplay:
    """One trace replayed: its records, the turns scored in it and the turns skipped."""

    trace_id: int
    spans: list[SpanRecord]  # input order, scored ones enriched
    log_events: list[LogEventRecord]
    scored: list[ScoredTurn]
    skipped: Counter[str]
    paired: bool  # it held records the pairing buffer reads (counted as a trace in summaries)


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
        trace = replay_trace(trace_id, trace_spans, trace_events, policy=policy)
        result.scored.extend(trace.scored)
        result.skipped.update(trace.skipped)
        result.traces += trace.paired
        enriched.update((id(original), copy) for original, copy in zip(trace_spans, trace.spans, strict=True))
    result.spans = [enriched[id(record)] for record in span_list]
    return result


def replay_trace(
    trace_id: int,
    spans: Sequence[SpanRecord],
    log_events: Sequence[LogEventRecord] = (),
    *,
    policy: GroundednessPolicy | None = None,
) -> TraceReplay:
    """Pair and score every record of one trace (all of them: a trace is only scored whole)."""
    steps: list[_Step] = []
    for position, record in enumerate(spans):
        facts = read_span(record)
        opens_agent = _opens_agent(record)
        if facts is None and not opens_agent:
            continue  # live, such a span is forwarded untouched
        if opens_agent:
            steps.append(_Step(record.start_time_ns, 0, position, record))
        # An agent no adapter can read (facts None) still closes its turn when it ends.
        steps.append(_Step(record.end_time_ns, 2, position, record, facts))
    for position, event in enumerate(log_events):
        if _is_genai_input(event):
            steps.append(_Step(event.timestamp_ns, 1, position, event))
    skipped: Counter[str] = Counter()
    scored = _pair_and_score(sorted(steps, key=_Step.order), policy, skipped)
    evaluator = describe(policy if policy is not None else GroundednessPolicy())
    enriched = {id(turn.span): _enrich(turn, evaluator) for turn in scored}
    return TraceReplay(
        trace_id,
        [enriched.get(id(record), record) for record in spans],
        list(log_events),
        [replace(turn, span=enriched[id(turn.span)]) for turn in scored],
        skipped,
        paired=bool(steps),
    )


@dataclass(frozen=True, slots=True)
class _Step:
    timestamp_ns: int
    phase: int  # 0 agent start, 1 log event, 2 span end: the order at equal timestamps
    position: int
    record: SpanRecord | LogEventRecord
    facts: SpanFacts | None = None

    def order(self) -> tuple[int, int, int]:
        return (self.timestamp_ns, self.phase, self.position)


def _pair_and_score(
    steps: Iterable[_Step], policy: GroundednessPolicy | None, skipped: Counter[str]
) -> list[ScoredTurn]:
    buffer: PairingBuffer[SpanRecord] = PairingBuffer(_REPLAY_LIMITS, clock=lambda: 0.0)
    releases: list[Release[SpanRecord]] = []
    for step in steps:
        record = step.record
        if isinstance(record, LogEventRecord):
            log_facts = read_log_event(record)
            if log_facts is not None:
                releases.extend(buffer.add_log(record, log_facts).releases)
        elif step.phase == 0:
            releases.extend(
                buffer.agent_started(record.trace_id, record.span_id, record.start_time_ns).releases
            )
        else:
            releases.extend(buffer.add_span(record, step.facts, record).releases)
    releases.extend(buffer.drain())
    scored: list[ScoredTurn] = []
    for release in releases:
        if release.skip is not None:
            skipped[release.skip] += 1
        if release.turn is not None:
            turn = release.turn
            report = score(turn.answer, turn.evidence, user_prompt=turn.user_prompt, policy=policy)
            scored.append(ScoredTurn(release.handle, turn, report))
    return scored


def _is_genai_input(event: LogEventRecord) -> bool:
    # As the live log-record processor: GenAI events only, and never our own evaluation results.
    return event.event_name.startswith("gen_ai.") and event.event_name != names.EVENT_EVALUATION_RESULT


def _opens_agent(record: SpanRecord) -> bool:
    # The live processor's on_start rule (semconv agent span name), applied to the recorded span.
    return record.name.startswith("invoke_agent")


def _enrich(scored: ScoredTurn, evaluator: Evaluator) -> SpanRecord:
    report, turn, span = scored.report, scored.turn, scored.span
    event = SpanEventRecord(
        names.EVENT_EVALUATION_RESULT,
        evaluation_attributes(report, turn.context.response_id, evaluator),
        span.end_time_ns,
    )
    attributes: Mapping[str, Any] = {
        **span.attributes,
        **span_attributes(report, turn.evidence_truncated, evaluator),
    }
    return replace(span, attributes=attributes, events=(*span.events, event))
