"""Export workers: take requests from the queue and deliver them downstream, retrying with
exponential backoff (or the delay the receiver asks for) for ``retry_s``; what cannot be delivered is
counted in ``groundedness.gateway.dropped`` and logged, never dropped silently.

A request that was delivered, or refused for good, releases the write-ahead log parts it carries;
one left at the shutdown deadline does not, and is replayed at the next start. With the log, a
retryable failure is retried until it succeeds (``export_retry_s`` applies without it).

Log records for another gateway (their trace's owner) go to that peer; one that cannot be reached
within ``PEER_RETRY_S`` (or refuses them) gets them downstream instead, unpaired but not lost."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Mapping

from otel_groundedness.gateway.export_queue import ExportQueue, Outgoing
from otel_groundedness.gateway.gateway_metrics import GatewayMetrics
from otel_groundedness.gateway.otlp_env import Signal
from otel_groundedness.gateway.peers import PeerSenders
from otel_groundedness.gateway.senders import Sender
from otel_groundedness.gateway.write_ahead_log import FORWARDED, WriteAheadLog

_logger = logging.getLogger(__name__)

_FIRST_BACKOFF_S = 0.2
_MAX_BACKOFF_S = 5.0
_GET_TIMEOUT_S = 0.5
# How long records for a peer are retried before they go downstream: about a gateway's restart.
PEER_RETRY_S = 10.0


class ExportWorkers:
    def __init__(
        self,
        queue: ExportQueue,
        senders: Mapping[Signal, Sender],
        metrics: GatewayMetrics,
        *,
        retry_s: float,
        concurrency: int,
        wal: WriteAheadLog | None = None,
        peers: PeerSenders | None = None,
    ) -> None:
        self._queue = queue
        self._wal = wal
        self._peers = peers
        self._senders = senders
        self._metrics = metrics
        self._retry_s = retry_s
        self._stop_by = float("inf")  # the shutdown deadline, once set: no retry outlives it
        self._threads = [
            threading.Thread(target=self._run, name=f"groundedness-export-{index}", daemon=True)
            for index in range(concurrency)
        ]

    @property
    def alive(self) -> bool:
        return all(thread.is_alive() for thread in self._threads)

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self, deadline: float) -> None:
        """Deliver what is queued until ``deadline`` (monotonic), then count what is left as dropped."""
        self._stop_by = deadline
        self._queue.wait_empty(deadline)
        self._queue.close()
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()) + _GET_TIMEOUT_S)
        for item in self._queue.take_waiting():
            self._drop(item, "shutdown_deadline", "not sent before the shutdown deadline")
        for sender in self._senders.values():
            sender.close()
        if self._peers is not None:
            self._peers.close()

    def _run(self) -> None:
        while True:
            item = self._queue.get(_GET_TIMEOUT_S)
            if item is None:
                if self._stop_by < float("inf"):
                    return
                continue
            try:
                finished = self._deliver(item)
            except Exception:  # a sender bug must not kill the worker or strand the queue's bytes
                _logger.exception("export failed unexpectedly", extra={"signal": item.signal})
                self._drop(item, "error", "unexpected export error")
                finished = True
            finally:
                self._queue.done(item)
            if finished and self._wal is not None and item.parts:
                # Scored output (parts named by trace) is noted before the next export: a replay
                # after a kill then scores none of it again. What was forwarded as it came rides along.
                self._wal.release(item.parts, wait=any(key != FORWARDED for _, key in item.parts))

    def _deliver(self, item: Outgoing) -> bool:
        """Deliver ``item``; False when it was left at the shutdown deadline (it stays in the log)."""
        if item.peer is not None and self._peers is not None:
            sender = self._peers.sender(item.peer)
            give_up_at = time.monotonic() + min(self._retry_s, PEER_RETRY_S)
        else:
            sender = self._senders[item.signal]
            # What the write-ahead log holds is never given up while downstream may take it later:
            # the queue, then the log, fill and senders are refused instead.
            give_up_at = float("inf") if self._wal is not None else time.monotonic() + self._retry_s
        backoff = _FIRST_BACKOFF_S
        while True:
            result = sender.send(item)
            if result.ok:
                self._metrics.exported(item.signal, item.items - result.rejected)
                if result.rejected:
                    self._metrics.dropped(item.signal, result.rejected, "rejected_downstream")
                    _logger.warning(
                        "downstream rejected part of an export",
                        extra={"signal": item.signal, "items": result.rejected},
                    )
                return True
            self._metrics.export_failed(item.signal)
            if item.peer is not None and (not result.retryable or time.monotonic() >= give_up_at):
                return self._to_downstream(item, result.detail)
            if not result.retryable:
                self._drop(item, "refused_downstream", result.detail)
                return True
            delay = (
                result.retry_after_s
                if result.retry_after_s is not None
                else backoff * random.uniform(0.8, 1.2)
            )
            if item.peer is not None and time.monotonic() + delay > give_up_at:
                return self._to_downstream(item, result.detail)
            if time.monotonic() + delay > min(give_up_at, self._stop_by):
                reason = "shutdown_deadline" if self._stop_by < give_up_at else "retries_exhausted"
                self._drop(item, reason, result.detail)
                return reason == "retries_exhausted"
            time.sleep(delay)
            backoff = min(backoff * 2, _MAX_BACKOFF_S)

    def _to_downstream(self, item: Outgoing, detail: str) -> bool:
        """Records their owner did not take: downstream as they are (unpaired, not lost)."""
        self._metrics.rerouted(item.items, "owner_unreachable")
        _logger.warning(
            "trace owner unreachable; log records sent downstream",
            extra={"peer": item.peer, "items": item.items, "detail": detail},
        )
        return self._deliver(item.downstream())

    def _drop(self, item: Outgoing, reason: str, detail: str) -> None:
        self._metrics.dropped(item.signal, item.items, reason)
        _logger.warning(
            "export dropped",
            extra={"signal": item.signal, "items": item.items, "reason": reason, "detail": detail},
        )
