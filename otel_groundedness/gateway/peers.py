"""Senders to the other gateways of the ring (log records to their trace's owner): OTLP/gRPC, one
channel per peer made on first use, each request marked as sent by a gateway (loop protection)."""

from __future__ import annotations

import threading

from otel_groundedness.gateway.log_routing import FORWARDED_HEADER
from otel_groundedness.gateway.otlp_env import ExportTarget
from otel_groundedness.gateway.senders import GrpcSender, Sender

# A peer that does not answer within this long is given up for this request (it goes downstream).
PEER_TIMEOUT_S = 5.0


class PeerSenders:
    """Thread-safe: export workers ask for a peer's sender."""

    def __init__(self, self_endpoint: str) -> None:
        self._headers = ((FORWARDED_HEADER, self_endpoint),)
        self._senders: dict[str, Sender] = {}
        self._lock = threading.Lock()

    def sender(self, endpoint: str) -> Sender:
        with self._lock:
            sender = self._senders.get(endpoint)
            if sender is None:
                target = ExportTarget("logs", "grpc", endpoint, False, self._headers, PEER_TIMEOUT_S, False)
                sender = self._senders[endpoint] = GrpcSender(target)
            return sender

    def close(self) -> None:
        with self._lock:
            for sender in self._senders.values():
                sender.close()
            self._senders.clear()
