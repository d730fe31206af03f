"""A replica of the load_balancing exporter's consistent hash ring (contrib v0.161.0,
`exporter/loadbalancingexporter/consistent_hashing.go`), to predict where each trace goes.

200 points per endpoint at CRC32(endpoint + little-endian point index) mod 131071, collisions probed
up to 10 places ahead; a key goes to the first point at or after CRC32(key) mod 131071, wrapping.
The ring depends on the endpoint names only, so how evenly a front tier spreads traces over its
gateways is known before any traffic (``otel-groundedness ring-shares``; checked against a real
Collector in tests/e2e/test_loadbalancing.py).
"""

from __future__ import annotations

import bisect
import struct
import zlib
from collections.abc import Sequence

MAX_POSITIONS = 131071
WEIGHT = 200
PROBE_LIMIT = 10


class HashRing:
    """The endpoint each routing key goes to, as the exporter places it."""

    def __init__(self, endpoints: Sequence[str]) -> None:
        candidates = []
        for endpoint in endpoints:
            name = endpoint.encode()
            for index in range(WEIGHT):
                crc = zlib.crc32(name + struct.pack("<I", index))
                candidates.append((crc % MAX_POSITIONS, crc, endpoint))
        candidates.sort()
        taken: set[int] = set()
        items: list[tuple[int, str]] = []
        for position, _crc, endpoint in candidates:
            probed = 0
            while position in taken and probed < PROBE_LIMIT:
                position = (position + 1) % MAX_POSITIONS
                probed += 1
            if probed >= PROBE_LIMIT:
                continue
            taken.add(position)
            items.append((position, endpoint))
        items.sort()
        self.positions = [position for position, _ in items]
        self.endpoints = [endpoint for _, endpoint in items]

    def endpoint_for(self, key: bytes) -> str:
        """Spans are keyed by the trace id's 16 bytes, log records by its 32 hex characters."""
        position = zlib.crc32(key) % MAX_POSITIONS
        index = bisect.bisect_left(self.positions, position)
        return self.endpoints[index % len(self.endpoints)]


def ring_shares(endpoints: Sequence[str]) -> dict[str, float]:
    """Each endpoint's share of traces: the part of the ring its points own (trace ids are random, so
    their CRC32 falls evenly on it). A sample of N traces varies around it by about 1/sqrt(N)."""
    ring = HashRing(endpoints)
    owned = dict.fromkeys(endpoints, 0)
    previous = ring.positions[-1] - MAX_POSITIONS  # the last point's arc wraps round to the first
    for position, endpoint in zip(ring.positions, ring.endpoints, strict=True):
        owned[endpoint] += position - previous
        previous = position
    return {endpoint: count / MAX_POSITIONS for endpoint, count in owned.items()}
