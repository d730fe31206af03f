"""``GroundednessSpanProcessor``: wraps the exporting span processor(s) and scores GenAI answers.

Hot path (application thread): ``on_end`` checks the sampled flag and whether the span is a GenAI
span; other spans go downstream at once, GenAI spans are queued for the worker without blocking
(queue full: forwarded unscored, drop counted). Reading, pairing and scoring run on the worker.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from opentelemetry._logs import LoggerProvider, get_logger
from opentelemetry.context import Context
from opentelemetry.metrics import MeterProvider
from opentelemetry.sdk._logs import LogRecordProcessor
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor, SynchronousMultiSpanProcessor

from otel_groundedness.core import opens_agent, takes_span
from otel_groundedness.core.log_events import log_event_bytes
from otel_groundedness.evaluator import describe
from otel_groundedness.processor.agent_ledger import AgentLedger
from otel_groundedness.processor.config import ProcessorSettings
from otel_groundedness.processor.log_processor import GroundednessLogRecordProcessor
from otel_groundedness.processor.queued_bytes import span_bytes
from otel_groundedness.processor.sdk_attributes import raw_attributes
from otel_groundedness.processor.work_handler import AgentLost, AgentStart, SpanWorkHandler, WorkItem
from otel_groundedness.processor.worker import ScoringWorker
from otel_groundedness.records import LogEventRecord
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.instruments import GroundednessInstruments

_logger = logging.getLogger(__name__)

# The worker wakes at least this often to expire idle traces.
_MAX_TICK_INTERVAL_S = 1.0
# Matches the SDK batch processors' default shutdown budget.
_SHUTDOWN_TIMEOUT_S = 30.0


class GroundednessSpanProcessor(SpanProcessor):
    """Scores GenAI answers for groundedness and forwards every span to ``downstream`` exactly once.

    Scored spans are forwarded as an enriched copy (``gen_ai.evaluation.groundedness.*`` attributes
    and a ``gen_ai.evaluation.result`` event); all others unchanged. Arguments left ``None`` come
    from their ``OTEL_GROUNDEDNESS_*`` environment twins (see ``docs/processor.md``).
    """

    def __init__(
        self,
        downstream: SpanProcessor | Sequence[SpanProcessor],
        *,
        policy: GroundednessPolicy | None = None,
        meter_provider: MeterProvider | None = None,
        logger_provider: LoggerProvider | None = None,
        max_queue_size: int | None = None,
        max_queue_bytes: int | None = None,
        max_traces: int | None = None,
        max_trace_bytes: int | None = None,
        max_buffer_bytes: int | None = None,
        trace_ttl_s: float | None = None,
        emit_span_event: bool | None = None,
        emit_log_record: bool | None = None,
    ) -> None:
        if isinstance(downstream, SpanProcessor):
            self._downstream = downstream
        else:
            fan_out = SynchronousMultiSpanProcessor()  # type: ignore[no-untyped-call]  # SDK lacks the annotation
            for processor in downstream:
                fan_out.add_span_processor(processor)
            self._downstream = fan_out
        self.settings = ProcessorSettings.resolve(
            max_queue_size=max_queue_size,
            max_queue_bytes=max_queue_bytes,
            max_traces=max_traces,
            max_trace_bytes=max_trace_bytes,
            max_buffer_bytes=max_buffer_bytes,
            trace_ttl_s=trace_ttl_s,
            emit_span_event=emit_span_event,
            emit_log_record=emit_log_record,
        )
        policy = policy if policy is not None else GroundednessPolicy.from_env()
        # The gauge may be read before the worker exists (a metric collection during construction).
        self._instruments = GroundednessInstruments(meter_provider, self._queue_size, describe(policy))
        self._handler = SpanWorkHandler(
            self._downstream,
            settings=self.settings,
            policy=policy,
            instruments=self._instruments,
            evaluation_logger=get_logger(names.INSTRUMENTATION_SCOPE, logger_provider=logger_provider),
        )
        # Agents whose start reached the worker: their end must reach it too (see ``_enqueue``).
        self._agents = AgentLedger(self.settings.max_traces, self.settings.trace_ttl_s)
        self._worker: ScoringWorker[WorkItem] = ScoringWorker(
            self._handler,
            max_queue_size=self.settings.max_queue_size,
            max_queue_bytes=self.settings.max_queue_bytes,
            tick_interval_s=min(_MAX_TICK_INTERVAL_S, self.settings.trace_ttl_s / 4),
        )

    def _queue_size(self) -> int:
        worker: ScoringWorker[WorkItem] | None = getattr(self, "_worker", None)
        return worker.queue_size if worker is not None else 0

    @property
    def worker_errors(self) -> int:
        """Errors caught on the worker thread so far (each logged once at debug level)."""
        return self._handler.errors

    def log_processor(
        self, downstream: LogRecordProcessor | Sequence[LogRecordProcessor] = ()
    ) -> GroundednessLogRecordProcessor:
        """A log-record processor feeding event-form GenAI content into this processor's pairing."""
        return GroundednessLogRecordProcessor(self, downstream)

    def submit_log_event(self, record: LogEventRecord) -> None:
        """Queue event-form content for pairing (used by the log-record processor); never blocks.

        When the queue is full the record is skipped uncounted: ``groundedness.queue.dropped`` counts
        spans, and spans from the same burst are dropped (and counted) too.
        """
        if not self._worker.closed:
            self._worker.submit(record, size=log_event_bytes(record))

    def flush_queue(self, timeout_s: float) -> bool:
        """Process everything queued so far (spans and log events) within ``timeout_s``."""
        return self._worker.flush(timeout_s)

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        try:
            self._downstream.on_start(span, parent_context)
        except Exception:
            _logger.debug("otel-groundedness: downstream on_start raised", exc_info=True)
        try:
            if opens_agent(span.name):
                context = span.context
                if context.trace_flags.sampled and self._agents.announce(context.span_id, time.monotonic()):
                    start = AgentStart(context.trace_id, context.span_id, span.start_time or 0)
                    if not self._worker.submit(start):
                        self._agents.withdraw(context.span_id)
        except Exception:
            _logger.debug("otel-groundedness: on_start check failed", exc_info=True)

    def on_end(self, span: ReadableSpan) -> None:
        # Cheapest rejections first: most spans of an application are not GenAI spans.
        try:
            name = span.name
            # An agent recognised by name at start must reach the worker even without GenAI attributes.
            candidate = takes_span(raw_attributes(span), name) and span.context.trace_flags.sampled
        except Exception:
            candidate = False
        try:
            if candidate and self._enqueue(span):
                return
        except Exception:
            # Raised before the span was queued (``_enqueue`` returns right after queueing it).
            _logger.debug("otel-groundedness: could not queue a span", exc_info=True)
        try:
            self._downstream.on_end(span)
        except Exception:
            _logger.debug("otel-groundedness: downstream on_end raised", exc_info=True)

    def _enqueue(self, span: ReadableSpan) -> bool:
        """Queue a GenAI span for the worker; False if the caller must forward it itself."""
        if self._worker.closed:
            return False
        announced = opens_agent(span.name) and self._agents.withdraw(span.context.span_id)
        if self._worker.submit(span, size=span_bytes(span)):
            return True
        self._handler.record_drop()
        if announced:
            # Answers held for this agent would otherwise wait for the TTL. The ledger's capacity
            # bounds these notices, so they may pass the full queue.
            context = span.context
            self._worker.submit(AgentLost(context.trace_id, context.span_id, span.end_time or 0), force=True)
        return False

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Score what is queued, then flush downstream. Answers waiting for an open agent stay held."""
        deadline = time.monotonic() + timeout_millis / 1000
        flushed = self._worker.flush(timeout_millis / 1000)
        remaining_ms = max(0, int((deadline - time.monotonic()) * 1000))
        try:
            return self._downstream.force_flush(remaining_ms) and flushed
        except Exception:
            _logger.debug("otel-groundedness: downstream force_flush raised", exc_info=True)
            return False

    def shutdown(self) -> None:
        """Score what is queued and held (within 30 s), forward the rest unscored, shut downstream."""
        self._worker.shutdown(_SHUTDOWN_TIMEOUT_S)
        try:
            self._downstream.shutdown()
        except Exception:
            _logger.debug("otel-groundedness: downstream shutdown raised", exc_info=True)
