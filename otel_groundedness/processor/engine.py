"""Worker-side work: read spans and log events, pair them, score turns, emit results, forward spans.

Everything here runs on the scoring worker thread (or, for ``abandon``, on a thread giving up on
queued items), never on the application's hot path. Every span handed in is forwarded downstream
exactly once: enriched if its turn was scored, unchanged otherwise.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import NamedTuple

from opentelemetry._logs import Logger
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor
from opentelemetry.trace import NonRecordingSpan, set_span_in_context

from otel_groundedness.conventions import read_log_event, read_span
from otel_groundedness.evaluator import describe
from otel_groundedness.pairing import Decisions, PairingBuffer, PairingLimits, Release
from otel_groundedness.processor.config import ProcessorSettings
from otel_groundedness.processor.enrich import enriched_copy
from otel_groundedness.processor.sdk_records import span_record_from_sdk
from otel_groundedness.records import LogEventRecord, Turn
from otel_groundedness.scoring import GroundednessPolicy, score
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.evaluation import evaluation_attributes, span_attributes
from otel_groundedness.telemetry.instruments import GroundednessInstruments

_logger = logging.getLogger(__name__)


class AgentStart(NamedTuple):
    """Queued from ``on_start`` when a span looks like an agent: its answers wait for its end."""

    trace_id: int
    span_id: int
    start_ns: int


class AgentLost(NamedTuple):
    """Queued when an agent span was dropped (queue full): the answers it holds must not wait for it."""

    trace_id: int
    span_id: int
    end_ns: int


WorkItem = ReadableSpan | LogEventRecord | AgentStart | AgentLost


class GroundednessEngine:
    """The ``WorkHandler`` behind both processors."""

    def __init__(
        self,
        downstream: SpanProcessor,
        *,
        settings: ProcessorSettings,
        policy: GroundednessPolicy,
        instruments: GroundednessInstruments,
        evaluation_logger: Logger,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._downstream = downstream
        self._settings = settings
        self._policy = policy
        self._evaluator = describe(policy)
        self._instruments = instruments
        self._evaluation_logger = evaluation_logger
        limits = PairingLimits(
            settings.max_traces, settings.max_trace_bytes, settings.trace_ttl_s, settings.max_buffer_bytes
        )
        self._buffer: PairingBuffer[ReadableSpan] = PairingBuffer(limits, clock)
        self._reported_error = False
        self.errors = 0  # errors caught on the worker (downstream, adapters, scoring); logged once

    # --- WorkHandler ---

    def handle(self, item: WorkItem) -> None:
        try:
            if isinstance(item, ReadableSpan):
                self._handle_span(item)
            elif isinstance(item, LogEventRecord):
                self._handle_log(item)
            elif isinstance(item, AgentStart):
                self._apply(self._buffer.agent_started(item.trace_id, item.span_id, item.start_ns))
            else:
                self._apply(self._buffer.agent_lost(item.trace_id, item.span_id, item.end_ns))
        except Exception:
            self._report_error()

    def abandon(self, item: WorkItem) -> None:
        if isinstance(item, ReadableSpan):
            self.forward(item)

    def tick(self) -> None:
        try:
            self._apply(self._buffer.expire())
        except Exception:
            self._report_error()

    def drain(self, in_time: Callable[[], bool]) -> None:
        for release in self._buffer.drain():
            if in_time():
                self._release(release)
            else:
                self.forward(release.handle)

    def reset_after_fork(self) -> None:
        self._buffer.reset()

    # --- span and log handling ---

    def forward(self, span: ReadableSpan) -> None:
        """Hand a span to the downstream processors; their errors never reach the caller."""
        try:
            self._downstream.on_end(span)
        except Exception:
            self._report_error()

    def record_drop(self) -> None:
        try:
            self._instruments.record_drop()
        except Exception:
            self._report_error()

    def _handle_span(self, span: ReadableSpan) -> None:
        try:
            record = span_record_from_sdk(span)
            facts = read_span(record)
        except Exception:
            self._report_error()
            self._skip("malformed")
            self.forward(span)
            return
        try:
            decisions = self._buffer.add_span(record, facts, span)
        except Exception:
            # The buffer contains its own failures; reaching here means even that failed.
            self._report_error()
            self.forward(span)
            return
        self._apply(decisions)

    def _handle_log(self, record: LogEventRecord) -> None:
        try:
            facts = read_log_event(record)
        except Exception:
            self._report_error()
            self._skip("malformed")
            return
        if facts is not None:
            self._apply(self._buffer.add_log(record, facts))

    def _apply(self, decisions: Decisions[ReadableSpan]) -> None:
        if decisions.failed:
            self._report_error()
        for reason in decisions.evictions:
            try:
                self._instruments.record_eviction(reason)
            except Exception:
                self._report_error()
        for release in decisions.releases:
            self._release(release)

    def _release(self, release: Release[ReadableSpan]) -> None:
        if release.skip is not None:
            self._skip(release.skip)
        if release.turn is None:
            self.forward(release.handle)
            return
        try:
            scored = self._score(release.handle, release.turn)
        except Exception:
            self._report_error()
            self._skip("error")
            scored = release.handle
        self.forward(scored)

    def _score(self, span: ReadableSpan, turn: Turn) -> ReadableSpan:
        started = time.perf_counter()
        report = score(turn.answer, turn.evidence, user_prompt=turn.user_prompt, policy=self._policy)
        duration_s = time.perf_counter() - started
        result = evaluation_attributes(report, turn.context.response_id, self._evaluator)
        event = (names.EVENT_EVALUATION_RESULT, result) if self._settings.emit_span_event else None
        enriched = enriched_copy(
            span, span_attributes(report, turn.evidence_truncated, self._evaluator), event
        )
        # Metrics and the log record are side channels: their failure must not cost the span its score.
        try:
            self._instruments.record_evaluation(report, turn.context, duration_s)
        except Exception:
            self._report_error()
        if self._settings.emit_log_record and span.context is not None:
            try:
                self._evaluation_logger.emit(
                    event_name=names.EVENT_EVALUATION_RESULT,
                    context=set_span_in_context(NonRecordingSpan(span.context)),
                    attributes=result,
                )
            except Exception:
                self._report_error()
        return enriched

    def _skip(self, reason: str) -> None:
        try:
            self._instruments.record_skip(reason)
        except Exception:
            self._report_error()

    def _report_error(self) -> None:
        self.errors += 1
        # Logged once at debug level: the processor must stay silent in the application's logs.
        if not self._reported_error:
            self._reported_error = True
            _logger.debug("otel-groundedness: error while processing telemetry", exc_info=True)
