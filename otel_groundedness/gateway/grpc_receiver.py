"""OTLP/gRPC receiver: the trace and logs services of ``opentelemetry-proto``'s stubs, on ``grpcio``.

A refused request ends with ``RESOURCE_EXHAUSTED`` (bounds full) or ``UNAVAILABLE`` (draining, or the
write-ahead log full), both with ``RetryInfo``, which OTLP senders retry; a request over the size
limit is refused by gRPC itself with ``RESOURCE_EXHAUSTED`` and no ``RetryInfo`` (not retryable), and
one that does not parse with ``INTERNAL``, as gRPC reports a failed deserialization.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import grpc
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2, logs_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

from otel_groundedness.gateway.intake import Intake, Refusal
from otel_groundedness.gateway.listen import ListenAddress
from otel_groundedness.gateway.log_routing import FORWARDED_HEADER
from otel_groundedness.gateway.receiver_tls import ReceiverTls
from otel_groundedness.gateway.rpc_status import retry_status

# Handler threads: requests are CPU-bound under one interpreter lock, a few suffice to overlap I/O.
_WORKERS = 8


class _TraceService(trace_service_pb2_grpc.TraceServiceServicer):
    def __init__(self, intake: Intake) -> None:
        self._intake = intake

    def Export(
        self, request: trace_service_pb2.ExportTraceServiceRequest, context: grpc.ServicerContext
    ) -> trace_service_pb2.ExportTraceServiceResponse:
        _refuse_if(self._intake.traces(request), context)
        return trace_service_pb2.ExportTraceServiceResponse()


class _LogsService(logs_service_pb2_grpc.LogsServiceServicer):
    def __init__(self, intake: Intake) -> None:
        self._intake = intake

    def Export(
        self, request: logs_service_pb2.ExportLogsServiceRequest, context: grpc.ServicerContext
    ) -> logs_service_pb2.ExportLogsServiceResponse:
        from_peer = any(key == FORWARDED_HEADER for key, _ in context.invocation_metadata())
        _refuse_if(self._intake.logs(request, from_peer=from_peer), context)
        return logs_service_pb2.ExportLogsServiceResponse()


def _refuse_if(refusal: Refusal | None, context: grpc.ServicerContext) -> None:
    if refusal is None:
        return
    unavailable = refusal.reason in ("draining", "log_full")
    code = grpc.StatusCode.UNAVAILABLE if unavailable else grpc.StatusCode.RESOURCE_EXHAUSTED
    context.abort_with_status(retry_status(code, f"gateway {refusal.reason}", refusal.retry_after_s))


def bind_grpc_server(
    address: ListenAddress, intake: Intake, max_request_bytes: int, tls: ReceiverTls | None = None
) -> tuple[grpc.Server, int]:
    """A server bound to ``address`` (not yet started; TLS only when ``tls`` is given) and its port;
    ``OSError`` if it cannot bind."""
    server = grpc.server(
        ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="groundedness-grpc"),
        options=[("grpc.max_receive_message_length", max_request_bytes), ("grpc.so_reuseport", 0)],
    )
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(_TraceService(intake), server)  # type: ignore[no-untyped-call]
    logs_service_pb2_grpc.add_LogsServiceServicer_to_server(_LogsService(intake), server)  # type: ignore[no-untyped-call]
    try:
        if tls is None:
            port = server.add_insecure_port(str(address))
        else:
            port = server.add_secure_port(str(address), tls.grpc_credentials())
    except RuntimeError as error:  # grpcio raises where older versions returned 0
        raise OSError(f"cannot listen on {address} (gRPC): {error}") from None
    if port == 0:
        raise OSError(f"cannot listen on {address} (gRPC)")
    return server, port
