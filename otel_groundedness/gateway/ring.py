"""Which gateway owns a trace: the front tier's hash ring, seen from a gateway (docs/gateway.md).

The front tier's ``load_balancing`` exporter routes a trace's spans by the trace id's bytes and its
log records by the trace id's hex text, so log records reach another gateway than their spans about
N-1 times in N. A gateway that knows the ring (the same static endpoints, or the same DNS name and
port, as the front tier's resolver) sends each log record it does not own to its owner, where its
spans are (``log_routing``).

The DNS view resolves like the exporter's DNS resolver: every address of the name, IPv6 in brackets,
``:port`` appended, sorted; it is resolved again every ``interval_s`` on its own thread, and a
failed lookup keeps the last ring.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable, Sequence

from otel_groundedness.gateway.hash_ring import HashRing

_logger = logging.getLogger(__name__)


class RingView:
    """The ring and this gateway's name in it; ``owner`` is None for a trace this gateway owns."""

    def __init__(self, endpoints: Sequence[str], self_endpoint: str) -> None:
        self.self_endpoint = self_endpoint
        self._ring: HashRing | None = None
        self._endpoints: tuple[str, ...] = ()
        self.update(endpoints)

    @property
    def endpoints(self) -> tuple[str, ...]:
        return self._endpoints

    def update(self, endpoints: Sequence[str]) -> None:
        ordered = tuple(sorted(set(endpoints)))
        if ordered == self._endpoints:
            return
        # One assignment: request threads read the ring without a lock.
        self._ring = HashRing(ordered) if ordered else None
        self._endpoints = ordered
        _logger.info("ring updated", extra={"endpoints": list(ordered), "self": self.self_endpoint})

    def owner(self, trace_id: bytes) -> str | None:
        """The endpoint that receives ``trace_id``'s spans, or None when it is this gateway (or no
        ring is known, or the ring does not name this gateway: then nothing is sent elsewhere)."""
        ring = self._ring
        if ring is None or self.self_endpoint not in self._endpoints:
            return None
        endpoint = ring.endpoint_for(trace_id)
        return None if endpoint == self.self_endpoint else endpoint


def dns_endpoints(hostname: str, port: int) -> list[str]:
    """The exporter's DNS resolver's endpoints for ``hostname``: ``ip:port``, ``[ipv6]:port``, sorted."""
    addresses = {str(info[4][0]) for info in socket.getaddrinfo(hostname, None, proto=socket.IPPROTO_TCP)}
    return sorted(f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}" for ip in addresses)


class DnsRefresher:
    """Resolves the ring's name every ``interval_s`` on a daemon thread; ``stop`` ends it."""

    def __init__(
        self,
        view: RingView,
        resolve: Callable[[], list[str]],
        interval_s: float,
    ) -> None:
        self._view = view
        self._resolve = resolve
        self._interval_s = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="groundedness-ring-dns", daemon=True)

    def refresh(self) -> None:
        try:
            self._view.update(self._resolve())
        except OSError as error:  # keep the last ring; the exporter does the same
            _logger.warning("ring lookup failed; keeping the last ring", extra={"error": str(error)})

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            self.refresh()
