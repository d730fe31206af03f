"""Admission of export requests: each is split, checked against the bounds and committed whole, or
refused whole, so that a sender's retry never duplicates a record.

With the write-ahead log, a request is on disk before it is admitted (and so acknowledged), its
spans already accepted within the duplicate window are left out (counted as duplicates), and each
part that leaves (what is forwarded at once, each trace held) carries its entry and part, released
once delivered. A replay sends only the parts not delivered before the stop.

With the front tier's ring known, a logs request's records whose trace another gateway owns are
sent to that gateway (``log_routing``), unless another gateway sent them here.

A trace request's spans that the core takes (``core.takes_span_keys``) are moved into the trace buffer;
the rest of the request is queued for export as it came. A logs request is queued for export whole
and at once (logs are never changed); its GenAI content records (``core.is_genai_input``) are also
kept, converted, for pairing with their trace.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Literal

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord

from otel_groundedness.core import is_genai_input, takes_span_keys
from otel_groundedness.core.log_events import log_event_bytes
from otel_groundedness.gateway.export_queue import ExportQueue, Outgoing
from otel_groundedness.gateway.gateway_metrics import GatewayMetrics
from otel_groundedness.gateway.log_routing import peer_part, split_by_owner
from otel_groundedness.gateway.otlp_env import Signal
from otel_groundedness.gateway.ring import RingView
from otel_groundedness.gateway.trace_buffer import Arrival, HeldSpan, Origin, TraceBuffer
from otel_groundedness.gateway.write_ahead_log import FORWARDED, Pending, WriteAheadLog
from otel_groundedness.otlp.codec import log_event_record
from otel_groundedness.otlp.values import ValueReader

# What a sender is asked to wait before retrying a refused request.
RETRY_AFTER_S = 1.0
# Python objects around a held span, beyond its encoded bytes.
_HELD_SPAN_OVERHEAD_BYTES = 256

RefusalReason = Literal["buffer_full", "queue_full", "log_full", "draining"]
# A replayed request waits this long between tries for room in the buffer and the queue.
_REPLAY_WAIT_S = 0.05


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request was not taken; the sender should retry after ``retry_after_s``."""

    reason: RefusalReason
    retry_after_s: float = RETRY_AFTER_S


class Intake:
    """Thread-safe: every receiver thread calls it; ``close`` stops admission for good."""

    def __init__(
        self,
        buffer: TraceBuffer,
        queue: ExportQueue,
        metrics: GatewayMetrics,
        wal: WriteAheadLog | None = None,
        ring: RingView | None = None,
    ) -> None:
        self._buffer = buffer
        self._queue = queue
        self._metrics = metrics
        self._wal = wal
        self._ring = ring
        self._lock = threading.Lock()
        self._accepting = True

    @property
    def accepting(self) -> bool:
        return self._accepting

    def close(self) -> None:
        """Refuse every request from now on (``draining``); one already admitted stays admitted."""
        with self._lock:
            self._accepting = False

    def traces(self, request: ExportTraceServiceRequest, *, body: bytes | None = None) -> Refusal | None:
        """``body``: the request as received, when the receiver has it (else it is encoded again
        where needed: for the write-ahead log, or to forward it)."""
        if not self._accepting:
            return self._refuse(Refusal("draining"))
        span_ids: list[bytes] = []
        if self._wal is not None:
            span_ids = [
                span.span_id for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans
            ]
            repeated = self._wal.duplicates(span_ids)
            if repeated:
                span_ids = _drop_spans(request, repeated, span_ids)
                self._metrics.duplicates(len(repeated))
            if body is None or repeated:
                body = request.SerializeToString()
        split = _split_traces(request, body)
        if split is None:
            return None
        total, arrivals, outgoing = split
        return self._admit("traces", total, arrivals, _leaving(outgoing, {}), body or b"", span_ids)

    def logs(
        self, request: ExportLogsServiceRequest, *, from_peer: bool = False, body: bytes | None = None
    ) -> Refusal | None:
        """``from_peer``: another gateway sent these records to their owner; they stay here."""
        if not self._accepting:
            return self._refuse(Refusal("draining"))
        if self._wal is not None and body is None:
            body = request.SerializeToString()
        total = _log_count(request)
        if not total:
            return None
        peers = self._route(request, from_peer)
        # Forwarded as received unless records were moved out of it.
        _, arrivals, outgoing = _split_logs(request, None if peers else body) or (0, {}, None)
        return self._admit("logs", total, arrivals, _leaving(outgoing, peers), body or b"", [], from_peer)

    def replay(self, pending: Pending) -> None:
        """Admit a request the write-ahead log held at start, waiting for room as long as it takes;
        the parts delivered before the stop are left out."""
        assert self._wal is not None
        peers: dict[str, Outgoing] = {}
        if pending.signal == "traces":
            split = _split_traces(ExportTraceServiceRequest.FromString(pending.body), pending.body)
        else:
            request = ExportLogsServiceRequest.FromString(pending.body)
            peers = self._route(request, pending.from_peer)
            split = _split_logs(request, None if peers else pending.body)
        _, arrivals, outgoing = split or (0, {}, None)
        arrivals = {trace_id: a for trace_id, a in arrivals.items() if trace_id not in pending.done}
        leaving = [(part, item) for part, item in _leaving(outgoing, peers) if part not in pending.done]
        self._wal.hold(pending.entry, [*arrivals, *(part for part, _ in leaving)])
        items = _mark(pending.entry, arrivals, leaving)
        while self._commit(arrivals, items) is not None:
            time.sleep(_REPLAY_WAIT_S)
        held = sum(len(arrival.spans) for arrival in arrivals.values())
        self._metrics.replayed(pending.signal, held + sum(item.items for item in items))

    def _route(self, request: ExportLogsServiceRequest, from_peer: bool) -> dict[str, Outgoing]:
        """The records of ``request`` other gateways own, moved out of it, as one request per owner."""
        if self._ring is None or from_peer:
            return {}
        return {
            owner: Outgoing("logs", moved.SerializeToString(), _log_count(moved), peer=owner)
            for owner, moved in split_by_owner(request, self._ring).items()
        }

    def _admit(
        self,
        signal: Signal,
        total: int,
        arrivals: dict[bytes, Arrival],
        leaving: list[tuple[bytes, Outgoing]],
        body: bytes,
        span_ids: list[bytes],
        from_peer: bool = False,
    ) -> Refusal | None:
        entry = None
        items = [item for _, item in leaving]
        if self._wal is not None:
            # On disk before it is admitted: what is admitted may leave (and be released) at once.
            parts = [*arrivals, *(part for part, _ in leaving)]
            entry = self._wal.append(signal, body, span_ids, parts, from_peer)
            if entry is None:
                return self._refuse(Refusal("log_full"))
            items = _mark(entry, arrivals, leaving)
        refusal = self._commit(arrivals, items)
        if refusal is not None:
            if entry is not None and self._wal is not None:
                self._wal.discard(entry)
            return self._refuse(refusal)
        self._metrics.received(signal, total)
        rerouted = sum(item.items for item in items if item.peer is not None)
        if rerouted:
            self._metrics.rerouted(rerouted, "to_owner")
        return None

    def _refuse(self, refusal: Refusal) -> Refusal:
        self._metrics.refused(refusal.reason)
        return refusal

    def _commit(self, arrivals: dict[bytes, Arrival], items: list[Outgoing]) -> Refusal | None:
        # Outside this lock the buffer only loses traces (to the scorer), so its check holds until
        # ``add``; the scorer also fills the queue, hence the atomic ``try_put`` before ``add``.
        with self._lock:
            if not self._accepting:
                return Refusal("draining")
            if arrivals and not self._buffer.has_room(arrivals):
                return Refusal("buffer_full")
            if items and not self._queue.try_put(items):
                return Refusal("queue_full")
            if arrivals:
                self._buffer.add(arrivals)
        return None


Split = tuple[int, dict[bytes, Arrival], Outgoing | None]


def _split_traces(request: ExportTraceServiceRequest, body: bytes | None) -> Split | None:
    """Items, the spans held per trace, and the rest to forward at once; None for an empty request.
    ``body``: the request as received, if known (forwarded as it is when nothing is held)."""
    total = sum(len(scope.spans) for resource in request.resource_spans for scope in resource.scope_spans)
    if not total:
        return None
    arrivals = _take_spans(request)
    held = sum(len(arrival.spans) for arrival in arrivals.values())
    outgoing = None
    if total > held:
        encoded = body if body is not None and not held else request.SerializeToString()
        outgoing = Outgoing("traces", encoded, total - held)
    return total, arrivals, outgoing


def _split_logs(request: ExportLogsServiceRequest, body: bytes | None) -> Split | None:
    """As ``_split_traces``; a logs request is forwarded whole (``body``, if known, is it)."""
    total = _log_count(request)
    if not total:
        return None
    encoded = body if body is not None else request.SerializeToString()
    return total, _note_content(request), Outgoing("logs", encoded, total)


def _log_count(request: ExportLogsServiceRequest) -> int:
    return sum(len(scope.log_records) for resource in request.resource_logs for scope in resource.scope_logs)


def _leaving(outgoing: Outgoing | None, peers: dict[str, Outgoing]) -> list[tuple[bytes, Outgoing]]:
    """What leaves a request at once, each with its write-ahead log part: the rest of the request
    (downstream) and the records sent to their owners."""
    leaving = [(FORWARDED, outgoing)] if outgoing is not None else []
    return leaving + [(peer_part(owner), item) for owner, item in peers.items()]


def _mark(
    entry: int, arrivals: dict[bytes, Arrival], leaving: list[tuple[bytes, Outgoing]]
) -> list[Outgoing]:
    """Tie the parts to their write-ahead log entry; the outgoing items, carrying theirs."""
    for arrival in arrivals.values():
        arrival.entry = entry
    return [item.with_parts(((entry, part),)) for part, item in leaving]


def _drop_spans(
    request: ExportTraceServiceRequest, positions: list[int], span_ids: list[bytes]
) -> list[bytes]:
    """Remove the spans at ``positions`` (in request order) from ``request``; the ids left."""
    dropped = set(positions)
    position = 0
    for resource_spans in request.resource_spans:
        for scope_spans in resource_spans.scope_spans:
            doomed = [index for index in range(len(scope_spans.spans)) if position + index in dropped]
            position += len(scope_spans.spans)
            for index in reversed(doomed):
                del scope_spans.spans[index]
    _remove_empty(request)
    return [span_id for index, span_id in enumerate(span_ids) if index not in dropped]


def _take_spans(request: ExportTraceServiceRequest) -> dict[bytes, Arrival]:
    """Move the spans the core takes out of ``request``, grouped by trace in request order."""
    arrivals: dict[bytes, Arrival] = {}
    emptied = False
    for resource_spans in request.resource_spans:
        resource: bytes | None = None
        for scope_spans in resource_spans.scope_spans:
            taken = [
                index
                for index, span in enumerate(scope_spans.spans)
                # Keys read lazily: a GenAI span is taken at its first gate key.
                if span.trace_id and takes_span_keys((kv.key for kv in span.attributes), span.name)
            ]
            if not taken:
                continue
            if resource is None:
                resource = resource_spans.resource.SerializeToString(deterministic=True)
            scope = scope_spans.scope.SerializeToString(deterministic=True)
            origin = Origin(resource, resource_spans.schema_url, scope, scope_spans.schema_url)
            origin_bytes = len(resource) + len(scope)
            for index in taken:
                span = scope_spans.spans[index]
                encoded = span.SerializeToString()
                trace_id = span.trace_id
                arrival = arrivals.get(trace_id)
                if arrival is None:
                    arrival = arrivals[trace_id] = Arrival(size=origin_bytes)
                arrival.spans.append(HeldSpan(origin, encoded))
                arrival.size += len(encoded) + _HELD_SPAN_OVERHEAD_BYTES
            for index in reversed(taken):
                del scope_spans.spans[index]
            emptied = emptied or not scope_spans.spans
    if emptied:
        _remove_empty(request)
    return arrivals


def _remove_empty(request: ExportTraceServiceRequest) -> None:
    for resource_index in reversed(range(len(request.resource_spans))):
        scopes = request.resource_spans[resource_index].scope_spans
        for scope_index in reversed(range(len(scopes))):
            if not scopes[scope_index].spans:
                del scopes[scope_index]
        if not scopes:
            del request.resource_spans[resource_index]


def _note_content(request: ExportLogsServiceRequest) -> dict[bytes, Arrival]:
    """The GenAI content records of ``request``, converted for pairing and grouped by trace."""
    arrivals: dict[bytes, Arrival] = {}
    reader = ValueReader()
    for resource_logs in request.resource_logs:
        for scope_logs in resource_logs.scope_logs:
            for log in scope_logs.log_records:
                trace_id = log.trace_id  # read once: each read of a bytes field builds a new object
                if not (trace_id and log.span_id and is_genai_input(_event_name(log))):
                    continue
                record = log_event_record(log, reader)
                if record is None:
                    continue
                arrival = arrivals.get(trace_id)
                if arrival is None:  # not ``setdefault``: it would build an Arrival for every record
                    arrival = arrivals[trace_id] = Arrival()
                arrival.logs.append(record)
                arrival.size += log_event_bytes(record)
    return arrivals


def _event_name(log: LogRecord) -> str | None:
    if log.event_name:
        return log.event_name
    for item in log.attributes:
        if item.key == "event.name":
            return item.value.string_value or None
    return None
