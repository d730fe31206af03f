"""OpenTelemetry wiring of the demo: providers, the groundedness processor, exporters, Prometheus.

Next to the user-facing exporters (OTLP, Prometheus, an OTLP file) the demo adds in-memory
taps: the spans and log records that actually left the processor. The detection table and
the report are computed from those, never from what the fault injector intended.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit
from wsgiref.simple_server import WSGIServer

from opentelemetry.exporter.prometheus import PrometheusMetricReader
from opentelemetry.sdk._logs import LoggerProvider, LogRecordProcessor, ReadableLogRecord, ReadWriteLogRecord
from opentelemetry.sdk._logs.export import (
    BatchLogRecordProcessor,
    InMemoryLogRecordExporter,
    LogRecordExporter,
    SimpleLogRecordProcessor,
)
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricExporter, MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    SimpleSpanProcessor,
    SpanExporter,
    SpanExportResult,
)
from prometheus_client import CollectorRegistry, start_http_server

from otel_groundedness.core.log_events import log_event_from_fields
from otel_groundedness.otlp.files import write_otlp_file
from otel_groundedness.processor.sdk_records import span_record_from_sdk
from otel_groundedness.processor.span_processor import GroundednessSpanProcessor
from otel_groundedness.records import LogEventRecord, SpanRecord
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry import names

SERVICE_NAME = "otel-groundedness-demo"
_OTLP_METRIC_INTERVAL_MS = 2000


@dataclass(frozen=True, slots=True)
class ScoredSpan:
    """What the processor wrote on one scored span (read back from the exported copy)."""

    trace_id: int
    span_id: int
    label: str
    score: float | None
    contradicted: int
    unsupported: int

    @property
    def flagged(self) -> bool:
        """The processor reported at least one contradicted or unsupported atom."""
        return self.contradicted + self.unsupported > 0


class ScoreTap(SpanExporter):
    """An in-memory exporter downstream of the processor: keeps every span and each score it saw."""

    def __init__(self, on_score: Callable[[ScoredSpan], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._spans: list[ReadableSpan] = []
        self._scores: dict[int, ScoredSpan] = {}  # by trace id: one scored answer per demo turn
        self._on_score = on_score

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        for span in spans:
            scored = _scored(span)
            with self._lock:
                self._spans.append(span)
                if scored is not None:
                    self._scores[scored.trace_id] = scored
            if scored is not None and self._on_score is not None:
                self._on_score(scored)
        return SpanExportResult.SUCCESS

    def shutdown(self) -> None:
        return None

    def scores(self) -> dict[int, ScoredSpan]:
        """Scores by trace id, so far."""
        with self._lock:
            return dict(self._scores)

    def span_records(self) -> list[SpanRecord]:
        """Every exported span as a neutral record."""
        with self._lock:
            spans = list(self._spans)
        return [span_record_from_sdk(span) for span in spans]


def _scored(span: ReadableSpan) -> ScoredSpan | None:
    attributes = span.attributes or {}
    label = attributes.get(names.ATTR_LABEL)
    context = span.context
    if not isinstance(label, str) or context is None:
        return None
    score = attributes.get(names.ATTR_SCORE)
    return ScoredSpan(
        trace_id=context.trace_id,
        span_id=context.span_id,
        label=label,
        score=float(score) if isinstance(score, int | float) else None,
        contradicted=_int(attributes.get(names.ATTR_ATOMS_CONTRADICTED)),
        unsupported=_int(attributes.get(names.ATTR_ATOMS_UNSUPPORTED)),
    )


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


@dataclass
class DemoTelemetry:
    """The providers the demo agent reports to, and the taps the summary reads."""

    tracer_provider: TracerProvider
    meter_provider: MeterProvider
    logger_provider: LoggerProvider
    tap: ScoreTap
    logs: InMemoryLogRecordExporter
    metrics_url: str | None = None
    _prometheus: WSGIServer | None = field(default=None, repr=False)

    def flush(self) -> None:
        """Score and export everything finished so far."""
        self.logger_provider.force_flush()
        self.tracer_provider.force_flush()
        self.logger_provider.force_flush()

    def log_events(self) -> list[LogEventRecord]:
        """Exported log records that are events tied to a span."""
        return [
            event for record in self.logs.get_finished_logs() if (event := _log_event(record)) is not None
        ]

    def write_otlp_file(self, path: Path) -> None:
        """Record the exported spans and log events as an OTLP file (replayable)."""
        write_otlp_file(path, self.tap.span_records(), self.log_events())

    def shutdown(self) -> None:
        """Flush and stop every provider, then the metrics endpoint."""
        self.tracer_provider.shutdown()
        self.logger_provider.shutdown()
        self.meter_provider.shutdown()
        if self._prometheus is not None:
            self._prometheus.shutdown()
            self._prometheus.server_close()


def build_telemetry(
    *,
    otlp_endpoint: str | None,
    prometheus_port: int,
    policy: GroundednessPolicy | None = None,
    on_score: Callable[[ScoredSpan], None] | None = None,
    otlp_unscored: bool = False,
) -> DemoTelemetry:
    """Providers with the groundedness processor wrapping the exporters; Prometheus when port > 0.

    ``otlp_unscored``: OTLP gets spans and log records as the application produced them, beside the
    processor instead of behind it (for a scoring gateway downstream); the taps still see the scores.
    """
    resource = Resource.create({"service.name": SERVICE_NAME})
    exporters = _otlp_exporters(otlp_endpoint) if otlp_endpoint else None  # may refuse the URL: first
    readers: list[MetricReader] = []
    prometheus: WSGIServer | None = None
    metrics_url: str | None = None
    if prometheus_port:
        registry = CollectorRegistry()
        readers.append(PrometheusMetricReader(registry=registry))
        prometheus, _ = start_http_server(prometheus_port, addr="127.0.0.1", registry=registry)
        metrics_url = f"http://127.0.0.1:{prometheus.server_port}/metrics"
    if exporters is not None:
        readers.append(
            PeriodicExportingMetricReader(exporters.metrics, export_interval_millis=_OTLP_METRIC_INTERVAL_MS)
        )
    meter_provider = MeterProvider(resource=resource, metric_readers=readers)

    tap = ScoreTap(on_score)
    downstream: list[SpanProcessor] = [SimpleSpanProcessor(tap)]
    logs = InMemoryLogRecordExporter()  # type: ignore[no-untyped-call]
    log_downstream: list[LogRecordProcessor] = [SimpleLogRecordProcessor(logs)]
    logger_provider = LoggerProvider(resource=resource)
    tracer_provider = TracerProvider(resource=resource)
    if exporters is not None and otlp_unscored:
        tracer_provider.add_span_processor(BatchSpanProcessor(exporters.spans))
        logger_provider.add_log_record_processor(_ApplicationRecords(BatchLogRecordProcessor(exporters.logs)))
    elif exporters is not None:
        downstream.append(BatchSpanProcessor(exporters.spans))
        log_downstream.append(BatchLogRecordProcessor(exporters.logs))

    groundedness = GroundednessSpanProcessor(
        downstream, policy=policy, meter_provider=meter_provider, logger_provider=logger_provider
    )
    logger_provider.add_log_record_processor(groundedness.log_processor(log_downstream))
    tracer_provider.add_span_processor(groundedness)
    return DemoTelemetry(tracer_provider, meter_provider, logger_provider, tap, logs, metrics_url, prometheus)


class _ApplicationRecords(LogRecordProcessor):
    """Passes on the application's log records, not the processor's evaluation results."""

    def __init__(self, downstream: LogRecordProcessor) -> None:
        self._downstream = downstream

    def on_emit(self, log_record: ReadWriteLogRecord) -> None:
        if log_record.log_record.event_name != names.EVENT_EVALUATION_RESULT:
            self._downstream.on_emit(log_record)

    def shutdown(self) -> None:
        self._downstream.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self._downstream.force_flush(timeout_millis)


class _OtlpExporters(NamedTuple):
    spans: SpanExporter
    logs: LogRecordExporter
    metrics: MetricExporter


def _otlp_exporters(endpoint: str) -> _OtlpExporters:
    """Span, log and metric exporters for ``endpoint``: ``grpc://`` uses gRPC, http(s) OTLP/HTTP."""
    parts = urlsplit(endpoint)
    if parts.scheme == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc._log_exporter import OTLPLogExporter as GrpcLogs
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter as GrpcMetrics
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcSpans

        target = parts.netloc
        return _OtlpExporters(
            GrpcSpans(endpoint=target, insecure=True),
            GrpcLogs(endpoint=target, insecure=True),
            GrpcMetrics(endpoint=target, insecure=True),
        )
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"--otlp-endpoint must be http://, https:// or grpc://HOST:PORT, got {endpoint!r}")
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    base = endpoint.rstrip("/")
    return _OtlpExporters(
        OTLPSpanExporter(endpoint=f"{base}/v1/traces"),
        OTLPLogExporter(endpoint=f"{base}/v1/logs"),
        OTLPMetricExporter(endpoint=f"{base}/v1/metrics"),
    )


def _log_event(record: ReadableLogRecord) -> LogEventRecord | None:
    log = record.log_record
    return log_event_from_fields(
        log.trace_id, log.span_id, log.event_name, dict(log.attributes or {}), log.body, log.timestamp
    )
