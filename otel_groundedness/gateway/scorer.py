"""The scoring thread: due traces out of the buffer, each scored whole by ``core.score_trace``, the
evaluations written onto the received spans, and the result queued for export.

Every held span leaves exactly once: scored, or unscored when scoring failed or the shutdown
deadline has passed (counted in ``groundedness.gateway.unscored``). The output carries the write-ahead
log parts of its traces, released once both its spans and its evaluation records were delivered.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.core import score_trace
from otel_groundedness.gateway.export_queue import ExportQueue, Outgoing
from otel_groundedness.gateway.gateway_metrics import GatewayMetrics
from otel_groundedness.gateway.otlp_out import logs_request, scored_output, trace_request
from otel_groundedness.gateway.trace_buffer import HeldTrace, Origin, TraceBuffer
from otel_groundedness.gateway.write_ahead_log import Part, WriteAheadLog
from otel_groundedness.otlp.codec import span_record
from otel_groundedness.otlp.values import ValueReader
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry.instruments import GroundednessInstruments

_logger = logging.getLogger(__name__)

# The longest the thread sleeps before looking at the buffer again.
_MAX_WAIT_S = 0.5


class Scorer:
    """Owns the scoring thread; ``drain`` ends it and releases everything still held."""

    def __init__(
        self,
        buffer: TraceBuffer,
        queue: ExportQueue,
        metrics: GatewayMetrics,
        *,
        policy: GroundednessPolicy,
        instruments: GroundednessInstruments | None,
        batch_bytes: int,
        wal: WriteAheadLog | None = None,
        wall_clock_ns: Callable[[], int] = time.time_ns,
    ) -> None:
        self._buffer = buffer
        self._wal = wal
        self._queue = queue
        self._metrics = metrics
        self._policy = policy
        self._instruments = instruments
        self._batch_bytes = batch_bytes
        self._wall_clock_ns = wall_clock_ns
        self._stop = threading.Event()
        self._queue_until = float("inf")  # shortened by ``drain``, so a wait for queue room ends
        self._thread = threading.Thread(target=self._run, name="groundedness-scorer", daemon=True)
        self._reported_error = False

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def start(self) -> None:
        self._thread.start()

    def drain(self, score_until: float, queue_until: float) -> None:
        """Stop the thread, then release every held trace: scored while ``monotonic() < score_until``,
        unscored after; output waits for queue room until ``queue_until``."""
        self._queue_until = queue_until
        self._stop.set()
        self._thread.join()
        self._release(self._buffer.take_all(), score_until)

    def _run(self) -> None:
        while not self._stop.is_set():
            wait = self._buffer.seconds_to_next_due()
            if wait is None or wait > 0:
                self._stop.wait(min(wait if wait is not None else _MAX_WAIT_S, _MAX_WAIT_S))
                continue
            # Waits for queue room as long as it takes: a full queue holds the buffer, and a full
            # buffer makes senders retry.
            self._release(self._buffer.take_due(self._batch_bytes), float("inf"))

    def _release(self, traces: Iterable[HeldTrace], score_until: float) -> None:
        spans: list[tuple[Origin, bytes]] = []
        records: list[tuple[Origin, bytes]] = []
        parts: list[Part] = []
        size = 0
        # Resource attributes and scope name as read, by origin: the traces of one request share them.
        origins: dict[int, tuple[dict[str, Any], str]] = {}
        for trace in traces:
            # Requests stay under the batch size, so the next tier's request limit is met; a larger
            # trace goes alone. The held size is above a span's serialized size, but scoring adds
            # attributes and an event (provenance, reasons: up to about 1 KB a scored span), so a
            # quarter of the batch is kept for them.
            if spans and size + trace.size > self._batch_bytes * 3 // 4:
                self._queue_output(spans, records, parts)
                spans, records, parts, size = [], [], [], 0
            encoded = [held.span for held in trace.spans]
            if time.monotonic() < score_until:
                records.extend(self._score(trace, encoded, origins))
            else:
                self._metrics.unscored(len(trace.spans), "shutdown_deadline")
            spans.extend(zip([held.origin for held in trace.spans], encoded, strict=True))
            parts.extend((entry, trace.trace_id) for entry in trace.entries)
            size += trace.size
        self._queue_output(spans, records, parts)

    def _score(
        self, trace: HeldTrace, encoded: list[bytes], origins: dict[int, tuple[dict[str, Any], str]]
    ) -> list[tuple[Origin, bytes]]:
        """Score ``trace``; the scored spans' entries in ``encoded`` are replaced by the spans with
        their evaluation (the others leave as they came)."""
        if not trace.spans:
            return []  # content records whose spans went elsewhere: nothing to score them onto
        try:
            reader = ValueReader()
            messages = []
            records = []
            for held in trace.spans:
                origin = held.origin
                read = origins.get(id(origin))
                if read is None:
                    resource = reader.attributes(Resource.FromString(origin.resource).attributes)
                    read = origins[id(origin)] = (
                        resource,
                        InstrumentationScope.FromString(origin.scope).name,
                    )
                span = Span.FromString(held.span)
                messages.append(span)
                records.append(span_record(span, read[0], read[1], reader))
            scored = score_trace(
                int.from_bytes(trace.trace_id, "big"),
                records,
                trace.logs,
                policy=self._policy,
                instruments=self._instruments,
            )
        except Exception:  # the core contains its own failures; this guards the conversion
            self._report_error()
            self._metrics.unscored(len(trace.spans), "error")
            return []
        now_ns = self._wall_clock_ns()
        output = []
        for turn in scored.scored:
            at = turn.position
            encoded[at], record = scored_output(
                messages[at], encoded[at], turn.source.attributes, turn.evaluation, now_ns
            )
            output.append((trace.spans[at].origin, record))
        return output

    def _queue_output(
        self, spans: list[tuple[Origin, bytes]], records: list[tuple[Origin, bytes]], parts: list[Part]
    ) -> None:
        items = []
        if spans:
            items.append(Outgoing("traces", trace_request(spans), len(spans)))
        if records:
            items.append(Outgoing("logs", logs_request(records), len(records)))
        if self._wal is not None and parts:
            if not items:  # content records whose spans went elsewhere: nothing to deliver
                self._wal.release(parts)
                return
            if len(items) == 2:
                self._wal.retain(parts)
            items = [item.with_parts(tuple(parts)) for item in items]
        for item in items:
            self._put(item)

    def _put(self, item: Outgoing) -> None:
        if not self._queue.put(item, lambda: self._queue_until):
            self._metrics.dropped(item.signal, item.items, "shutdown_deadline")
            _logger.warning(
                "dropped at the shutdown deadline: no room in the export queue",
                extra={"signal": item.signal, "items": item.items},
            )

    def _report_error(self) -> None:
        if not self._reported_error:
            self._reported_error = True
            _logger.exception("scoring a trace failed; its spans are forwarded unscored")
