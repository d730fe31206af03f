"""The gateway's meter provider: its resource, a Prometheus ``/metrics`` endpoint, and periodic
OTLP export (the SDK's exporter, configured by the standard variables; ``OTEL_METRICS_EXPORTER=none``
turns it off)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from wsgiref.simple_server import WSGIServer

from opentelemetry.exporter.prometheus import PrometheusMetricReader
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricExporter, MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import SERVICE_INSTANCE_ID, SERVICE_NAME, Resource
from prometheus_client import CollectorRegistry, start_http_server

from otel_groundedness.gateway.listen import ListenAddress
from otel_groundedness.gateway.settings import ConfigError

GATEWAY_SERVICE_NAME = "otel-groundedness-gateway"


@dataclass
class Meters:
    provider: MeterProvider
    prometheus_port: int | None
    _prometheus: WSGIServer | None

    def shutdown(self, timeout_s: float) -> None:
        """Export the last metrics (bounded by ``timeout_s``), then close the endpoint."""
        self.provider.shutdown(timeout_millis=max(1.0, timeout_s * 1000))
        if self._prometheus is not None:
            self._prometheus.shutdown()
            self._prometheus.server_close()


def gateway_resource() -> Resource:
    """``OTEL_RESOURCE_ATTRIBUTES`` and ``OTEL_SERVICE_NAME`` over the gateway's defaults; a random
    ``service.instance.id`` keeps the replicas' series apart."""
    detected = Resource.create()
    kept = {
        key: value
        for key, value in detected.attributes.items()
        if not (key == SERVICE_NAME and str(value).startswith("unknown_service"))
    }
    return Resource({SERVICE_NAME: GATEWAY_SERVICE_NAME, SERVICE_INSTANCE_ID: str(uuid.uuid4()), **kept})


def build_meters(prometheus: ListenAddress | None, environ: Mapping[str, str]) -> Meters:
    """``OSError`` when the Prometheus address cannot be bound; ``ConfigError`` for a bad protocol."""
    readers: list[MetricReader] = []
    if environ.get("OTEL_METRICS_EXPORTER", "otlp").strip().lower() != "none":
        readers.append(PeriodicExportingMetricReader(_otlp_metric_exporter(environ)))
    server: WSGIServer | None = None
    port: int | None = None
    if prometheus is not None:
        registry = CollectorRegistry()
        readers.append(PrometheusMetricReader(registry=registry))
        try:
            server, _ = start_http_server(prometheus.port, addr=prometheus.host, registry=registry)
        except OSError as error:
            raise OSError(f"cannot listen on {prometheus} (Prometheus): {error.strerror or error}") from None
        port = server.server_port
    return Meters(MeterProvider(resource=gateway_resource(), metric_readers=readers), port, server)


def _otlp_metric_exporter(environ: Mapping[str, str]) -> MetricExporter:
    variable = next(
        (
            name
            for name in ("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")
            if environ.get(name)
        ),
        None,
    )
    protocol = environ[variable].strip() if variable else "grpc"
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter as GrpcExporter

        return GrpcExporter()
    if protocol == "http/protobuf":
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter as HttpExporter

        return HttpExporter()
    raise ConfigError(f"invalid {variable}: {protocol!r} is not one of grpc, http/protobuf")
