"""Free TCP ports on 127.0.0.1 for the services the tests start.

``bind(("127.0.0.1", 0))`` returns a port from the kernel's ephemeral range, the range it also draws the
local end of every outgoing connection from. Between a test choosing such a port and its service binding
it, a connection that an already-running service opens (a gateway dialling its exporter) can take it; CI
once failed on exactly that ("bind: address already in use"). Ports below the ephemeral range are never
given to outgoing connections, and this process hands each one out once.
"""

from __future__ import annotations

import random
import socket
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

_PORT_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")
_LINUX_DEFAULT_RANGE = (32768, 60999)
_FIRST_PORT = 20000  # above the registered ports that local services commonly hold

_handed_out: set[int] = set()
_random = random.Random()  # its own, so a test seeding the global generator cannot replay ports
_lock = threading.Lock()


def ephemeral_range() -> tuple[int, int]:
    """The kernel's range for the local ports of outgoing connections (inclusive)."""
    try:
        low, high = (int(part) for part in _PORT_RANGE_FILE.read_text().split())
    except (OSError, ValueError):
        return _LINUX_DEFAULT_RANGE
    return low, high


def _random_candidates(tries: int = 1000) -> Iterator[int]:
    """Random ports outside the ephemeral range: two test runs at once rarely walk into each other."""
    low, high = ephemeral_range()
    below = range(_FIRST_PORT, max(low, _FIRST_PORT))
    above = range(max(high + 1, _FIRST_PORT), 65536)
    if not below and not above:  # the kernel hands out every port: no range is safe, take any
        below = range(_FIRST_PORT, 65536)
    for _ in range(tries):
        index = _random.randrange(len(below) + len(above))
        yield below[index] if index < len(below) else above[index - len(below)]


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(candidates: Iterable[int] | None = None) -> int:
    """A port nothing listens on now, outside the ephemeral range, not handed out before by this process."""
    with _lock:
        for port in _random_candidates() if candidates is None else candidates:
            if port not in _handed_out and _bindable(port):
                _handed_out.add(port)
                return port
    raise RuntimeError("no free port left outside the ephemeral range")
