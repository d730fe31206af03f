"""A real OTLP/gRPC server standing in for the next Collector tier: it keeps every request it is sent
(traces, logs, metrics), and can be told to fail the next calls (to test the gateway's retries)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import grpc
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2, logs_service_pb2_grpc
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2, metrics_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
from opentelemetry.proto.metrics.v1.metrics_pb2 import Metric
from opentelemetry.proto.trace.v1.trace_pb2 import Span


class OtlpSink:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.trace_requests: list[trace_service_pb2.ExportTraceServiceRequest] = []
        self.log_requests: list[logs_service_pb2.ExportLogsServiceRequest] = []
        self.metric_requests: list[metrics_service_pb2.ExportMetricsServiceRequest] = []
        self._failures: deque[grpc.StatusCode] = deque()
        self.calls = 0
        self._server = grpc.server(ThreadPoolExecutor(max_workers=4))
        sink = self

        class Traces(trace_service_pb2_grpc.TraceServiceServicer):
            def Export(self, request, context):  # type: ignore[no-untyped-def]
                sink._take(context, sink.trace_requests, request)
                return trace_service_pb2.ExportTraceServiceResponse()

        class Logs(logs_service_pb2_grpc.LogsServiceServicer):
            def Export(self, request, context):  # type: ignore[no-untyped-def]
                sink._take(context, sink.log_requests, request)
                return logs_service_pb2.ExportLogsServiceResponse()

        class Metrics(metrics_service_pb2_grpc.MetricsServiceServicer):
            def Export(self, request, context):  # type: ignore[no-untyped-def]
                sink._take(context, sink.metric_requests, request)
                return metrics_service_pb2.ExportMetricsServiceResponse()

        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Traces(), self._server)
        metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(Metrics(), self._server)
        logs_service_pb2_grpc.add_LogsServiceServicer_to_server(Logs(), self._server)
        self.port = self._server.add_insecure_port("127.0.0.1:0")
        self._server.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def fail_next(self, calls: int, code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE) -> None:
        with self._lock:
            self._failures.extend([code] * calls)

    def stop_failing(self) -> None:
        with self._lock:
            self._failures.clear()

    def _take(self, context: grpc.ServicerContext, into: list, request: object) -> None:  # type: ignore[type-arg]
        with self._lock:
            self.calls += 1
            code = self._failures.popleft() if self._failures else None
            if code is None:
                into.append(request)
        if code is not None:
            context.abort(code, "injected failure")

    def spans(self) -> list[Span]:
        with self._lock:
            requests = list(self.trace_requests)
        return [
            span for r in requests for rs in r.resource_spans for ss in rs.scope_spans for span in ss.spans
        ]

    def log_records(self) -> list[LogRecord]:
        with self._lock:
            requests = list(self.log_requests)
        return [
            log for r in requests for rl in r.resource_logs for sl in rl.scope_logs for log in sl.log_records
        ]

    def metrics(self, name: str) -> list[Metric]:
        """Every exported metric named ``name``, in the order received."""
        with self._lock:
            requests = list(self.metric_requests)
        return [
            metric
            for r in requests
            for rm in r.resource_metrics
            for sm in rm.scope_metrics
            for metric in sm.metrics
            if metric.name == name
        ]

    def wait_for(self, what: str, done: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
            time.sleep(0.05)

    def stop(self) -> None:
        self._server.stop(None)
