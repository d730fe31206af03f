"""Scoring one whole trace of records, fed to the core in the order a live processor sees them.

Replay and the gateway receive a trace's records after the fact; ordered by time (an agent's start,
then log events, then span ends, at equal timestamps) they pair exactly as they would have live.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter

from otel_groundedness.conventions import read_span
from otel_groundedness.core.evaluation import Evaluation, enrich_record
from otel_groundedness.core.evaluation_core import Decision, EvaluationCore
from otel_groundedness.core.intake import is_genai_input, opens_agent
from otel_groundedness.evaluator import Evaluator
from otel_groundedness.pairing import END_STAMP_TOLERANCE_NS, PairingLimits
from otel_groundedness.records import LogEventRecord, SpanFacts, SpanRecord, Turn
from otel_groundedness.scoring import GroundednessPolicy, GroundednessReport
from otel_groundedness.telemetry.instruments import GroundednessInstruments

# A trace is scored alone, with no clock: only a trace larger than this is cut short, as the live
# buffer would cut it.
TRACE_LIMITS = PairingLimits(max_traces=1, max_trace_bytes=64 * 1024 * 1024, trace_ttl_s=float("inf"))


@dataclass(frozen=True, slots=True)
class ScoredTurn:
    """A turn scored: the input span its score belongs to, that span's input position, the evaluation.

    A host that keeps its own form of each input span (the gateway's protobuf spans) writes
    ``evaluation`` onto the one at ``position``; one that forwards records reads ``span``.
    """

    source: SpanRecord
    position: int
    evaluation: Evaluation

    @property
    def span(self) -> SpanRecord:
        """The input span with the evaluation added, built on demand (the gateway never needs it)."""
        return enrich_record(self.source, self.evaluation)

    @property
    def turn(self) -> Turn:
        return self.evaluation.turn

    @property
    def report(self) -> GroundednessReport:
        return self.evaluation.report


@dataclass(frozen=True, slots=True)
class ScoredTrace:
    """One trace scored: its records, the turns scored in it and the turns skipped."""

    trace_id: int
    inputs: Sequence[SpanRecord]
    log_events: list[LogEventRecord]
    scored: list[ScoredTurn]
    skipped: Counter[str]
    paired: bool  # it held records the pairing buffer reads (counted as a trace in summaries)
    evaluator: Evaluator

    @property
    def spans(self) -> list[SpanRecord]:
        """The input spans in order, the scored ones enriched (built on demand)."""
        spans = list(self.inputs)
        for turn in self.scored:
            spans[turn.position] = turn.span
        return spans


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs several times more
class _Step:
    timestamp_ns: int
    phase: int  # 0 agent start, 1 log event, 2 span end: the order at equal timestamps
    position: int
    record: SpanRecord | LogEventRecord
    facts: SpanFacts | None = None


# The feeding order, read in C (a method per step costs a Python call each).
_STEP_ORDER = attrgetter("timestamp_ns", "phase", "position")


def score_trace(
    trace_id: int,
    spans: Sequence[SpanRecord],
    log_events: Sequence[LogEventRecord] = (),
    *,
    policy: GroundednessPolicy | None = None,
    instruments: GroundednessInstruments | None = None,
    rescore: bool = False,
) -> ScoredTrace:
    """Pair and score every record of one trace (all of them: a trace is only scored whole).

    ``rescore``: score turns this scorer already scored too (replay), instead of passing them through.
    """
    core: EvaluationCore[int] = EvaluationCore(
        TRACE_LIMITS,
        policy=policy or GroundednessPolicy(),
        clock=lambda: 0.0,
        instruments=instruments,
        rescore=rescore,
    )
    decisions: list[Decision[int]] = []
    steps: list[_Step] = []
    for position, record in enumerate(spans):
        try:
            facts = read_span(record)
        except Exception:
            decisions.extend(core.unreadable(position))
            continue
        agent = opens_agent(record.name)
        if facts is None and not agent:
            continue  # live, such a span is forwarded untouched
        if agent:
            steps.append(_Step(record.start_time_ns, 0, position, record))
        # An agent no adapter can read (facts None) still closes its turn when it ends. Its end is
        # fed after the spans stamped to end just after it: they ended first (see the tolerance).
        end_ns = record.end_time_ns + END_STAMP_TOLERANCE_NS if agent else record.end_time_ns
        steps.append(_Step(end_ns, 2, position, record, facts))
    for position, event in enumerate(log_events):
        if is_genai_input(event.event_name):
            steps.append(_Step(event.timestamp_ns, 1, position, event))
    for step in sorted(steps, key=_STEP_ORDER):
        item = step.record
        if isinstance(item, LogEventRecord):
            decisions.extend(core.log_event(item))
        elif step.phase == 0:
            decisions.extend(core.agent_started(item.trace_id, item.span_id, item.start_time_ns))
        else:
            decisions.extend(core.span_read(item, step.facts, step.position))
    decisions.extend(core.drain())

    scored: list[ScoredTurn] = []
    skipped: Counter[str] = Counter()
    for decision in decisions:
        if decision.skip is not None:
            skipped[decision.skip] += 1
        if decision.evaluation is not None:
            scored.append(ScoredTurn(spans[decision.handle], decision.handle, decision.evaluation))
    return ScoredTrace(
        trace_id, spans, list(log_events), scored, skipped, paired=bool(steps), evaluator=core.evaluator
    )
