"""The worker's handler: SDK spans and log records in, through the core, enriched spans out.

Everything here runs on the scoring worker thread (or, for ``abandon``, on a thread giving up on
queued items), never on the application's hot path. This module only converts: SDK spans to neutral
records, and the core's decisions back to SDK spans (an enriched copy), the ``gen_ai.evaluation.result``
log record and downstream calls. Every span handed in is forwarded downstream exactly once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

from opentelemetry._logs import Logger
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor
from opentelemetry.trace import NonRecordingSpan, SpanContext, set_span_in_context

from otel_groundedness.core import Decision, EvaluationCore
from otel_groundedness.pairing import PairingLimits
from otel_groundedness.processor.config import ProcessorSettings
from otel_groundedness.processor.enrich import enriched_copy
from otel_groundedness.processor.sdk_records import span_record_from_sdk
from otel_groundedness.records import LogEventRecord
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.instruments import GroundednessInstruments


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


def _span_context(span: ReadableSpan) -> SpanContext | None:
    context: SpanContext | None = span.context  # the SDK leaves the property unannotated
    return context


class SpanWorkHandler:
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
        self._instruments = instruments
        self._evaluation_logger = evaluation_logger
        limits = PairingLimits(
            settings.max_traces, settings.max_trace_bytes, settings.trace_ttl_s, settings.max_buffer_bytes
        )
        self._core: EvaluationCore[ReadableSpan] = EvaluationCore(
            limits, policy=policy, clock=clock, instruments=instruments, span_context=_span_context
        )

    @property
    def errors(self) -> int:
        """Errors caught on the worker (downstream, adapters, pairing, scoring); logged once."""
        return self._core.errors

    # --- WorkHandler ---

    def handle(self, item: WorkItem) -> None:
        if isinstance(item, ReadableSpan):
            self._handle_span(item)
            return
        try:
            if isinstance(item, LogEventRecord):
                decisions = self._core.log_event(item)
            elif isinstance(item, AgentStart):
                decisions = self._core.agent_started(item.trace_id, item.span_id, item.start_ns)
            else:
                decisions = self._core.agent_lost(item.trace_id, item.span_id, item.end_ns)
        except Exception:  # the core contains its own failures; this is the last line
            self._core.report_error()
            return
        self._apply(decisions)

    def abandon(self, item: WorkItem) -> None:
        if isinstance(item, ReadableSpan):
            self.forward(item)

    def tick(self) -> None:
        self._apply(self._core.expire())

    def drain(self, in_time: Callable[[], bool]) -> None:
        self._apply(self._core.drain(in_time))

    def reset_after_fork(self) -> None:
        self._core.reset()

    # --- spans ---

    def forward(self, span: ReadableSpan) -> None:
        """Hand a span to the downstream processors; their errors never reach the caller."""
        try:
            self._downstream.on_end(span)
        except Exception:
            self._core.report_error()

    def record_drop(self) -> None:
        try:
            self._instruments.record_drop()
        except Exception:
            self._core.report_error()

    def _handle_span(self, span: ReadableSpan) -> None:
        try:
            try:
                record = span_record_from_sdk(span)
            except Exception:
                decisions = self._core.unreadable(span)
            else:
                decisions = self._core.span_ended(record, span)
        except Exception:  # not taken by the core, so it still has to go out
            self._core.report_error()
            self.forward(span)
            return
        self._apply(decisions)

    def _apply(self, decisions: list[Decision[ReadableSpan]]) -> None:
        for decision in decisions:
            self._release(decision)

    def _release(self, decision: Decision[ReadableSpan]) -> None:
        """Forward once: the enriched copy when scored, else the span itself; never raises."""
        span, evaluation = decision.handle, decision.evaluation
        if evaluation is None:
            self.forward(span)
            return
        try:
            event = (
                (names.EVENT_EVALUATION_RESULT, evaluation.event_attributes)
                if self._settings.emit_span_event
                else None
            )
            out = enriched_copy(span, evaluation.span_attributes, event, evaluation.span_defaults)
        except Exception:
            self._core.report_error()
            out = span
        self.forward(out)
        # The log record is a side channel: its failure must not cost the span its score.
        if self._settings.emit_log_record and span.context is not None:
            try:
                self._evaluation_logger.emit(
                    event_name=names.EVENT_EVALUATION_RESULT,
                    context=set_span_in_context(NonRecordingSpan(span.context)),
                    attributes=evaluation.event_attributes,
                )
            except Exception:
                self._core.report_error()
