"""Interim stand-in for ``otel-groundedness demo`` with the same flags (used until the demo lands).

Emits, through the real OpenTelemetry SDK, what an instrumented agent plus the groundedness processor
export: one trace per turn whose answer span carries the score attributes, one
``gen_ai.evaluation.result`` log record per scored turn with that span's ids, and every metric in
``names.METRICS`` (OTLP/HTTP to a collector and a Prometheus endpoint on 127.0.0.1).
"""

from __future__ import annotations

import argparse
import random
import time

from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.exporter.prometheus import PrometheusMetricReader
from opentelemetry.metrics import CallbackOptions, Observation
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import SpanKind
from prometheus_client import start_http_server

from otel_groundedness.telemetry import names

AGENTS = (("invoice-agent", "gpt-4o-mini"), ("support-agent", "gpt-4o"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--fault-rate", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--otlp-endpoint", required=True)
    parser.add_argument("--prometheus-port", type=int, required=True)
    parser.add_argument("--linger", type=float, default=0.0)
    args = parser.parse_args()

    resource = Resource.create({"service.name": "groundedness-demo", "service.instance.id": "e2e"})
    endpoint = args.otlp_endpoint.rstrip("/")
    tracer_provider = TracerProvider(resource=resource)
    tracer_provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(f"{endpoint}/v1/traces")))
    logger_provider = LoggerProvider(resource=resource)
    logger_provider.add_log_record_processor(BatchLogRecordProcessor(OTLPLogExporter(f"{endpoint}/v1/logs")))
    readers: list[MetricReader] = [
        PrometheusMetricReader(),
        PeriodicExportingMetricReader(OTLPMetricExporter(f"{endpoint}/v1/metrics"), 1000),
    ]
    meter_provider = MeterProvider(metric_readers=readers, resource=resource)
    start_http_server(args.prometheus_port, addr="127.0.0.1")

    tracer = tracer_provider.get_tracer("e2e-traffic")
    evaluation_logger = logger_provider.get_logger("e2e-traffic")
    meter = meter_provider.get_meter("e2e-traffic")
    score_histogram = meter.create_histogram(
        names.METRIC_SCORE.name,
        unit=names.METRIC_SCORE.unit,
        explicit_bucket_boundaries_advisory=list(names.SCORE_BUCKETS),
    )
    turns = meter.create_counter(names.METRIC_TURNS.name, unit=names.METRIC_TURNS.unit)
    atoms = meter.create_counter(names.METRIC_ATOMS.name, unit=names.METRIC_ATOMS.unit)
    skipped = meter.create_counter(names.METRIC_SKIPPED.name, unit=names.METRIC_SKIPPED.unit)
    duration = meter.create_histogram(
        names.METRIC_DURATION.name,
        unit=names.METRIC_DURATION.unit,
        explicit_bucket_boundaries_advisory=list(names.LATENCY_BUCKETS_S),
    )
    client_duration = meter.create_histogram("gen_ai.client.operation.duration", unit="s")

    def queue_size(_: CallbackOptions) -> list[Observation]:
        return [Observation(0)]

    meter.create_observable_gauge(
        names.METRIC_QUEUE_SIZE.name, [queue_size], unit=names.METRIC_QUEUE_SIZE.unit
    )

    rng = random.Random(args.seed)
    for index in range(args.turns):
        agent, model = AGENTS[index % len(AGENTS)]
        total = rng.randint(2, 5)
        contradicted = 1 if rng.random() < args.fault_rate else 0
        score = (total - contradicted) / total
        label = "grounded" if contradicted == 0 else ("ungrounded" if score < 0.8 else "partially_grounded")
        turn_attrs = {
            names.ATTR_EVALUATION_NAME: names.EVALUATION_NAME,
            names.ATTR_PROVIDER: "openai",
            names.ATTR_REQUEST_MODEL: model,
            names.ATTR_AGENT_NAME: agent,
            names.ATTR_OPERATION: "chat",
        }
        with tracer.start_as_current_span(f"invoke_agent {agent}"):
            with tracer.start_as_current_span("execute_tool get_invoice", kind=SpanKind.INTERNAL):
                pass
            with tracer.start_as_current_span(f"chat {model}", kind=SpanKind.CLIENT) as answer:
                answer.set_attributes(
                    {
                        names.ATTR_SCORE: score,
                        names.ATTR_SCORE_PERCENT: round(score * 100),
                        names.ATTR_LABEL: label,
                        names.ATTR_ATOMS_TOTAL: total,
                        names.ATTR_ATOMS_SUPPORTED: total - contradicted,
                        names.ATTR_ATOMS_CONTRADICTED: contradicted,
                        names.ATTR_ATOMS_UNSUPPORTED: 0,
                    }
                )
                # Emitted inside the answer span, so the record carries its trace and span ids.
                evaluation_logger.emit(
                    event_name=names.EVENT_EVALUATION_RESULT,
                    attributes={
                        names.ATTR_EVALUATION_NAME: names.EVALUATION_NAME,
                        names.ATTR_EVALUATION_SCORE_VALUE: score,
                        names.ATTR_EVALUATION_SCORE_LABEL: label,
                    },
                )
        client_duration.record(0.2, {names.ATTR_OPERATION: "chat", names.ATTR_REQUEST_MODEL: model})
        score_histogram.record(score, {**turn_attrs, names.ATTR_EVALUATION_SCORE_LABEL: label})
        turns.add(1, {**turn_attrs, names.ATTR_EVALUATION_SCORE_LABEL: label})
        atoms.add(
            total - contradicted,
            {**turn_attrs, names.ATTR_ATOM_KIND: "money", names.ATTR_ATOM_VERDICT: "supported"},
        )
        if contradicted:
            atoms.add(
                1, {**turn_attrs, names.ATTR_ATOM_KIND: "money", names.ATTR_ATOM_VERDICT: "contradicted"}
            )
        skipped.add(1, {names.ATTR_SKIP_REASON: "not_final"})
        duration.record(0.002, {names.ATTR_EVALUATION_NAME: names.EVALUATION_NAME})
        time.sleep(0.05)

    tracer_provider.force_flush()
    logger_provider.force_flush()
    meter_provider.force_flush()
    print(f"emitted {args.turns} turns", flush=True)
    time.sleep(args.linger)
    tracer_provider.shutdown()
    logger_provider.shutdown()
    meter_provider.shutdown()


if __name__ == "__main__":
    main()
