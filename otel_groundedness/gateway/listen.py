"""``HOST:PORT`` listen addresses: parsed once, bound by the caller."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ListenAddress:
    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_listen(text: str) -> ListenAddress:
    """``0.0.0.0:4317``, ``127.0.0.1:0`` or ``[::]:4317``; ``ValueError`` says what is wrong."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep or not host:
        raise ValueError(f"expected HOST:PORT, got {text!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"port of {text!r} is not a number") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"port of {text!r} is out of range")
    return ListenAddress(host, port)
