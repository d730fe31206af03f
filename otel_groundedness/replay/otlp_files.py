"""Read and write OTLP files as the Collector's ``file`` exporter writes them.

JSON: one ``ExportTraceServiceRequest`` / ``ExportLogsServiceRequest`` / metrics request per
line (OTLP/JSON: camelCase keys, hex trace and span ids). Protobuf: each request preceded by
its length as a 4-byte big-endian unsigned integer. Metrics requests are read past and ignored.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.records import LogEventRecord, SpanRecord
from otel_groundedness.replay.otlp_codec import (
    log_events_from_request,
    request_from_log_events,
    request_from_spans,
    spans_from_request,
)

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_ID_KEYS = ("traceId", "spanId", "parentSpanId")
PROTO_SUFFIXES = (".pb", ".binpb", ".proto", ".bin")
_Request = TypeVar(
    "_Request", ExportTraceServiceRequest, ExportLogsServiceRequest, ExportMetricsServiceRequest
)


class InvalidInputError(ValueError):
    """A file that is not OTLP JSON lines or length-prefixed OTLP protobuf (message names the spot)."""


@dataclass
class Chunk:
    """What one request of a file held, and how far into the file it ends (for progress)."""

    end_offset: int
    spans: list[SpanRecord] = field(default_factory=list)
    log_events: list[LogEventRecord] = field(default_factory=list)


def iter_otlp_file(path: Path) -> Iterator[Chunk]:
    """Yield the records of ``path`` request by request; raise ``InvalidInputError`` on bad input."""
    try:
        with path.open("rb") as stream:
            head = stream.read(4)
            stream.seek(0)
            if head.startswith(_ZSTD_MAGIC):
                raise InvalidInputError(f"{path}: zstd-compressed; decompress it first (zstd -d)")
            if head.lstrip()[:1] in (b"{", b"[", b""):
                yield from _iter_json_lines(path, stream)
            else:
                yield from _iter_proto(path, stream)
    except OSError as error:
        raise InvalidInputError(f"{path}: cannot read: {error.strerror or error}") from error


def write_otlp_file(
    path: Path, spans: Iterable[SpanRecord], log_events: Iterable[LogEventRecord] = ()
) -> None:
    """Write one traces request (and one logs request if there are events); protobuf by suffix."""
    requests: list[ExportTraceServiceRequest | ExportLogsServiceRequest] = [request_from_spans(spans)]
    logs = list(log_events)
    if logs:
        requests.append(request_from_log_events(logs))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        for request in requests:
            if path.suffix in PROTO_SUFFIXES:
                payload = request.SerializeToString()
                stream.write(len(payload).to_bytes(4, "big") + payload)
            else:
                stream.write(json.dumps(to_otlp_json(request), separators=(",", ":")).encode() + b"\n")


def to_otlp_json(request: ExportTraceServiceRequest | ExportLogsServiceRequest) -> dict[str, Any]:
    """The OTLP/JSON form of a request (camelCase, integer enums, hex ids)."""
    document: dict[str, Any] = json_format.MessageToDict(request, use_integers_for_enums=True)
    _rewrite_ids(document, _base64_to_hex)
    return document


def _iter_json_lines(path: Path, stream: BinaryIO) -> Iterator[Chunk]:
    offset = 0
    for number, raw in enumerate(stream, start=1):
        offset += len(raw)
        line = raw.strip()
        if not line:
            continue
        try:
            document = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise InvalidInputError(f"{path}:{number}: not JSON ({error})") from error
        except RecursionError as error:
            raise InvalidInputError(f"{path}:{number}: JSON nested too deeply") from error
        if not isinstance(document, dict):
            raise InvalidInputError(f"{path}:{number}: expected an OTLP JSON object per line")
        yield _chunk_from_json(document, offset, f"{path}:{number}")


def _chunk_from_json(document: dict[str, Any], offset: int, where: str) -> Chunk:
    try:
        _rewrite_ids(document, _hex_to_base64)
        if "resourceSpans" in document:
            traces = json_format.ParseDict(document, ExportTraceServiceRequest(), ignore_unknown_fields=True)
            _check_span_ids(_spans_of(traces))
            return Chunk(offset, spans=list(spans_from_request(traces)))
        if "resourceLogs" in document:
            logs = json_format.ParseDict(document, ExportLogsServiceRequest(), ignore_unknown_fields=True)
            _check_log_ids(_log_records_of(logs))
            return Chunk(offset, log_events=list(log_events_from_request(logs)))
    except (json_format.ParseError, ValueError, TypeError) as error:
        raise InvalidInputError(f"{where}: invalid OTLP JSON: {error}") from error
    except RecursionError as error:
        raise InvalidInputError(f"{where}: invalid OTLP JSON: nested too deeply") from error
    if "resourceMetrics" in document or not document:
        return Chunk(offset)
    raise InvalidInputError(
        f"{where}: not an OTLP traces, logs or metrics request (keys: {sorted(document)[:5]})"
    )


def _iter_proto(path: Path, stream: BinaryIO) -> Iterator[Chunk]:
    offset = 0
    while True:
        header = stream.read(4)
        if not header:
            return
        size = int.from_bytes(header, "big")
        payload = stream.read(size)
        if len(header) < 4 or len(payload) < size:
            raise InvalidInputError(f"{path}: truncated protobuf message at byte {offset}")
        offset += 4 + size
        yield _chunk_from_proto(payload, offset, f"{path}@{offset - 4 - size}")


def _chunk_from_proto(payload: bytes, offset: int, where: str) -> Chunk:
    # The framing does not say which request a message is and field numbers overlap, so try
    # each type and keep the one that decodes with ids of the right widths.
    traces = _decode(ExportTraceServiceRequest, payload)
    if traces is not None:
        spans = _spans_of(traces)
        if spans and all(s.end_time_unix_nano and _span_id_problem(s) is None for s in spans):
            return Chunk(offset, spans=list(spans_from_request(traces)))
    logs = _decode(ExportLogsServiceRequest, payload)
    if logs is not None:
        records = _log_records_of(logs)
        if records and all(_log_id_problem(r) is None for r in records):
            return Chunk(offset, log_events=list(log_events_from_request(logs)))
    metrics = _decode(ExportMetricsServiceRequest, payload)
    if metrics is not None and all(
        m.name for rm in metrics.resource_metrics for sm in rm.scope_metrics for m in sm.metrics
    ):
        return Chunk(offset)
    raise InvalidInputError(f"{where}: not an OTLP traces, logs or metrics protobuf request")


def _spans_of(request: ExportTraceServiceRequest) -> list[Span]:
    return [span for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans]


def _log_records_of(request: ExportLogsServiceRequest) -> list[LogRecord]:
    return [record for rl in request.resource_logs for sl in rl.scope_logs for record in sl.log_records]


def _span_id_problem(span: Span) -> str | None:
    """What is wrong with a span's ids (OTLP: 16-byte trace id, 8-byte span ids), or None."""
    return _width_problem(
        f"span {span.name!r}",
        (
            ("traceId", span.trace_id, (16,)),
            ("spanId", span.span_id, (8,)),
            ("parentSpanId", span.parent_span_id, (0, 8)),
        ),
    )


def _log_id_problem(record: LogRecord) -> str | None:
    """What is wrong with a log record's ids (both absent, or 16-byte trace and 8-byte span id), or None."""
    return _width_problem(
        "log record", (("traceId", record.trace_id, (0, 16)), ("spanId", record.span_id, (0, 8)))
    )


def _width_problem(what: str, ids: tuple[tuple[str, bytes, tuple[int, ...]], ...]) -> str | None:
    for key, value, widths in ids:
        if len(value) not in widths:
            return f"{what}: {key} has {len(value)} bytes, expected {' or '.join(map(str, widths))}"
    return None


def _check_span_ids(spans: Iterable[Span]) -> None:
    # Ids of another width would only fail later, when enriched spans are written back.
    for span in spans:
        if (problem := _span_id_problem(span)) is not None:
            raise ValueError(problem)


def _check_log_ids(records: Iterable[LogRecord]) -> None:
    for record in records:
        if (problem := _log_id_problem(record)) is not None:
            raise ValueError(problem)


def _decode(message_type: type[_Request], payload: bytes) -> _Request | None:
    message = message_type()
    try:
        message.ParseFromString(payload)
    except DecodeError:
        return None
    return message


def _rewrite_ids(node: Any, convert: Any) -> None:
    """Rewrite trace/span id strings in place anywhere in an OTLP JSON document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _ID_KEYS and isinstance(value, str):
                node[key] = convert(value)
            else:
                _rewrite_ids(value, convert)
    elif isinstance(node, list):
        for item in node:
            _rewrite_ids(item, convert)


def _hex_to_base64(value: str) -> str:
    try:
        return base64.b64encode(bytes.fromhex(value)).decode()
    except ValueError as error:
        raise ValueError(f"id {value!r} is not hex") from error


def _base64_to_hex(value: str) -> str:
    try:
        return base64.b64decode(value, validate=True).hex()
    except binascii.Error as error:
        raise ValueError(f"id {value!r} is not base64") from error
