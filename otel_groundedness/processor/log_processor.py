"""``GroundednessLogRecordProcessor``: feeds event-form GenAI content into the span processor's pairing.

Instrumentations that log message content (``gen_ai.user.message``, ``gen_ai.tool.message``,
``gen_ai.choice``, ``gen_ai.client.inference.operation.details``) instead of putting it on spans are
joined to their span by trace and span id. Records are passed to ``downstream`` unchanged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Protocol

from opentelemetry.sdk._logs import LogRecordProcessor, ReadWriteLogRecord

from otel_groundedness.core import is_genai_input
from otel_groundedness.core.log_events import log_event_from_fields
from otel_groundedness.records import LogEventRecord

_logger = logging.getLogger(__name__)

_SHUTDOWN_FLUSH_TIMEOUT_S = 10.0


class LogEventSink(Protocol):
    """What the log processor needs of the span processor whose worker it shares (no import of it)."""

    def submit_log_event(self, record: LogEventRecord) -> None: ...

    def flush_queue(self, timeout_s: float) -> bool: ...


class GroundednessLogRecordProcessor(LogRecordProcessor):
    """Add to the ``LoggerProvider``; shares the queue, worker and pairing of ``span_processor``
    (a ``GroundednessSpanProcessor``; its ``log_processor()`` builds this)."""

    def __init__(
        self,
        span_processor: LogEventSink,
        downstream: LogRecordProcessor | Sequence[LogRecordProcessor] = (),
    ) -> None:
        self._span_processor = span_processor
        self._downstream = (downstream,) if isinstance(downstream, LogRecordProcessor) else tuple(downstream)

    def on_emit(self, log_record: ReadWriteLogRecord) -> None:
        try:
            self._take(log_record)
        except Exception:
            _logger.debug("otel-groundedness: could not read a log record", exc_info=True)
        for processor in self._downstream:
            try:
                processor.on_emit(log_record)
            except Exception:
                _logger.debug("otel-groundedness: downstream on_emit raised", exc_info=True)

    def _take(self, log_record: ReadWriteLogRecord) -> None:
        record = log_record.log_record
        if not record.trace_id or not record.span_id:
            return
        flags = record.trace_flags
        if flags is not None and not flags.sampled:
            return
        attributes = record.attributes or {}
        name = record.event_name or attributes.get("event.name")
        # Decided before copying anything: most log records of an application are not GenAI events,
        # and our own evaluation records come back through the same provider as output, not input.
        if not is_genai_input(name):
            return
        event = log_event_from_fields(
            record.trace_id,
            record.span_id,
            name,
            # Copied: the SDK record stays writable for later processors.
            dict(attributes),
            record.body,
            record.timestamp,
        )
        if event is not None:
            self._span_processor.submit_log_event(event)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Process the shared queue, then flush ``downstream``, all within ``timeout_millis``."""
        deadline = time.monotonic() + timeout_millis / 1000
        flushed = self._span_processor.flush_queue(timeout_millis / 1000)
        for processor in self._downstream:
            remaining_ms = max(0, int((deadline - time.monotonic()) * 1000))
            try:
                flushed = processor.force_flush(remaining_ms) and flushed
            except Exception:
                _logger.debug("otel-groundedness: downstream force_flush raised", exc_info=True)
                flushed = False
        return flushed

    def shutdown(self) -> None:
        """Processes the queue, then shuts ``downstream`` down; the worker stops with the span processor.

        A ``LoggerProvider`` created after the ``TracerProvider`` is shut down first at exit: scoring
        what is queued now lets its evaluation records reach log exporters that are still open.
        """
        self._span_processor.flush_queue(_SHUTDOWN_FLUSH_TIMEOUT_S)
        for processor in self._downstream:
            try:
                processor.shutdown()
            except Exception:
                _logger.debug("otel-groundedness: downstream shutdown raised", exc_info=True)
