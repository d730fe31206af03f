"""Sending one export request downstream over OTLP gRPC or OTLP/HTTP protobuf, and saying whether a
failure is worth retrying (the OTLP specification's lists) and after how long."""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import grpc
import httpx
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

from otel_groundedness.gateway.export_queue import Outgoing
from otel_groundedness.gateway.otlp_env import ExportTarget, Signal
from otel_groundedness.gateway.rpc_status import retry_delay_s

_RETRYABLE_CODES = frozenset(
    {
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.OUT_OF_RANGE,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DATA_LOSS,
    }
)
_RETRYABLE_HTTP = frozenset({429, 502, 503, 504})
_METHODS: dict[Signal, str] = {
    "traces": "/opentelemetry.proto.collector.trace.v1.TraceService/Export",
    "logs": "/opentelemetry.proto.collector.logs.v1.LogsService/Export",
}
_Response = trace_service_pb2.ExportTraceServiceResponse | logs_service_pb2.ExportLogsServiceResponse
_RESPONSE_TYPES: dict[Signal, type[_Response]] = {
    "traces": trace_service_pb2.ExportTraceServiceResponse,
    "logs": logs_service_pb2.ExportLogsServiceResponse,
}


@dataclass(frozen=True, slots=True)
class SendResult:
    """``rejected``: items the receiver refused in a partial success (not retried, per the spec)."""

    ok: bool
    retryable: bool = False
    retry_after_s: float | None = None
    detail: str = ""
    rejected: int = 0


class Sender(Protocol):
    def send(self, item: Outgoing) -> SendResult: ...

    def close(self) -> None: ...


class GrpcSender:
    """OTLP/gRPC to ``host:port``; thread-safe (one channel shared by every export worker)."""

    def __init__(self, target: ExportTarget) -> None:
        self._target = target
        options = [("grpc.max_send_message_length", -1)]
        if target.tls:
            root = Path(target.certificate).read_bytes() if target.certificate else None
            credentials = grpc.ssl_channel_credentials(root_certificates=root)
            self._channel = grpc.secure_channel(target.endpoint, credentials, options=options)
        else:
            self._channel = grpc.insecure_channel(target.endpoint, options=options)
        # No request serializer: the request is sent as encoded in the queue.
        self._export: grpc.UnaryUnaryMultiCallable[bytes, _Response] = self._channel.unary_unary(
            _METHODS[target.signal], response_deserializer=_RESPONSE_TYPES[target.signal].FromString
        )
        self._compression = grpc.Compression.Gzip if target.gzip else None

    def send(self, item: Outgoing) -> SendResult:
        try:
            response = self._export(
                item.body,
                timeout=self._target.timeout_s,
                metadata=self._target.headers,
                compression=self._compression,
            )
        except grpc.RpcError as error:
            code = error.code()
            delay = retry_delay_s(error)
            retryable = code in _RETRYABLE_CODES or (
                code == grpc.StatusCode.RESOURCE_EXHAUSTED and delay is not None
            )
            return SendResult(False, retryable, delay, f"{code.name}: {error.details()}")
        return SendResult(True, rejected=_rejected(response))

    def close(self) -> None:
        self._channel.close()


class HttpSender:
    """OTLP/HTTP with protobuf bodies to a full URL; thread-safe (one client, its connection pool)."""

    def __init__(self, target: ExportTarget) -> None:
        self._target = target
        headers = {"Content-Type": "application/x-protobuf", **dict(target.headers)}
        if target.gzip:
            headers["Content-Encoding"] = "gzip"
        verify: str | bool = target.certificate or True
        self._client = httpx.Client(headers=headers, timeout=target.timeout_s, verify=verify)
        self._response_type = _RESPONSE_TYPES[target.signal]

    def send(self, item: Outgoing) -> SendResult:
        body = item.body
        if self._target.gzip:
            body = gzip.compress(body, compresslevel=1)
        try:
            response = self._client.post(self._target.endpoint, content=body)
        except httpx.HTTPError as error:
            return SendResult(False, True, None, f"{type(error).__name__}: {error}")
        if response.status_code == 200:
            try:
                parsed = self._response_type.FromString(response.content)
            except Exception:  # an empty or non-protobuf 200 body is still a success
                return SendResult(True)
            return SendResult(True, rejected=_rejected(parsed))
        retryable = response.status_code in _RETRYABLE_HTTP
        return SendResult(
            False,
            retryable,
            _retry_after(response.headers.get("retry-after")),
            f"HTTP {response.status_code}",
        )

    def close(self) -> None:
        self._client.close()


def make_sender(target: ExportTarget) -> Sender:
    return GrpcSender(target) if target.protocol == "grpc" else HttpSender(target)


def _rejected(
    response: trace_service_pb2.ExportTraceServiceResponse | logs_service_pb2.ExportLogsServiceResponse,
) -> int:
    if isinstance(response, trace_service_pb2.ExportTraceServiceResponse):
        return int(response.partial_success.rejected_spans)
    return int(response.partial_success.rejected_log_records)


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:  # an HTTP date: rare from Collectors, the backoff applies instead
        return None
