"""Agents announced to the worker and not ended yet, so a dropped agent end is never forgotten.

When an agent span's end cannot be queued (queue full), the worker must still hear of it, or the
answers held for that agent would wait for the TTL. Only agents whose start reached the worker need
that notice, and the ledger is capped, so the notices that bypass the queue limit are bounded too.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict


class AgentLedger:
    """A bounded, thread-safe set of open agent span ids (oldest first), reset in a forked child."""

    def __init__(self, capacity: int, max_age_s: float) -> None:
        self._capacity = capacity
        self._max_age_s = max_age_s
        self._reset()
        if hasattr(os, "register_at_fork"):
            reset = weakref.WeakMethod(self._reset)

            def _after_in_child() -> None:
                if (method := reset()) is not None:
                    method()

            os.register_at_fork(after_in_child=_after_in_child)

    def _reset(self) -> None:
        # A fresh lock: the parent's could have been held by another thread at the fork.
        self._lock = threading.Lock()
        self._open: OrderedDict[int, float] = OrderedDict()

    def announce(self, span_id: int, now: float) -> bool:
        """Record an agent start; False (not recorded) when the ledger is full of live agents.

        Entries older than ``max_age_s`` are dropped first: the buffer has expired their traces.
        """
        with self._lock:
            while self._open and len(self._open) >= self._capacity:
                oldest, started = next(iter(self._open.items()))
                if now - started <= self._max_age_s:
                    return False
                del self._open[oldest]
            self._open[span_id] = now
            return True

    def withdraw(self, span_id: int) -> bool:
        """Forget an agent (it ended, or its start was not queued); True if it was announced."""
        with self._lock:
            return self._open.pop(span_id, None) is not None

    def __len__(self) -> int:
        return len(self._open)
