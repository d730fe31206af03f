"""Where enriched spans and evaluation records go: the standard ``OTEL_EXPORTER_OTLP_*`` variables.

The generic variables apply to every signal and a per-signal one (``OTEL_EXPORTER_OTLP_TRACES_*``)
overrides its generic twin, as the OTLP exporter specification says. The protocol defaults to
``grpc``, as in the Python SDK's ``otlp`` exporter; the timeout is in milliseconds. An endpoint needs
its scheme: ``https://`` means TLS (``OTEL_EXPORTER_OTLP_CERTIFICATE`` names a CA file), ``http://``
plain text, so ``OTEL_EXPORTER_OTLP_INSECURE`` has nothing left to decide.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from otel_groundedness.gateway.settings import ConfigError

Signal = Literal["traces", "logs"]
Protocol = Literal["grpc", "http/protobuf"]
PROTOCOLS: tuple[Protocol, ...] = ("grpc", "http/protobuf")
_PREFIX = "OTEL_EXPORTER_OTLP_"
_DEFAULT_ENDPOINTS: Mapping[Protocol, str] = {
    "grpc": "http://localhost:4317",
    "http/protobuf": "http://localhost:4318",
}
_DEFAULT_TIMEOUT_MS = 10_000.0


@dataclass(frozen=True, slots=True)
class ExportTarget:
    """One signal's downstream: a gRPC target (``host:port``) or a full HTTP URL, and how to call it."""

    signal: Signal
    protocol: Protocol
    endpoint: str
    tls: bool
    headers: tuple[tuple[str, str], ...]
    timeout_s: float
    gzip: bool
    certificate: str | None = None


def export_target(signal: Signal, environ: Mapping[str, str]) -> ExportTarget:
    """The target of ``signal`` from ``environ``; ``ConfigError`` names the variable that is wrong."""

    def read(name: str) -> tuple[str, str] | None:
        for variable in (f"{_PREFIX}{signal.upper()}_{name}", f"{_PREFIX}{name}"):
            value = environ.get(variable, "").strip()
            if value:
                return variable, value
        return None

    protocol_entry = read("PROTOCOL")
    protocol: Protocol = "grpc"
    if protocol_entry is not None:
        variable, value = protocol_entry
        if value not in PROTOCOLS:
            raise ConfigError(f"invalid {variable}: {value!r} is not one of {', '.join(PROTOCOLS)}")
        protocol = "grpc" if value == "grpc" else "http/protobuf"
    endpoint_entry = read("ENDPOINT")
    variable, url = endpoint_entry or ("default endpoint", _DEFAULT_ENDPOINTS[protocol])
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"invalid {variable}: {url!r} is not an http:// or https:// URL")
    if protocol == "grpc":
        endpoint = parts.netloc
    elif variable.startswith(f"{_PREFIX}{signal.upper()}_"):
        endpoint = url  # a per-signal URL is used as given
    else:
        endpoint = f"{url.rstrip('/')}/v1/{signal}"
    return ExportTarget(
        signal,
        protocol,
        endpoint,
        parts.scheme == "https",
        _headers(read("HEADERS")),
        _timeout_s(read("TIMEOUT")),
        _gzip(read("COMPRESSION")),
        (read("CERTIFICATE") or (None, None))[1],
    )


def _headers(entry: tuple[str, str] | None) -> tuple[tuple[str, str], ...]:
    if entry is None:
        return ()
    variable, value = entry
    headers = []
    for item in value.split(","):
        if not item.strip():
            continue
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"invalid {variable}: {item.strip()!r} is not key=value")
        headers.append((urllib.parse.unquote(key.strip()).lower(), urllib.parse.unquote(raw.strip())))
    return tuple(headers)


def _timeout_s(entry: tuple[str, str] | None) -> float:
    if entry is None:
        return _DEFAULT_TIMEOUT_MS / 1000
    variable, value = entry
    try:
        milliseconds = float(value)
    except ValueError:
        milliseconds = -1.0
    if not 0 < milliseconds < float("inf"):
        raise ConfigError(f"invalid {variable}: {value!r} is not a positive number of milliseconds")
    return milliseconds / 1000


def _gzip(entry: tuple[str, str] | None) -> bool:
    if entry is None:
        return False
    variable, value = entry
    if value.lower() not in ("gzip", "none"):
        raise ConfigError(f"invalid {variable}: {value!r} is not gzip or none")
    return value.lower() == "gzip"
