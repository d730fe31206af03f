"""Score recorded spans and log events with the live processor's engine, trace by trace.

Records of one trace are fed to ``PairingBuffer`` in the order a live processor sees them (agent
starts, log events and span ends by timestamp), each released turn is scored with ``score``,
and scored spans get the same attributes and ``gen_ai.evaluation.result`` event as live.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from otel_groundedness.conventions import read_log_event, read_span
from otel_groundedness.evaluator import Evaluator, describe
from otel_groundedness.pairing import PairingBuffer, PairingLimits, Release
from otel_groundedness.records import LogEventRecord, SpanEventRecord, SpanFacts, SpanRecord, Turn
from otel_groundedness.scoring import GroundednessPolicy, GroundednessReport, score
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.evaluation import evaluation_attributes, span_attributes

# Offline there is no memory pressure from other traces (one trace is buffered at a time) and
# no clock: only a trace larger than this is cut short, as the live buffer would do.
_REPLAY_LIMITS = PairingLimits(max_traces=1, max_trace_bytes=64 * 1024 * 1024, trace_ttl_s=float("inf"))


@dataclass(frozen=True, slots=True)
class ScoredTurn:
    """A turn, the span its score belongs to, and the report."""

    span: SpanRecord
    turn: Turn
    report: GroundednessReport


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
    on_trace: Callable[[], None] | None = None,
) -> ReplayResult:
    """Pair and score recorded telemetry; ``on_trace`` is called after each trace (progress)."""
    span_list = list(spans)
    by_trace: dict[int, list[_Step]] = defaultdict(list)
    for position, record in enumerate(span_list):
        facts = read_span(record)
        opens_agent = _opens_agent(record)
        if facts is None and not opens_agent:
            continue  # live, such a span is forwarded untouched
        if opens_agent:
            by_trace[record.trace_id].append(_Step(record.start_time_ns, 0, position, record))
        # An agent no adapter can read (facts None) still closes its turn when it ends.
        by_trace[record.trace_id].append(_Step(record.end_time_ns, 2, position, record, facts))
    for position, event in enumerate(log_events):
        if _is_genai_input(event):
            by_trace[event.trace_id].append(_Step(event.timestamp_ns, 1, position, event))

    result = ReplayResult(traces=len(by_trace))
    evaluator = describe(policy if policy is not None else GroundednessPolicy())
    enriched: dict[int, SpanRecord] = {}
    for steps in by_trace.values():
        for scored in _replay_trace(sorted(steps, key=_Step.order), policy, result.skipped):
            result.scored.append(scored)
            enriched[id(scored.span)] = _enrich(scored, evaluator)
        if on_trace is not None:
            on_trace()
    result.spans = [enriched.get(id(record), record) for record in span_list]
    result.scored = [replace(scored, span=enriched[id(scored.span)]) for scored in result.scored]
    return result


@dataclass(frozen=True, slots=True)
class _Step:
    timestamp_ns: int
    phase: int  # 0 agent start, 1 log event, 2 span end: the order at equal timestamps
    position: int
    record: SpanRecord | LogEventRecord
    facts: SpanFacts | None = None

    def order(self) -> tuple[int, int, int]:
        return (self.timestamp_ns, self.phase, self.position)


def _replay_trace(
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
