"""OTLP/HTTP receiver: a small ASGI app served by uvicorn on its own thread.

``POST /v1/traces`` and ``/v1/logs`` take protobuf or JSON, optionally gzip; ``GET /healthz`` and
``/readyz`` report liveness and readiness. Status codes follow the OTLP/HTTP specification: 400 for a
body that does not parse, 413 over the size limit (also after decompression), 415 for another content
type or encoding, 429 (bounds full) or 503 (draining, write-ahead log full) with ``Retry-After`` for a
refused request.
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import threading
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import uvicorn
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import status_pb2
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
    ExportLogsServiceRequest,
    ExportLogsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from otel_groundedness.gateway.gateway_metrics import GatewayMetrics
from otel_groundedness.gateway.intake import Intake, Refusal
from otel_groundedness.gateway.listen import ListenAddress
from otel_groundedness.gateway.log_routing import FORWARDED_HEADER
from otel_groundedness.gateway.receiver_tls import ReceiverTls
from otel_groundedness.otlp.json_documents import parse_error_text, prepare_for_parse

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

_PROTOBUF = "application/x-protobuf"
_JSON = "application/json"
_GZIP_WBITS = 16 + zlib.MAX_WBITS


@dataclass(frozen=True, slots=True)
class _Route:
    request_type: type[ExportTraceServiceRequest] | type[ExportLogsServiceRequest]
    response: Message
    admit: Callable[[Intake, Any, bool], Refusal | None]  # the request, and whether a peer sent it


_ROUTES = {
    "/v1/traces": _Route(
        ExportTraceServiceRequest,
        ExportTraceServiceResponse(),
        lambda intake, request, _from_peer: intake.traces(request),
    ),
    "/v1/logs": _Route(
        ExportLogsServiceRequest,
        ExportLogsServiceResponse(),
        lambda intake, request, from_peer: intake.logs(request, from_peer=from_peer),
    ),
}


class _BadRequest(Exception):
    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason


class OtlpHttpApp:
    """The ASGI application; ``healthy`` and ``ready`` are read on every probe."""

    def __init__(
        self,
        intake: Intake,
        metrics: GatewayMetrics,
        *,
        max_request_bytes: int,
        healthy: Callable[[], bool],
        ready: Callable[[], bool],
    ) -> None:
        self._intake = intake
        self._metrics = metrics
        self._max_bytes = max_request_bytes
        self._healthy = healthy
        self._ready = ready

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        if path in ("/healthz", "/readyz"):
            ok = self._healthy() if path == "/healthz" else self._ready()
            await _respond(send, 200 if ok else 503, b"ok\n" if ok else b"not ok\n", "text/plain")
            return
        route = _ROUTES.get(path)
        if route is None:
            await _respond(send, 404, b"not found\n", "text/plain")
            return
        if method != "POST":
            await _respond(send, 405, b"method not allowed\n", "text/plain", [(b"allow", b"POST")])
            return
        headers = {
            name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]
        }
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        try:
            request = await self._read_request(route, content_type, headers, receive)
        except _BadRequest as error:
            self._metrics.refused(error.reason)
            await _respond_status(send, error.status, content_type, str(error))
            return
        # Admission waits for the write-ahead log's commit: off the event loop, so requests share it.
        from_peer = FORWARDED_HEADER in headers
        refusal = await asyncio.to_thread(route.admit, self._intake, request, from_peer)
        if refusal is not None:
            retry_after = str(max(1, math.ceil(refusal.retry_after_s))).encode()
            status = 503 if refusal.reason in ("draining", "log_full") else 429
            await _respond_status(
                send, status, content_type, f"gateway {refusal.reason}", [(b"retry-after", retry_after)]
            )
            return
        await _respond(send, 200, _encode(route.response, content_type), content_type)

    async def _read_request(
        self, route: _Route, content_type: str, headers: dict[str, str], receive: Receive
    ) -> Any:
        if content_type not in (_PROTOBUF, _JSON):
            raise _BadRequest(415, "unsupported_media_type", f"content type must be {_PROTOBUF} or {_JSON}")
        encoding = headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("gzip", "identity", ""):
            raise _BadRequest(
                415, "unsupported_media_type", f"content encoding {encoding!r} is not supported"
            )
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self._max_bytes:
            raise _BadRequest(413, "too_large", f"request over {self._max_bytes} bytes")
        body = await self._read_body(receive)
        if encoding == "gzip":
            body = self._gunzip(body)
        return _parse(route.request_type, body, content_type)

    async def _read_body(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _BadRequest(400, "malformed", "client disconnected")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self._max_bytes:
                raise _BadRequest(413, "too_large", f"request over {self._max_bytes} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _gunzip(self, body: bytes) -> bytes:
        decompressor = zlib.decompressobj(_GZIP_WBITS)
        try:
            data = decompressor.decompress(body, self._max_bytes + 1)
        except zlib.error as error:
            raise _BadRequest(400, "malformed", f"invalid gzip body: {error}") from None
        if len(data) > self._max_bytes:
            raise _BadRequest(413, "too_large", f"request over {self._max_bytes} bytes once decompressed")
        if not decompressor.eof:
            raise _BadRequest(400, "malformed", "invalid gzip body: truncated")
        return data


def _parse(request_type: type[Message], body: bytes, content_type: str) -> Message:
    request = request_type()
    if content_type == _PROTOBUF:
        try:
            request.ParseFromString(body)
        except (DecodeError, RecursionError) as error:
            raise _BadRequest(400, "malformed", f"invalid protobuf body: {error}") from None
        return request
    try:
        document = json.loads(body)
        if not isinstance(document, dict):
            raise ValueError("expected a JSON object")
        prepare_for_parse(document)
        json_format.ParseDict(document, request, ignore_unknown_fields=True)
    except RecursionError:
        raise _BadRequest(400, "malformed", "invalid JSON body: nested too deeply") from None
    except json_format.ParseError as error:
        raise _BadRequest(400, "malformed", f"invalid OTLP JSON: {parse_error_text(error)}") from None
    except ValueError as error:  # json.JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise _BadRequest(400, "malformed", f"invalid JSON body: {error}") from None
    return request


def _encode(message: Message, content_type: str) -> bytes:
    if content_type == _JSON:
        return str(json_format.MessageToJson(message, indent=None)).encode()
    return bytes(message.SerializeToString())


async def _respond_status(
    send: Send, status: int, content_type: str, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    # OTLP/HTTP error bodies are a google.rpc.Status in the request's encoding (protobuf otherwise).
    reply_type = _JSON if content_type == _JSON else _PROTOBUF
    body = _encode(status_pb2.Status(code=_GRPC_CODES.get(status, 2), message=message), reply_type)
    await _respond(send, status, body, reply_type, headers)


# The gRPC code the OTLP/HTTP specification pairs with each status.
_GRPC_CODES = {400: 3, 413: 3, 415: 3, 429: 8, 503: 14}


async def _respond(
    send: Send, status: int, body: bytes, content_type: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", content_type.encode()), *(headers or [])],
        }
    )
    await send({"type": "http.response.body", "body": body})


class HttpServer:
    """uvicorn on a socket bound here (so a bind error is raised at start, not in the thread)."""

    def __init__(self, app: OtlpHttpApp, address: ListenAddress, tls: ReceiverTls | None = None) -> None:
        family = socket.AF_INET6 if ":" in address.host else socket.AF_INET
        self._socket = socket.socket(family, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._socket.bind((address.host, address.port))
        except OSError as error:
            self._socket.close()
            raise OSError(f"cannot listen on {address} (HTTP): {error.strerror or error}") from None
        self._socket.listen(1024)
        self.port: int = self._socket.getsockname()[1]
        config = uvicorn.Config(
            app,
            log_config=None,
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=5,
            **(tls.uvicorn_options() if tls else {}),
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, name="groundedness-http", daemon=True
        )

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float) -> None:
        self._server.should_exit = True
        self._thread.join(timeout)
        self._socket.close()
