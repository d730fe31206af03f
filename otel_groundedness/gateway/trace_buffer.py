"""GenAI records held per trace until the trace is due for scoring: idle for ``idle_s``, or held for
``max_wait_s`` since its first record. Bounded in traces and bytes; a full buffer refuses new records
(the sender retries) rather than evicting a trace before it is whole.

Spans are kept encoded as received (with their resource and scope), so that what goes out is what
came in plus the evaluation, and a span not scored leaves without being encoded again; the
``LogEventRecord``s are event-form content, kept only for pairing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from otel_groundedness.records import LogEventRecord


@dataclass(frozen=True, slots=True, eq=False)
class Origin:
    """The encoded resource and scope a span was received under (shared by the spans of one scope)."""

    resource: bytes
    resource_schema_url: str
    scope: bytes
    scope_schema_url: str

    @property
    def key(self) -> tuple[bytes, str, bytes, str]:
        """Equal for origins equal in content, whichever request they arrived in."""
        return (self.resource, self.resource_schema_url, self.scope, self.scope_schema_url)


@dataclass(frozen=True, slots=True)
class HeldSpan:
    origin: Origin
    span: bytes  # encoded


@dataclass(slots=True)
class Arrival:
    """One request's records for one trace, and the bytes they will hold."""

    spans: list[HeldSpan] = field(default_factory=list)
    logs: list[LogEventRecord] = field(default_factory=list)
    size: int = 0
    entry: int | None = None  # the request's write-ahead log entry


@dataclass(slots=True)
class HeldTrace:
    trace_id: bytes
    first_seen: float
    last_seen: float
    spans: list[HeldSpan] = field(default_factory=list)
    logs: list[LogEventRecord] = field(default_factory=list)
    size: int = 0
    entries: list[int] = field(default_factory=list)  # write-ahead log entries it holds a part of


class TraceBuffer:
    """Thread-safe: request threads add, the scorer takes."""

    def __init__(
        self,
        *,
        max_traces: int,
        max_bytes: int,
        idle_s: float,
        max_wait_s: float,
        clock: Callable[[], float],
    ) -> None:
        self._max_traces = max_traces
        self._max_bytes = max_bytes
        self._idle_s = idle_s
        self._max_wait_s = max_wait_s
        self._clock = clock
        self._lock = threading.Lock()
        # The same traces twice: by last arrival (idle order) and by first arrival (age order).
        self._by_last: OrderedDict[bytes, HeldTrace] = OrderedDict()
        self._by_first: dict[bytes, HeldTrace] = {}
        self._bytes = 0
        self._spans = 0

    @property
    def trace_count(self) -> int:
        return len(self._by_first)

    @property
    def byte_count(self) -> int:
        return self._bytes

    @property
    def span_count(self) -> int:
        return self._spans

    def has_room(self, arrivals: Mapping[bytes, Arrival]) -> bool:
        """Whether ``arrivals`` fit; stays true until ``add`` as long as only the scorer takes meanwhile."""
        with self._lock:
            new_traces = sum(1 for trace_id in arrivals if trace_id not in self._by_first)
            size = sum(arrival.size for arrival in arrivals.values())
            return (
                len(self._by_first) + new_traces <= self._max_traces and self._bytes + size <= self._max_bytes
            )

    def add(self, arrivals: Mapping[bytes, Arrival]) -> None:
        now = self._clock()
        with self._lock:
            for trace_id, arrival in arrivals.items():
                trace = self._by_first.get(trace_id)
                if trace is None:
                    trace = HeldTrace(trace_id, now, now)
                    self._by_first[trace_id] = trace
                else:
                    trace.last_seen = now
                    self._by_last.move_to_end(trace_id)
                self._by_last[trace_id] = trace
                trace.spans.extend(arrival.spans)
                trace.logs.extend(arrival.logs)
                if arrival.entry is not None:
                    trace.entries.append(arrival.entry)
                trace.size += arrival.size
                self._bytes += arrival.size
                self._spans += len(arrival.spans)

    def take_due(self, max_bytes: int) -> list[HeldTrace]:
        """Traces due now, oldest first, until ``max_bytes`` is reached (at least one when any is due)."""
        now = self._clock()
        taken: list[HeldTrace] = []
        size = 0
        with self._lock:
            while size < max_bytes:
                trace = self._next_due(now)
                if trace is None:
                    break
                self._remove(trace)
                taken.append(trace)
                size += trace.size
        return taken

    def take_all(self) -> list[HeldTrace]:
        with self._lock:
            taken = list(self._by_first.values())
            for trace in taken:
                self._remove(trace)
        return taken

    def seconds_to_next_due(self) -> float | None:
        """How long until a trace is due (0 if one is), None when nothing is held."""
        with self._lock:
            if not self._by_first:
                return None
            oldest = next(iter(self._by_first.values()))
            quietest = next(iter(self._by_last.values()))
            due = min(quietest.last_seen + self._idle_s, oldest.first_seen + self._max_wait_s)
        return max(0.0, due - self._clock())

    def _next_due(self, now: float) -> HeldTrace | None:
        if self._by_last:
            quietest = next(iter(self._by_last.values()))
            if quietest.last_seen + self._idle_s <= now:
                return quietest
            oldest = next(iter(self._by_first.values()))
            if oldest.first_seen + self._max_wait_s <= now:
                return oldest
        return None

    def _remove(self, trace: HeldTrace) -> None:
        del self._by_first[trace.trace_id]
        del self._by_last[trace.trace_id]
        self._bytes -= trace.size
        self._spans -= len(trace.spans)
