"""Traffic for the gateway tests: demo-shaped GenAI traces (``benchmarks.recording``: content on spans
and in log records, several traces per request) and plain spans, as OTLP requests, plus a gRPC client."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2_grpc
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from benchmarks.recording import write_recording
from otel_groundedness.otlp.json_documents import prepare_for_parse

Request = ExportTraceServiceRequest | ExportLogsServiceRequest


def demo_requests(path: Path, min_bytes: int) -> list[Request]:
    """Unscored demo-shaped traffic, written by ``write_recording`` to ``path`` and read back."""
    write_recording(path, min_bytes)
    return list(parse_requests(path.read_text().splitlines()))


def parse_requests(lines: Iterable[str]) -> Iterator[Request]:
    """OTLP JSON lines (hex ids, as the Collector's ``file`` exporter writes them) as requests."""
    for line in lines:
        for document in _documents(line):
            prepare_for_parse(document)
            traces = "resourceSpans" in document
            request = ExportTraceServiceRequest() if traces else ExportLogsServiceRequest()
            yield json_format.ParseDict(document, request)


def _documents(line: str) -> Iterator[dict[str, Any]]:
    """The JSON documents of one line. A Collector killed mid-write leaves a record without its
    newline (whole or cut short), and the restarted one appends the next record to that line: the
    whole records are read, a cut one is skipped (its export was never acknowledged, so it is sent
    again)."""
    decoder = json.JSONDecoder()
    at = line.find("{")
    while at >= 0:
        try:
            document, end = decoder.raw_decode(line, at)
        except ValueError:
            at = line.find('{"resource', at + 1)
            continue
        if isinstance(document, dict):
            yield document
        at = line.find("{", end)


def plain_request(spans: int, *, trace_id: bytes | None = None) -> ExportTraceServiceRequest:
    """Non-GenAI server spans (HTTP attributes only), each in a fresh trace unless ``trace_id`` is given."""
    request = ExportTraceServiceRequest()
    resource_spans = request.resource_spans.add()
    resource_spans.resource.attributes.append(
        KeyValue(key="service.name", value=AnyValue(string_value="shop"))
    )
    scope_spans = resource_spans.scope_spans.add()
    scope_spans.scope.name = "http.server"
    for _ in range(spans):
        span = scope_spans.spans.add(
            trace_id=trace_id or os.urandom(16),
            span_id=os.urandom(8),
            name="GET /items",
            kind=2,
            start_time_unix_nano=1_700_000_000_000_000_000,
            end_time_unix_nano=1_700_000_000_050_000_000,
        )
        for key, value in (("http.request.method", "GET"), ("http.route", "/items"), ("url.path", "/items")):
            span.attributes.append(KeyValue(key=key, value=AnyValue(string_value=value)))
    return request


def span_ids(requests: list[Request]) -> list[bytes]:
    return [
        span.span_id
        for request in requests
        if isinstance(request, ExportTraceServiceRequest)
        for resource_spans in request.resource_spans
        for scope_spans in resource_spans.scope_spans
        for span in scope_spans.spans
    ]


class GrpcClient:
    """An OTLP/gRPC client of the gateway; ``send`` returns the error, or None on success."""

    def __init__(self, port: int, *, channel: grpc.Channel | None = None) -> None:
        self._channel = channel or grpc.insecure_channel(f"127.0.0.1:{port}")
        self._traces = trace_service_pb2_grpc.TraceServiceStub(self._channel)
        self._logs = logs_service_pb2_grpc.LogsServiceStub(self._channel)

    def send(self, request: Request) -> grpc.RpcError | None:
        export = self._traces.Export if isinstance(request, ExportTraceServiceRequest) else self._logs.Export
        try:
            export(request, timeout=30)
        except grpc.RpcError as error:
            return error
        return None

    def close(self) -> None:
        self._channel.close()
