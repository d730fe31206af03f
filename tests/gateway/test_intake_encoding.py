"""What a request becomes on admission: what is forwarded unchanged leaves as the bytes received
(never encoded again), held GenAI spans are kept encoded, and a request changed on admission (spans
held, records moved) leaves encoded as changed."""

from __future__ import annotations

import time

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
from opentelemetry.sdk.metrics import MeterProvider

from otel_groundedness.gateway.export_queue import ExportQueue
from otel_groundedness.gateway.gateway_metrics import GatewayMetrics
from otel_groundedness.gateway.intake import Intake
from otel_groundedness.gateway.trace_buffer import TraceBuffer

from .traffic import plain_request

TRACE = b"\x07" * 16


def intake() -> tuple[Intake, TraceBuffer, ExportQueue]:
    buffer = TraceBuffer(max_traces=10, max_bytes=1 << 20, idle_s=0, max_wait_s=0, clock=time.monotonic)
    queue = ExportQueue(1 << 20)
    zero = lambda: 0  # noqa: E731
    metrics = GatewayMetrics(
        MeterProvider(),
        held_traces=zero,
        held_bytes=zero,
        queue_items=zero,
        queue_bytes=zero,
        wal_bytes=zero,
    )
    return Intake(buffer, queue, metrics), buffer, queue


def with_chat_span(request: ExportTraceServiceRequest) -> ExportTraceServiceRequest:
    scope_spans = request.resource_spans[0].scope_spans[0]
    chat = scope_spans.spans.add(trace_id=TRACE, span_id=b"\x01" * 8, name="chat gpt-4o")
    chat.attributes.append(KeyValue(key="gen_ai.operation.name", value=AnyValue(string_value="chat")))
    return request


def test_a_request_with_nothing_to_hold_is_forwarded_as_the_bytes_received() -> None:
    admit, _, queue = intake()
    body = plain_request(3).SerializeToString()
    assert admit.traces(ExportTraceServiceRequest.FromString(body), body=body) is None
    (item,) = queue.take_waiting()
    assert item.body is body and (item.items, item.size) == (3, len(body))


def test_a_logs_request_is_forwarded_as_the_bytes_received() -> None:
    admit, _, queue = intake()
    request = ExportLogsServiceRequest()
    request.resource_logs.add().scope_logs.add().log_records.append(LogRecord(event_name="app.started"))
    body = request.SerializeToString()
    assert admit.logs(ExportLogsServiceRequest.FromString(body), body=body) is None
    (item,) = queue.take_waiting()
    assert item.body is body


def test_held_spans_are_kept_encoded_and_the_rest_leaves_encoded_without_them() -> None:
    admit, buffer, queue = intake()
    request = with_chat_span(plain_request(2))
    chat = request.resource_spans[0].scope_spans[0].spans[2].SerializeToString()
    body = request.SerializeToString()
    assert admit.traces(ExportTraceServiceRequest.FromString(body), body=body) is None

    (held,) = buffer.take_all()
    assert [span.span for span in held.spans] == [chat]
    assert held.spans[0].origin.scope == request.resource_spans[0].scope_spans[0].scope.SerializeToString()
    (item,) = queue.take_waiting()
    rest = ExportTraceServiceRequest.FromString(item.body)
    del request.resource_spans[0].scope_spans[0].spans[2]
    assert rest == request and item.items == 2


def test_without_the_received_bytes_a_request_is_encoded_once_to_forward_it() -> None:
    admit, _, queue = intake()
    request = plain_request(2)
    assert admit.traces(request) is None
    (item,) = queue.take_waiting()
    assert ExportTraceServiceRequest.FromString(item.body) == request
