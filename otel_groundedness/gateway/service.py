"""The gateway assembled: write-ahead log, receivers, intake, trace buffer, scorer, export queue and
workers, metrics; started in dependency order (what the log still holds is replayed before the
receivers open) and shut down within ``shutdown_timeout_s``.

Shutdown: refuse new requests (``draining``), stop the receivers, score what is held while two
thirds of the time remain and forward the rest unscored, deliver the export queue until the
deadline (what is left is counted as dropped, and stays in the write-ahead log for the next start),
export the last metrics.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass

from otel_groundedness.evaluator import describe
from otel_groundedness.gateway.export_queue import ExportQueue
from otel_groundedness.gateway.exporter import ExportWorkers
from otel_groundedness.gateway.gateway_metrics import GatewayMetrics
from otel_groundedness.gateway.grpc_receiver import bind_grpc_server
from otel_groundedness.gateway.http_receiver import HttpServer, OtlpHttpApp
from otel_groundedness.gateway.intake import Intake
from otel_groundedness.gateway.meters import build_meters
from otel_groundedness.gateway.otlp_env import ExportTarget, export_target
from otel_groundedness.gateway.peers import PeerSenders
from otel_groundedness.gateway.receiver_tls import receiver_tls
from otel_groundedness.gateway.ring import DnsRefresher, RingView, dns_endpoints
from otel_groundedness.gateway.scorer import Scorer
from otel_groundedness.gateway.senders import make_sender
from otel_groundedness.gateway.settings import ConfigError, GatewaySettings
from otel_groundedness.gateway.trace_buffer import TraceBuffer
from otel_groundedness.gateway.write_ahead_log import WriteAheadLog
from otel_groundedness.telemetry.instruments import GroundednessInstruments

_logger = logging.getLogger(__name__)

# Share of the shutdown time spent scoring held traces; the rest is left to deliver them.
_SCORING_SHARE = 2 / 3
# Requests already being handled get this long to finish once the receivers stop.
_RECEIVER_GRACE_S = 2.0


@dataclass(frozen=True, slots=True)
class Ports:
    grpc: int
    http: int
    prometheus: int | None


class Gateway:
    """One gateway process's parts. ``ConfigError`` for bad exporter variables or TLS files, or a
    write-ahead log directory that cannot be used; ``OSError`` when an address cannot be bound;
    nothing listens before ``start``."""

    def __init__(self, settings: GatewaySettings, environ: Mapping[str, str]) -> None:
        self.settings = settings
        self.tls = receiver_tls(settings)
        self.targets: dict[str, ExportTarget] = {
            signal: export_target(signal, environ) for signal in ("traces", "logs")
        }
        self.wal = _open_wal(settings)
        try:
            self._assemble(settings, environ)
        except BaseException:
            if self.wal is not None:
                self.wal.close()
            raise

    def _assemble(self, settings: GatewaySettings, environ: Mapping[str, str]) -> None:
        wal = self.wal
        self.ring, self._dns = _ring(settings)
        self._buffer = TraceBuffer(
            max_traces=settings.max_traces,
            max_bytes=settings.max_buffer_bytes,
            idle_s=settings.trace_idle_s,
            max_wait_s=settings.max_trace_wait_s,
            clock=time.monotonic,
        )
        self._queue = ExportQueue(settings.max_export_queue_bytes)
        self._meters = build_meters(settings.prometheus_listen, environ)
        provider = self._meters.provider
        self.metrics = GatewayMetrics(
            provider,
            held_traces=lambda: self._buffer.trace_count,
            held_bytes=lambda: self._buffer.byte_count,
            queue_items=lambda: self._queue.item_count,
            queue_bytes=lambda: self._queue.byte_count,
            wal_bytes=lambda: wal.byte_count if wal is not None else 0,
        )
        instruments = GroundednessInstruments(
            provider, lambda: self._buffer.span_count, describe(settings.policy)
        )
        self._intake = Intake(self._buffer, self._queue, self.metrics, wal, self.ring)
        self._scorer = Scorer(
            self._buffer,
            self._queue,
            self.metrics,
            policy=settings.policy,
            instruments=instruments,
            batch_bytes=settings.max_request_bytes,
            wal=wal,
        )
        self._exporters = ExportWorkers(
            self._queue,
            {"traces": make_sender(self.targets["traces"]), "logs": make_sender(self.targets["logs"])},
            self.metrics,
            retry_s=settings.export_retry_s,
            concurrency=settings.export_concurrency,
            wal=wal,
            peers=PeerSenders(self.ring.self_endpoint) if self.ring is not None else None,
        )
        app = OtlpHttpApp(
            self._intake,
            self.metrics,
            max_request_bytes=settings.max_request_bytes,
            healthy=self.healthy,
            ready=self.ready,
        )
        try:
            self._grpc, grpc_port = bind_grpc_server(
                settings.grpc_listen, self._intake, settings.max_request_bytes, self.tls
            )
            try:
                self._http = HttpServer(app, settings.http_listen, self.tls)
            except OSError:
                self._grpc.stop(None)
                raise
        except OSError:
            self._meters.shutdown(1.0)
            raise
        self.ports = Ports(grpc_port, self._http.port, self._meters.prometheus_port)

    def start(self) -> None:
        if self._dns is not None:
            self._dns.start()
        self._exporters.start()
        self._scorer.start()
        if self.wal is not None and self.wal.pending:
            pending, self.wal.pending = self.wal.pending, []
            for item in pending:
                self._intake.replay(item)
            _logger.info(
                "replayed the write-ahead log",
                extra={"requests": len(pending), "directory": str(self.wal.directory)},
            )
        self._grpc.start()
        self._http.start()

    def healthy(self) -> bool:
        """Every thread the gateway needs is running."""
        wal_alive = self.wal is None or self.wal.alive
        return self._scorer.alive and self._exporters.alive and self._http.alive and wal_alive

    def ready(self) -> bool:
        """Taking requests (false once shutdown has begun)."""
        return self._intake.accepting and self.healthy()

    def shutdown(self) -> None:
        started = time.monotonic()
        timeout = self.settings.shutdown_timeout_s
        deadline = started + timeout
        held = self._buffer.trace_count
        self._intake.close()
        if self._dns is not None:
            self._dns.stop()
        self._grpc.stop(_RECEIVER_GRACE_S).wait(_RECEIVER_GRACE_S)
        self._http.stop(_RECEIVER_GRACE_S)
        _logger.info("draining", extra={"held_traces": held, "queued_items": self._queue.item_count})
        self._scorer.drain(score_until=started + timeout * _SCORING_SHARE, queue_until=deadline)
        self._exporters.stop(deadline)
        if self.wal is not None:
            self.wal.close()
        self._meters.shutdown(max(1.0, deadline - time.monotonic()))
        _logger.info("stopped", extra={"seconds": round(time.monotonic() - started, 3)})


def _open_wal(settings: GatewaySettings) -> WriteAheadLog | None:
    if settings.wal_dir is None:
        return None
    try:
        return WriteAheadLog(
            settings.wal_dir,
            max_bytes=settings.max_wal_bytes,
            window_spans=settings.dedup_window_spans,
            fsync_interval_s=settings.wal_fsync_interval_s,
        )
    except (OSError, sqlite3.Error) as error:
        raise ConfigError(f"cannot use wal_dir {settings.wal_dir}: {error}") from None


def _ring(settings: GatewaySettings) -> tuple[RingView | None, DnsRefresher | None]:
    """The front tier's ring as this gateway sees it (static, or resolved now and then again)."""
    if settings.ring_self is None:
        return None, None
    if settings.ring_endpoints is not None:
        return RingView(settings.ring_endpoints, settings.ring_self), None
    hostname, port = settings.ring_dns_hostname, settings.ring_dns_port
    assert hostname is not None  # settings check: a ring_self comes with one of the two
    view = RingView([], settings.ring_self)
    refresher = DnsRefresher(view, lambda: dns_endpoints(hostname, port), settings.ring_dns_interval_s)
    refresher.refresh()
    return view, refresher
