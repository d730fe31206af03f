"""The one bounded queue and worker thread shared by the span and log-record processors.

``submit`` never blocks: it returns False when the queue is full or closed and the caller forwards
the item itself. The thread hands items to a ``WorkHandler``; ``flush``/``shutdown`` wait for it
within their timeout and then give the remaining items back to the handler (``abandon``), so nothing
queued is lost. After ``os.fork`` the child gets a fresh, empty queue and a new thread.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

_logger = logging.getLogger(__name__)

T = TypeVar("T")
T_contra = TypeVar("T_contra", contravariant=True)


class WorkHandler(Protocol[T_contra]):
    """What the worker drives; every method must swallow its own errors."""

    def handle(self, item: T_contra) -> None:
        """Process one item on the worker thread."""

    def abandon(self, item: T_contra) -> None:
        """Give up on an item that could not be processed in time (forward it as is)."""

    def tick(self) -> None:
        """Periodic housekeeping on the worker thread (expiry)."""

    def drain(self, in_time: Callable[[], bool]) -> None:
        """Release everything still held, processing items only while ``in_time()`` holds."""

    def reset_after_fork(self) -> None:
        """Drop state inherited from the parent process."""


class _Marker:
    """Queued by flush/shutdown; set once everything queued before it has been handled."""

    __slots__ = ("done", "stop")

    def __init__(self, *, stop: bool) -> None:
        self.done = threading.Event()
        self.stop = stop


class ScoringWorker(Generic[T]):
    """A bounded FIFO drained by one daemon thread."""

    def __init__(
        self, handler: WorkHandler[T], *, max_queue_size: int, max_queue_bytes: int, tick_interval_s: float
    ) -> None:
        self._handler = handler
        self._max_queue_size = max_queue_size
        self._max_queue_bytes = max_queue_bytes
        self._tick_interval_s = tick_interval_s
        self._closed = False
        self._late = False
        self._start()
        if hasattr(os, "register_at_fork"):
            reinit = weakref.WeakMethod(self._after_fork_in_child)

            def _after_in_child() -> None:
                if (method := reinit()) is not None:
                    method()

            os.register_at_fork(after_in_child=_after_in_child)

    def _start(self) -> None:
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._queue: deque[tuple[T, int] | _Marker] = deque()
        self._items = 0  # queued items, markers excluded
        self._bytes = 0  # their estimated sizes
        self._idle = False
        self._thread = threading.Thread(target=self._run, name="otel-groundedness-worker", daemon=True)
        self._thread.start()

    def _after_fork_in_child(self) -> None:
        self._handler.reset_after_fork()
        if not self._closed:
            self._start()

    @property
    def queue_size(self) -> int:
        return self._items

    @property
    def closed(self) -> bool:
        return self._closed

    def submit(self, item: T, *, size: int = 0, force: bool = False) -> bool:
        """Enqueue without blocking; False if the queue is full (items or bytes) or closed.

        ``size`` is the item's estimated bytes. ``force`` items (small control notices the caller
        bounds itself) are queued even when the queue is full, so that a notice about a dropped
        item always gets through.
        """
        with self._lock:
            full = self._items >= self._max_queue_size or self._bytes + size > self._max_queue_bytes
            if self._closed or (full and not force):
                return False
            self._queue.append((item, size))
            self._items += 1
            self._bytes += size
            wake, self._idle = self._idle, False
        if wake:
            self._wake.set()
        return True

    def flush(self, timeout_s: float) -> bool:
        """Wait until everything queued so far is handled; on timeout abandon what is left."""
        return self._wait_for(_Marker(stop=False), timeout_s)

    def shutdown(self, timeout_s: float) -> bool:
        """Handle what is queued, drain the handler, stop the thread; all within ``timeout_s``.

        A second caller waits for the first one's thread, so that it does not return (and let its
        caller shut downstream down) while items are still being forwarded.
        """
        with self._lock:
            already_closed, self._closed = self._closed, True
        if already_closed:
            self._thread.join(timeout_s)
            return not self._thread.is_alive()
        deadline = time.monotonic() + timeout_s
        finished = self._wait_for(_Marker(stop=True), timeout_s)
        self._thread.join(max(0.0, deadline - time.monotonic()))
        if self._thread.is_alive():
            # The thread is busy with one long item or the drain; it forwards the rest unprocessed.
            self._late = True
            return False
        return finished

    def _wait_for(self, marker: _Marker, timeout_s: float) -> bool:
        with self._lock:
            # Checked under the lock: a flush marker queued behind the stop marker would never be reached.
            if self._closed and not marker.stop:
                return True
            self._queue.append(marker)
            wake, self._idle = self._idle, False
        if wake:
            self._wake.set()
        if marker.done.wait(timeout_s):
            return True
        self._abandon_queued()
        return False

    def _abandon_queued(self) -> None:
        with self._lock:
            pending, self._queue = self._queue, deque()
            self._items = 0
            self._bytes = 0
            if self._closed:
                self._late = True
                self._queue.append(_Marker(stop=True))
        for entry in pending:
            if isinstance(entry, _Marker):
                entry.done.set()
            else:
                self._handler.abandon(entry[0])

    def _next(self) -> T | _Marker | None:
        with self._lock:
            if self._queue:
                entry = self._queue.popleft()
                if isinstance(entry, _Marker):
                    return entry
                self._items -= 1
                self._bytes -= entry[1]
                return entry[0]
            self._idle = True
            self._wake.clear()
        self._wake.wait(self._tick_interval_s)
        return None

    def _run(self) -> None:
        next_tick = time.monotonic() + self._tick_interval_s
        while True:
            item = self._next()
            if isinstance(item, _Marker):
                if item.stop:
                    self._guarded(self._handler.drain, self._in_time)
                    item.done.set()
                    return
                item.done.set()
            elif item is not None:
                self._guarded(self._handler.abandon if self._late else self._handler.handle, item)
            if time.monotonic() >= next_tick:
                self._guarded(self._handler.tick)
                next_tick = time.monotonic() + self._tick_interval_s

    def _in_time(self) -> bool:
        return not self._late

    @staticmethod
    def _guarded(call: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        # The handler swallows its own errors; this is the last line that keeps the thread alive.
        try:
            call(*args, **kwargs)
        except Exception:
            _logger.debug("groundedness worker: handler raised", exc_info=True)
