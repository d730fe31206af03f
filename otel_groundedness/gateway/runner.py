"""``run_gateway``: the process around a ``Gateway``: JSON logs, SIGTERM/SIGINT, exit code."""

from __future__ import annotations

import gc
import logging
import signal
import threading
from collections.abc import Mapping
from types import FrameType

from otel_groundedness.gateway.json_logs import configure_logging
from otel_groundedness.gateway.service import Gateway
from otel_groundedness.gateway.settings import GatewaySettings

_logger = logging.getLogger(__name__)


# Allocations between two young-generation collections (Python's default: 700). A scored turn makes
# thousands of short-lived objects, so the default collects every few turns, and each pass also
# walks what the buffer holds; 10,000 collects about 14 times less often (about 2% of the
# gateway's CPU on the benchmark's traffic) for at most that many more objects awaiting collection.
YOUNG_COLLECTION_ALLOCATIONS = 10_000


def tune_collector() -> None:
    """What exists now (modules, the assembled gateway) lives as long as the process: kept out of
    the collector's full passes, which otherwise walk it again and again while traffic flows; and
    young objects collected less often."""
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_ALLOCATIONS, middle, old)


def run_gateway(settings: GatewaySettings, environ: Mapping[str, str]) -> int:
    """Serve until SIGTERM or SIGINT, then drain (``Gateway.shutdown``) and return 0.

    ``ConfigError`` and ``OSError`` (an address in use) are raised before anything is served.
    """
    configure_logging(settings.log_level)
    gateway = Gateway(settings, environ)
    tune_collector()
    stop = threading.Event()

    def on_signal(number: int, _frame: FrameType | None) -> None:
        _logger.info("signal received; shutting down", extra={"signal": signal.Signals(number).name})
        stop.set()

    previous = {number: signal.signal(number, on_signal) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        gateway.start()
        _logger.info(
            "gateway ready",
            extra={
                "grpc_port": gateway.ports.grpc,
                "http_port": gateway.ports.http,
                "prometheus_port": gateway.ports.prometheus,
                "traces_endpoint": gateway.targets["traces"].endpoint,
                "logs_endpoint": gateway.targets["logs"].endpoint,
                "protocol": gateway.targets["traces"].protocol,
                "receiver_tls": "off" if gateway.tls is None else gateway.tls.mode,
            },
        )
        stop.wait()
        gateway.shutdown()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    return 0
