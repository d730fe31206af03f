"""OTLP/gRPC receiver: the trace and logs services of ``opentelemetry-proto``'s stubs, on ``grpcio``.

A refused request ends with ``RESOURCE_EXHAUSTED`` (bounds full) or ``UNAVAILABLE`` (draining, or the
write-ahead log full), both with ``RetryInfo``, which OTLP senders retry; a request over the size
limit is refused by gRPC itself with ``RESOURCE_EXHAUSTED`` and no ``RetryInfo`` (not retryable), and
one that does not parse with ``INTERNAL``, as gRPC reports a failed deserialization.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import grpc
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

from otel_groundedness.gateway.intake import Intake, Refusal
from otel_groundedness.gateway.listen import ListenAddress
from otel_groundedness.gateway.log_routing import FORWARDED_HEADER
from otel_groundedness.gateway.receiver_tls import ReceiverTls
from otel_groundedness.gateway.rpc_status import retry_status

# Handler threads: requests are CPU-bound under one interpreter lock, a few suffice to overlap I/O.
_WORKERS = 8
_TRACE_SERVICE = "opentelemetry.proto.collector.trace.v1.TraceService"
_LOGS_SERVICE = "opentelemetry.proto.collector.logs.v1.LogsService"


_EMPTY_RESPONSE = b""  # an empty Export*ServiceResponse


def _trace_export(intake: Intake) -> grpc.RpcMethodHandler[bytes, bytes]:
    def export(body: bytes, context: grpc.ServicerContext) -> bytes:
        request = _parse(trace_service_pb2.ExportTraceServiceRequest, body, context)
        _refuse_if(intake.traces(request, body=body), context)
        return _EMPTY_RESPONSE

    return grpc.unary_unary_rpc_method_handler(export)


def _logs_export(intake: Intake) -> grpc.RpcMethodHandler[bytes, bytes]:
    def export(body: bytes, context: grpc.ServicerContext) -> bytes:
        request = _parse(logs_service_pb2.ExportLogsServiceRequest, body, context)
        from_peer = any(key == FORWARDED_HEADER for key, _ in context.invocation_metadata())
        _refuse_if(intake.logs(request, from_peer=from_peer, body=body), context)
        return _EMPTY_RESPONSE

    return grpc.unary_unary_rpc_method_handler(export)


M = TypeVar("M", trace_service_pb2.ExportTraceServiceRequest, logs_service_pb2.ExportLogsServiceRequest)


def _parse(message_type: type[M], body: bytes, context: grpc.ServicerContext) -> M:
    """The request, parsed here rather than by gRPC: the write-ahead log keeps ``body`` as it came."""
    try:
        request: M = message_type.FromString(body)
    except DecodeError:
        context.abort(grpc.StatusCode.INTERNAL, "request does not parse")  # as gRPC's own deserializer
        raise  # not reached: abort raises
    return request


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
    # Generic handlers with no deserializer: the handler gets the request's bytes.
    server.add_generic_rpc_handlers(
        (
            grpc.method_handlers_generic_handler(_TRACE_SERVICE, {"Export": _trace_export(intake)}),
            grpc.method_handlers_generic_handler(_LOGS_SERVICE, {"Export": _logs_export(intake)}),
        )
    )
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
