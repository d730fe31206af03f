"""Fixtures: a gRPC sink standing in for the next tier, and gateways started in this process on free
127.0.0.1 ports, exporting to that sink, each with its own write-ahead log (on, as the command has it),
stopped (drained) at teardown."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from otel_groundedness.gateway.listen import ListenAddress
from otel_groundedness.gateway.service import Gateway
from otel_groundedness.gateway.settings import GatewaySettings

from .otlp_sink import OtlpSink

LOCAL = ListenAddress("127.0.0.1", 0)


@pytest.fixture
def sink() -> Iterator[OtlpSink]:
    running = OtlpSink()
    yield running
    running.stop()


def gateway_environ(sink: OtlpSink) -> dict[str, str]:
    return {"OTEL_EXPORTER_OTLP_ENDPOINT": sink.endpoint, "OTEL_METRICS_EXPORTER": "none"}


@pytest.fixture
def start_gateway(sink: OtlpSink, tmp_path: Path) -> Iterator[Callable[..., Gateway]]:
    started: list[Gateway] = []

    def start(**overrides: Any) -> Gateway:
        settings = replace(
            GatewaySettings(
                grpc_listen=LOCAL,
                http_listen=LOCAL,
                prometheus_listen=None,
                trace_idle_s=1.0,
                shutdown_timeout_s=10,
                wal_dir=tmp_path / f"wal{len(started)}",
            ),
            **overrides,
        )
        gateway = Gateway(settings, gateway_environ(sink))
        gateway.start()
        started.append(gateway)
        return gateway

    yield start
    for gateway in started:
        if gateway.ready():
            gateway.shutdown()
