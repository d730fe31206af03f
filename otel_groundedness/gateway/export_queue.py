"""Export requests waiting for, or in, a downstream export: bounded in bytes.

A request's bytes are released only when its export has ended (delivered or given up), so a
downstream that keeps failing fills the queue, and a full queue refuses new work upstream.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from otel_groundedness.gateway.otlp_env import Signal

# Waits re-check their deadline at least this often.
_MAX_WAIT_SLICE_S = 0.5


@dataclass(frozen=True, slots=True, eq=False)
class Outgoing:
    """One export request, encoded (once: a request forwarded unchanged is the body received): its
    signal, how many spans or log records it holds, and the parts of write-ahead log entries it
    delivers (released once it was delivered)."""

    signal: Signal
    body: bytes
    items: int
    parts: tuple[tuple[int, bytes], ...] = ()  # (entry, FORWARDED, a trace id or a peer)
    peer: str | None = None  # another gateway (log records to their trace's owner), else downstream

    @property
    def size(self) -> int:
        return len(self.body)

    def with_parts(self, parts: tuple[tuple[int, bytes], ...]) -> Outgoing:
        return replace(self, parts=parts)

    def downstream(self) -> Outgoing:
        return replace(self, peer=None)


class ExportQueue:
    """Thread-safe: request threads and the scorer put, export workers get and mark done."""

    def __init__(self, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        self._waiting: deque[Outgoing] = deque()
        self._bytes = 0  # waiting and in flight
        self._items = 0
        self._closed = False
        # One lock, two conditions: a request queued wakes one worker (not all of them, to find it
        # taken); bytes freed, or the queue closed, wake whoever waits for room or for an empty queue.
        lock = threading.Lock()
        self._changed = threading.Condition(lock)
        self._arrived = threading.Condition(lock)

    @property
    def byte_count(self) -> int:
        return self._bytes

    @property
    def item_count(self) -> int:
        return self._items

    def try_put(self, items: list[Outgoing]) -> bool:
        """Queue ``items``, all of them if they fit now, else none; never waits."""
        with self._changed:
            if self._bytes + sum(item.size for item in items) > self._max_bytes:
                return False
            for item in items:
                self._append(item)
            return True

    def put(self, item: Outgoing, deadline: Callable[[], float]) -> bool:
        """Queue ``item`` once it fits, waiting until ``deadline()`` (monotonic, read again while
        waiting, so another thread can shorten the wait)."""
        with self._changed:
            # An item larger than the whole queue still goes in alone, or it could never leave.
            while self._bytes and self._bytes + item.size > self._max_bytes:
                remaining = deadline() - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(min(remaining, _MAX_WAIT_SLICE_S))
            self._append(item)
            return True

    def get(self, timeout: float) -> Outgoing | None:
        """The next waiting request, or None after ``timeout`` or once closed and empty."""
        with self._arrived:
            if not self._waiting and not self._closed:
                self._arrived.wait(timeout)
            return self._waiting.popleft() if self._waiting else None

    def done(self, item: Outgoing) -> None:
        """``item``'s export has ended: its bytes are free again."""
        with self._changed:
            self._bytes -= item.size
            self._items -= item.items
            self._changed.notify_all()

    def close(self) -> None:
        """Wake every waiting ``get``: workers finish what is left and stop."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            self._arrived.notify_all()

    def take_waiting(self) -> list[Outgoing]:
        """Remove and return what no worker has started (at the shutdown deadline, to be counted)."""
        with self._changed:
            taken = list(self._waiting)
            self._waiting.clear()
            for item in taken:
                self._bytes -= item.size
                self._items -= item.items
            self._changed.notify_all()
            return taken

    def wait_empty(self, deadline: float) -> bool:
        """Wait until nothing is waiting or in flight, or ``deadline``; True when empty."""
        with self._changed:
            while self._bytes or self._waiting:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(min(remaining, _MAX_WAIT_SLICE_S))
            return True

    def _append(self, item: Outgoing) -> None:
        self._waiting.append(item)
        self._bytes += item.size
        self._items += item.items
        self._arrived.notify()
