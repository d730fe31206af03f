"""The scoring tier of docs/gateway.md, started for real on 127.0.0.1: the custom Collector with the
shipped front-tier config (loadbalancing by trace id, static resolver), three (or N)
``otel-groundedness gateway`` processes that know the front tier's ring (log records to their trace's
owner) and keep a write-ahead log each, and a back Collector.

The back Collector has one OTLP receiver per gateway, each writing its own files, so a test knows
which gateway forwarded every span. A test overlay adds a ``file`` exporter to the front tier's
trace and log pipelines: what the applications sent, to replay and compare with.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from otel_groundedness.otlp.values import ValueReader
from otel_groundedness.telemetry import names
from tests.free_ports import free_port
from tests.gateway.process import GatewayProcess, start_gateway_process
from tests.gateway.traffic import Request, parse_requests

from .services import COLLECTOR_DIR, COLLECTOR_READY, Service, start_service, write_yaml

GATEWAYS = 3
# The back Collector writes what it accepted this often; a SIGKILL of it loses at most this much.
BACK_FLUSH_INTERVAL = "10ms"
FRONT_CONFIG = COLLECTOR_DIR / "otelcol-groundedness.gateway.yaml"
# Senders batch for at most this long (OTEL_BSP_SCHEDULE_DELAY), well inside the gateways' idle wait.
SENDER_BATCH_DELAY_MS = 500
TRACE_IDLE_S = 3.0

SpanKey = tuple[str, str]  # trace id, span id (hex)


@dataclass
class ReceivedSpan:
    gateway: int
    trace_id: str
    span_id: str
    name: str
    evaluation: dict[str, Any]  # the gen_ai.evaluation.groundedness.* attributes
    events: int  # gen_ai.evaluation.result span events


@dataclass
class Tier:
    workdir: Path
    collector: Path
    count: int = GATEWAYS
    front: Service | None = None
    front_http: str = ""
    back: Service | None = None
    back_endpoints: list[str] = field(default_factory=list)
    gateway_ports: list[int] = field(default_factory=list)
    gateways: list[GatewayProcess | None] = field(default_factory=list)

    # --- lifecycle ---

    def start(self) -> None:
        self.gateway_ports = [free_port() for _ in range(self.count)]
        self._start_back()
        self.gateways = [self.start_gateway(index) for index in range(self.count)]
        self._start_front()

    def start_gateway(self, index: int, extra: list[str] | None = None) -> GatewayProcess:
        env = {
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://{self.back_endpoints[index]}",
            "OTEL_METRICS_EXPORTER": "none",
        }
        args = ["--trace-idle-s", str(TRACE_IDLE_S), "--shutdown-timeout-s", "20"]
        args += ["--grpc-listen", f"127.0.0.1:{self.gateway_ports[index]}"]  # where the front tier sends
        args += ["--ring-endpoints", self.endpoints_list, "--ring-self", self.endpoint(index), *(extra or [])]
        return start_gateway_process(self.workdir / "gateways", f"gateway{index}", env=env, args=args)

    def endpoint(self, index: int) -> str:
        return f"127.0.0.1:{self.gateway_ports[index]}"

    @property
    def endpoints_list(self) -> str:
        """The front tier's ``GATEWAY_ENDPOINTS``, which the gateways' ring settings repeat."""
        return "[" + ", ".join(self.endpoint(index) for index in range(self.count)) + "]"

    def stop(self) -> None:
        for service in (self.front, *self.gateways, self.back):
            if isinstance(service, GatewayProcess):
                service.terminate()
            elif service is not None:
                service.stop()

    def _start_back(self) -> None:
        out = self.workdir / "back"
        out.mkdir(parents=True)
        self.back_endpoints = [f"127.0.0.1:{free_port()}" for _ in range(self.count)]
        receivers: dict[str, Any] = {
            "otlp/front": {"protocols": {"grpc": {"endpoint": f"127.0.0.1:{free_port()}"}}}
        }
        exporters: dict[str, Any] = {"file/metrics": {"path": str(out / "metrics.jsonl")}}
        pipelines: dict[str, Any] = {"metrics": {"receivers": ["otlp/front"], "exporters": ["file/metrics"]}}
        for index, endpoint in enumerate(self.back_endpoints):
            receivers[f"otlp/g{index}"] = {"protocols": {"grpc": {"endpoint": endpoint}}}
            for signal in ("traces", "logs"):
                exporters[f"file/{signal}{index}"] = {
                    "path": str(out / f"g{index}-{signal}.jsonl"),
                    "flush_interval": BACK_FLUSH_INTERVAL,
                    "append": True,  # a restarted back Collector adds to what it wrote
                }
                pipelines[f"{signal}/g{index}"] = {
                    "receivers": [f"otlp/g{index}"],
                    "exporters": [f"file/{signal}{index}"],
                }
        self.metrics_endpoint = receivers["otlp/front"]["protocols"]["grpc"]["endpoint"]
        config = {
            "receivers": receivers,
            "exporters": exporters,
            "service": {"telemetry": {"metrics": {"level": "none"}}, "pipelines": pipelines},
        }
        self.back_config = write_yaml(out / "back.yaml", config)
        self.start_back()

    def start_back(self) -> None:
        """The back Collector, on the ports and files it had (again after a kill)."""
        out = self.workdir / "back"
        argv = [str(self.collector), "--config", str(self.back_config)]
        back = self.back = start_service("back", argv, out)
        back.wait_ready("ready", lambda: back.logged(COLLECTOR_READY), timeout=30)

    def _start_front(self) -> None:
        out = self.workdir / "front"
        out.mkdir(parents=True)
        overlay = {
            "exporters": {
                "file/sent_traces": {"path": str(out / "sent-traces.jsonl"), "flush_interval": "100ms"},
                "file/sent_logs": {"path": str(out / "sent-logs.jsonl"), "flush_interval": "100ms"},
            },
            "service": {
                "pipelines": {
                    "traces": {"exporters": ["load_balancing", "file/sent_traces"]},
                    "logs": {"exporters": ["load_balancing", "file/sent_logs"]},
                }
            },
        }
        http_port = free_port()
        env = {
            "OTLP_GRPC_LISTEN": f"127.0.0.1:{free_port()}",
            "OTLP_HTTP_LISTEN": f"127.0.0.1:{http_port}",
            "OTELCOL_TELEMETRY_HOST": "127.0.0.1",
            "OTELCOL_TELEMETRY_PORT": str(free_port()),
            "GATEWAY_ENDPOINTS": self.endpoints_list,
            "BACK_TIER_ENDPOINT": self.metrics_endpoint,
        }
        argv = [
            str(self.collector),
            "--config",
            str(FRONT_CONFIG),
            "--config",
            str(write_yaml(out / "overlay.yaml", overlay)),
        ]
        front = self.front = start_service("front", argv, out, env)
        front.wait_ready("ready", lambda: front.logged(COLLECTOR_READY), timeout=30)
        self.front_http = f"http://127.0.0.1:{http_port}"

    # --- what went in and what came out ---

    def sent(self) -> list[Request]:
        """Every request the applications sent to the front tier."""
        front = self.workdir / "front"
        return [*_requests(front / "sent-traces.jsonl"), *_requests(front / "sent-logs.jsonl")]

    def sent_span_keys(self) -> Counter[SpanKey]:
        return Counter(_span_keys(self.sent()))

    def received(self) -> list[ReceivedSpan]:
        reader = ValueReader()
        spans = []
        for index in range(self.count):
            for request in _requests(self.workdir / "back" / f"g{index}-traces.jsonl"):
                assert isinstance(request, ExportTraceServiceRequest)
                for resource_spans in request.resource_spans:
                    for scope_spans in resource_spans.scope_spans:
                        for span in scope_spans.spans:
                            attributes = reader.attributes(span.attributes)
                            evaluation = {
                                k: v for k, v in attributes.items() if k.startswith(names.SPAN_PREFIX)
                            }
                            events = sum(
                                1 for event in span.events if event.name == names.EVENT_EVALUATION_RESULT
                            )
                            spans.append(
                                ReceivedSpan(
                                    index,
                                    span.trace_id.hex(),
                                    span.span_id.hex(),
                                    span.name,
                                    evaluation,
                                    events,
                                )
                            )
        return spans

    def evaluation_records(self) -> Counter[SpanKey]:
        records: Counter[SpanKey] = Counter()
        for index in range(self.count):
            for request in _requests(self.workdir / "back" / f"g{index}-logs.jsonl"):
                for resource_logs in getattr(request, "resource_logs", ()):
                    for scope_logs in resource_logs.scope_logs:
                        for log in scope_logs.log_records:
                            if log.event_name == names.EVENT_EVALUATION_RESULT:
                                records[(log.trace_id.hex(), log.span_id.hex())] += 1
        return records


def _requests(path: Path) -> list[Request]:
    if not path.exists():
        return []
    # The file exporter may be mid-line while it writes; only whole lines are read.
    text = path.read_text()
    return list(parse_requests(text[: text.rfind("\n") + 1].splitlines()))


def _span_keys(requests: list[Request]) -> list[SpanKey]:
    return [
        (span.trace_id.hex(), span.span_id.hex())
        for request in requests
        if isinstance(request, ExportTraceServiceRequest)
        for resource_spans in request.resource_spans
        for scope_spans in resource_spans.scope_spans
        for span in scope_spans.spans
    ]


def demo_report(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text())
    return document
