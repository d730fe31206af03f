"""``EvaluationCore``: reading, pairing and scoring behind every host, with its metrics.

A host hands in neutral records with an opaque ``handle`` (the live SDK span, a recorded span) and
gets ``Decision``s back: each handle exactly once, with an ``Evaluation`` when its turn was scored.
No call raises: adapter, pairing, scoring and metric failures are contained, counted in ``errors``
and logged once at debug level, and the handle still comes back (unscored).

A scored turn's metrics are recorded in the context of its span, so they carry exemplars. The live
processor gives each handle's own ``SpanContext`` (sampled flag and all); a host of received spans
(gateway, replay) gets the turn's ids marked sampled: SDKs export sampled spans only, and the OTLP
``flags`` field cannot say otherwise (the Python SDK's exporter leaves the W3C flag bits at 0).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from opentelemetry.trace import SpanContext, TraceFlags

from otel_groundedness.conventions import read_log_event, read_span
from otel_groundedness.core.evaluation import Evaluation, evaluate
from otel_groundedness.evaluator import Evaluator, describe
from otel_groundedness.pairing import Decisions, PairingBuffer, PairingLimits, Release, SkipReason
from otel_groundedness.records import LogEventRecord, SpanFacts, SpanRecord, Turn
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry.evaluation import scorer_key
from otel_groundedness.telemetry.instruments import GroundednessInstruments

_logger = logging.getLogger(__name__)

H = TypeVar("H")


@dataclass(frozen=True, slots=True)
class Decision(Generic[H]):
    """What to do with one handle: write ``evaluation`` onto it if present, then forward it."""

    handle: H
    evaluation: Evaluation | None = None
    skip: SkipReason | None = None


def _always() -> bool:
    return True


_SAMPLED = TraceFlags(TraceFlags.SAMPLED)


def received_span_context(turn: Turn) -> SpanContext:
    """The scored span of a received turn: its ids, sampled (see the module docstring)."""
    return SpanContext(turn.trace_id, turn.span_id, is_remote=True, trace_flags=_SAMPLED)


class EvaluationCore(Generic[H]):
    """One pairing buffer and the policy it scores with; not thread-safe (one worker owns it).

    Score once: a turn whose spans already carry a result of this very scorer (evaluator id, version,
    policy fingerprint), from a tier in front or another processor, is passed through unscored
    (``already_scored``); another version or policy scores it again, and each result keeps its own
    provenance. ``rescore`` turns the rule off for replay, whose job is to score recordings again.
    """

    def __init__(
        self,
        limits: PairingLimits,
        *,
        policy: GroundednessPolicy,
        clock: Callable[[], float],
        instruments: GroundednessInstruments | None = None,
        span_context: Callable[[H], SpanContext | None] | None = None,
        rescore: bool = False,
    ) -> None:
        """``span_context`` gives a handle's span context, to record its turn's metrics in."""
        self._policy = policy
        self._span_context = span_context
        self.evaluator: Evaluator = describe(policy)
        self._scorer = None if rescore else scorer_key(self.evaluator)
        self._buffer: PairingBuffer[H] = PairingBuffer(limits, clock)
        self._instruments = instruments
        self._reported_error = False
        self.errors = 0

    @property
    def trace_count(self) -> int:
        return self._buffer.trace_count

    @property
    def byte_count(self) -> int:
        return self._buffer.byte_count

    def span_ended(self, record: SpanRecord, handle: H) -> list[Decision[H]]:
        """An ended span: released now (scored or not) or held for its agent."""
        try:
            facts = read_span(record)
        except Exception:
            return self.unreadable(handle)
        return self.span_read(record, facts, handle)

    def span_read(self, record: SpanRecord, facts: SpanFacts | None, handle: H) -> list[Decision[H]]:
        """``span_ended`` for a host that already read the span's facts (to order a whole trace)."""
        return self._decide(self._buffer.add_span(record, facts, handle))

    def unreadable(self, handle: H) -> list[Decision[H]]:
        """A span the host or an adapter could not read: forwarded as is, counted ``malformed``."""
        self.report_error()
        self._record_skip("malformed")
        return [Decision(handle, skip="malformed")]

    def log_event(self, record: LogEventRecord) -> list[Decision[H]]:
        """Event-form content: evidence joins its trace, an answer waits for its span."""
        try:
            facts = read_log_event(record)
        except Exception:
            self.report_error()
            self._record_skip("malformed")
            return []
        if facts is None:
            return []
        return self._decide(self._buffer.add_log(record, facts))

    def agent_started(self, trace_id: int, span_id: int, start_ns: int) -> list[Decision[H]]:
        return self._decide(self._buffer.agent_started(trace_id, span_id, start_ns))

    def agent_lost(self, trace_id: int, span_id: int, end_ns: int) -> list[Decision[H]]:
        return self._decide(self._buffer.agent_lost(trace_id, span_id, end_ns))

    def expire(self) -> list[Decision[H]]:
        """Traces idle past the TTL leave; their held answers unscored (``evicted``)."""
        try:
            decisions = self._buffer.expire()
        except Exception:  # a trace that fails to leave stays, and leaves at drain
            self.report_error()
            return []
        return self._decide(decisions)

    def drain(self, in_time: Callable[[], bool] = _always) -> list[Decision[H]]:
        """Everything held, each answer scored on its own while ``in_time()`` holds, then unscored."""
        return [self._release(release, score_it=in_time()) for release in self._buffer.drain()]

    def reset(self) -> None:
        """Forget everything without releasing (a forked child must not forward the parent's spans)."""
        self._buffer.reset()

    def report_error(self) -> None:
        """Count an error (the host's own too); the first is logged at debug level, never louder."""
        self.errors += 1
        if not self._reported_error:
            self._reported_error = True
            _logger.debug("otel-groundedness: error while processing telemetry", exc_info=True)

    # --- internals ---

    def _decide(self, decisions: Decisions[H]) -> list[Decision[H]]:
        if decisions.failed:
            self.report_error()
        for reason in decisions.evictions:
            self._measure(GroundednessInstruments.record_eviction, reason)
        return [self._release(release) for release in decisions.releases]

    def _release(self, release: Release[H], *, score_it: bool = True) -> Decision[H]:
        if release.skip is not None:
            self._record_skip(release.skip)
        if release.turn is None or not score_it:
            return Decision(release.handle, skip=release.skip)
        if self._scorer in release.turn.scored_by:
            self._record_skip("already_scored")
            return Decision(release.handle, skip="already_scored")
        try:
            evaluation = evaluate(release.turn, self._policy, self.evaluator)
        except Exception:
            self.report_error()
            self._record_skip("error")
            return Decision(release.handle, skip="error")
        self._measure(self._record_evaluation, release.handle, evaluation)
        return Decision(release.handle, evaluation)

    def _record_evaluation(
        self, instruments: GroundednessInstruments, handle: H, evaluation: Evaluation
    ) -> None:
        turn = evaluation.turn
        span = self._span_context(handle) if self._span_context else received_span_context(turn)
        instruments.record_evaluation(evaluation.report, turn.context, evaluation.duration_s, span)

    def _record_skip(self, reason: str) -> None:
        self._measure(GroundednessInstruments.record_skip, reason)

    def _measure(self, record: Callable[..., None], *args: Any) -> None:
        # Metrics are a side channel: their failure must not cost a span its score.
        if self._instruments is None:
            return
        try:
            record(self._instruments, *args)
        except Exception:
            self.report_error()
