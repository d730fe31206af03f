"""A replica of the loadbalancing exporter's consistent hash ring (contrib v0.161.0,
`exporter/loadbalancingexporter/consistent_hashing.go`), to predict where each trace goes.

200 points per endpoint at CRC32(endpoint + little-endian point index) mod 131071, collisions probed
up to 10 places ahead; a key goes to the first point at or after CRC32(key) mod 131071, wrapping.
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
        self._positions = [position for position, _ in items]
        self._endpoints = [endpoint for _, endpoint in items]

    def endpoint_for(self, key: bytes) -> str:
        position = zlib.crc32(key) % MAX_POSITIONS
        index = bisect.bisect_left(self._positions, position)
        return self._endpoints[index % len(self._endpoints)]
