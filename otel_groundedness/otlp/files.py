"""Read and write OTLP files as the Collector's ``file`` exporter writes them.

JSON: one ``ExportTraceServiceRequest`` / ``ExportLogsServiceRequest`` / metrics request per
line (OTLP/JSON: camelCase keys, hex trace and span ids). Protobuf: each request preceded by
its length as a 4-byte big-endian unsigned integer. Metrics requests are read past and ignored.

A file is read one request at a time, in two ways that see the same requests in the same order:
``scan_otlp_file`` (cheap: trace ids, span count and earliest time of each request, for indexing)
and ``iter_otlp_file`` (the records).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol, TypeVar

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.otlp.codec import (
    int_id,
    log_events_from_request,
    request_from_log_events,
    request_from_spans,
    spans_from_request,
)
from otel_groundedness.otlp.json_documents import (
    cut_deep_values,
    hex_bytes,
    parse_error_text,
    prepare_for_parse,
    to_otlp_json,
)
from otel_groundedness.otlp.partition import EVERYTHING, Partition, prune
from otel_groundedness.otlp.values import ValueReader
from otel_groundedness.records import LogEventRecord, SpanRecord

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_GZIP_MAGIC = b"\x1f\x8b"
PROTO_SUFFIXES = (".pb", ".binpb", ".proto", ".bin")
_Request = ExportTraceServiceRequest | ExportLogsServiceRequest
_Message = TypeVar(
    "_Message", ExportTraceServiceRequest, ExportLogsServiceRequest, ExportMetricsServiceRequest
)


class InvalidInputError(ValueError):
    """A file that is not OTLP JSON lines or length-prefixed OTLP protobuf (message names the spot)."""


@dataclass
class Chunk:
    """What one request of a file held (of one partition's traces), and how far into the file it
    ends (for progress)."""

    end_offset: int
    spans: list[SpanRecord] = field(default_factory=list)
    log_events: list[LogEventRecord] = field(default_factory=list)
    # Each record's place among all the request's records (spans, or log records), kept or not.
    numbers: list[int] = field(default_factory=list)
    values_cut: int = 0  # attribute or body values nested deeper than MAX_VALUE_DEPTH


@dataclass(frozen=True, slots=True)
class ChunkScan:
    """What indexing needs of one request: the traces it holds, its spans and its earliest time."""

    end_offset: int
    trace_ids: set[int]
    spans: int = 0
    first_time_ns: int | None = None


@dataclass(frozen=True, slots=True)
class _Frame:
    where: str  # file:line or file@offset, for messages
    end_offset: int
    payload: dict[str, Any] | _Request | None  # a JSON object, a decoded protobuf request, None: metrics


def iter_otlp_file(path: Path, partition: Partition = EVERYTHING) -> Iterator[Chunk]:
    """Yield the records of ``path`` (of the traces ``partition`` owns) request by request; raise
    ``InvalidInputError`` on bad input."""
    for frame in _iter_frames(path):
        yield _chunk(frame, partition)


def scan_otlp_file(path: Path) -> Iterator[ChunkScan]:
    """Yield the trace ids of ``path`` request by request, with ids checked as ``iter_otlp_file`` checks them.

    JSON lines are not converted to protobuf here, the costly part of reading them.
    """
    for frame in _iter_frames(path):
        payload = frame.payload
        try:
            if isinstance(payload, dict):
                scan = _scan_json(payload, frame.end_offset)
            else:
                scan = _scan_request(payload, frame.end_offset)
        except ValueError as error:
            raise InvalidInputError(f"{frame.where}: invalid OTLP JSON: {error}") from error
        yield scan


class BinaryWriter(Protocol):
    """Where ``OtlpWriter`` writes: a binary file, or anything with its ``write``."""

    def write(self, data: bytes, /) -> object: ...


class OtlpWriter:
    """Writes export requests to a binary stream: length-prefixed protobuf, or one JSON object per line."""

    def __init__(self, stream: BinaryWriter, *, proto: bool) -> None:
        self._stream = stream
        self.proto = proto

    @classmethod
    def for_path(cls, stream: BinaryWriter, path: Path) -> OtlpWriter:
        """A writer in the format the suffix of ``path`` names (``.pb``, ``.binpb``...: protobuf)."""
        return cls(stream, proto=path.suffix in PROTO_SUFFIXES)

    def write(self, request: _Request) -> None:
        if self.proto:
            self.write_encoded(request.SerializeToString())
        else:
            self.write_encoded(json.dumps(to_otlp_json(request), separators=(",", ":")).encode())

    def write_encoded(self, payload: bytes) -> None:
        """A request encoded in this writer's format already (``otlp.encoded``)."""
        if self.proto:
            self._stream.write(len(payload).to_bytes(4, "big") + payload)
        else:
            self._stream.write(payload + b"\n")


def write_otlp_file(
    path: Path, spans: Iterable[SpanRecord], log_events: Iterable[LogEventRecord] = ()
) -> None:
    """Write one traces request (and one logs request if there are events); protobuf by suffix."""
    logs = list(log_events)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        writer = OtlpWriter.for_path(stream, path)
        writer.write(request_from_spans(spans))
        if logs:
            writer.write(request_from_log_events(logs))


def _iter_frames(path: Path) -> Iterator[_Frame]:
    try:
        with path.open("rb") as stream:
            head = stream.read(4)
            stream.seek(0)
            if head.startswith(_ZSTD_MAGIC):
                raise InvalidInputError(f"{path}: zstd-compressed; decompress it first (zstd -d)")
            if head.startswith(_GZIP_MAGIC):
                raise InvalidInputError(f"{path}: gzip-compressed; decompress it first (gunzip)")
            if head.lstrip()[:1] in (b"{", b"[", b""):
                yield from _json_frames(path, stream)
            else:
                yield from _proto_frames(path, stream)
    except OSError as error:
        raise InvalidInputError(f"{path}: cannot read: {error.strerror or error}") from error


def _json_frames(path: Path, stream: BinaryIO) -> Iterator[_Frame]:
    offset = 0
    for number, raw in enumerate(stream, start=1):
        offset += len(raw)
        line = raw.strip()
        if not line:
            continue
        where = f"{path}:{number}"
        try:
            document = json.loads(line)
        except RecursionError as error:
            raise InvalidInputError(f"{where}: JSON nested too deeply") from error
        except ValueError as error:  # also bad UTF-8, and integers past Python's digit limit
            raise InvalidInputError(f"{where}: not JSON ({error})") from error
        if not isinstance(document, dict):
            raise InvalidInputError(f"{where}: expected an OTLP JSON object per line")
        if "resourceSpans" in document or "resourceLogs" in document:
            yield _Frame(where, offset, document)
        elif "resourceMetrics" in document or not document:
            yield _Frame(where, offset, None)
        else:
            raise InvalidInputError(
                f"{where}: not an OTLP traces, logs or metrics request (keys: {sorted(document)[:5]})"
            )


def _proto_frames(path: Path, stream: BinaryIO) -> Iterator[_Frame]:
    size_of_file = os.fstat(stream.fileno()).st_size
    offset = 0
    while True:
        header = stream.read(4)
        if not header:
            return
        size = int.from_bytes(header, "big")
        # A length past the end is garbage or a cut file: say so without reading the rest into memory.
        if len(header) < 4 or offset + 4 + size > size_of_file:
            raise InvalidInputError(f"{path}: truncated protobuf message at byte {offset}")
        payload = stream.read(size)
        if len(payload) < size:
            raise InvalidInputError(f"{path}: truncated protobuf message at byte {offset}")
        where = f"{path}@{offset}"
        offset += 4 + size
        yield _Frame(where, offset, _request_from_proto(payload, where))


def _request_from_proto(payload: bytes, where: str) -> _Request | None:
    # The framing does not say which request a message is and field numbers overlap, so try
    # each type and keep the one that decodes with ids of the right widths.
    traces = _decode(ExportTraceServiceRequest, payload)
    if traces is not None:
        spans = _spans_of(traces)
        if spans and all(s.end_time_unix_nano and _span_id_problem(s) is None for s in spans):
            return traces
    logs = _decode(ExportLogsServiceRequest, payload)
    if logs is not None:
        records = _log_records_of(logs)
        if records and all(_log_id_problem(r) is None for r in records):
            return logs
    metrics = _decode(ExportMetricsServiceRequest, payload)
    if metrics is not None and all(
        m.name for rm in metrics.resource_metrics for sm in rm.scope_metrics for m in sm.metrics
    ):
        return None
    raise InvalidInputError(f"{where}: not an OTLP traces, logs or metrics protobuf request")


def _chunk(frame: _Frame, partition: Partition) -> Chunk:
    reader = ValueReader()
    request, cut, renumber = frame.payload, 0, None
    if isinstance(request, dict):
        # Only this partition's records are parsed: the JSON is cut down first (``otlp.partition``).
        pruned = None if partition == EVERYTHING else prune(request, partition)
        try:
            if pruned is not None:
                for shared in pruned.uncounted:  # cut here too, but counted by another partition
                    cut_deep_values(shared)
                request, renumber, partition = pruned.document, pruned.numbers, EVERYTHING
            cut = prepare_for_parse(request)
            request = _parse_json(request)
        except json_format.ParseError as error:
            raise InvalidInputError(f"{frame.where}: invalid OTLP JSON: {parse_error_text(error)}") from error
        except (ValueError, TypeError) as error:
            raise InvalidInputError(f"{frame.where}: invalid OTLP JSON: {error}") from error
    chunk = Chunk(frame.end_offset)
    if isinstance(request, ExportTraceServiceRequest):
        for number, span in spans_from_request(request, reader, partition):
            chunk.spans.append(span)
            chunk.numbers.append(number if renumber is None else renumber[number])
    elif isinstance(request, ExportLogsServiceRequest):
        for number, event in log_events_from_request(request, reader, partition):
            chunk.log_events.append(event)
            chunk.numbers.append(number if renumber is None else renumber[number])
    chunk.values_cut = cut + reader.cut
    return chunk


def _parse_json(document: dict[str, Any]) -> _Request:
    if "resourceSpans" in document:
        traces = ExportTraceServiceRequest()
        json_format.ParseDict(document, traces, ignore_unknown_fields=True)
        # Ids of another width would only fail later, when enriched spans are written back.
        for span in _spans_of(traces):
            _raise_on(_span_id_problem(span))
        return traces
    logs = ExportLogsServiceRequest()
    json_format.ParseDict(document, logs, ignore_unknown_fields=True)
    for record in _log_records_of(logs):
        _raise_on(_log_id_problem(record))
    return logs


def _scan_json(document: dict[str, Any], end_offset: int) -> ChunkScan:
    # Mirrors _parse_json: a document with resourceSpans is read as traces only.
    trace_ids: set[int] = set()
    times: list[int] = []
    if "resourceSpans" in document:
        spans = _json_items(document, "resourceSpans", "scopeSpans", "spans")
        for span in spans:
            ids = tuple(hex_bytes(_json_id(span, key)) for key in ("traceId", "spanId", "parentSpanId"))
            _raise_on(_span_ids_problem(f"span {span.get('name', '')!r}", *ids))
            trace_ids.add(int_id(ids[0]))
            times.extend(_json_time(span, "endTimeUnixNano"))
        return ChunkScan(end_offset, trace_ids, len(spans), min(times, default=None))
    for record in _json_items(document, "resourceLogs", "scopeLogs", "logRecords"):
        trace_id, span_id = (hex_bytes(_json_id(record, key)) for key in ("traceId", "spanId"))
        _raise_on(_log_ids_problem(trace_id, span_id))
        if trace_id:
            trace_ids.add(int_id(trace_id))
        times.extend(_json_time(record, "timeUnixNano") or _json_time(record, "observedTimeUnixNano"))
    return ChunkScan(end_offset, trace_ids, 0, min(times, default=None))


def _scan_request(request: _Request | None, end_offset: int) -> ChunkScan:
    if isinstance(request, ExportTraceServiceRequest):
        spans = _spans_of(request)
        first = min((span.end_time_unix_nano for span in spans), default=None)
        return ChunkScan(end_offset, {int_id(span.trace_id) for span in spans}, len(spans), first)
    if isinstance(request, ExportLogsServiceRequest):
        records = _log_records_of(request)
        first = min((r.time_unix_nano or r.observed_time_unix_nano for r in records), default=None)
        return ChunkScan(end_offset, {int_id(r.trace_id) for r in records if r.trace_id}, 0, first)
    return ChunkScan(end_offset, set())


def _json_items(document: dict[str, Any], *keys: str) -> list[dict[str, Any]]:
    """The objects under ``keys`` (each a list of objects); malformed levels are left to ParseDict."""
    level: list[Any] = [document]
    for key in keys:
        level = [
            item
            for node in level
            if isinstance(node, dict) and isinstance(node.get(key), list)
            for item in node[key]
            if isinstance(item, dict)
        ]
    return level


def _json_id(node: dict[str, Any], key: str) -> str:
    value = node.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"id {value!r} is not hex")
    return value


def _json_time(node: dict[str, Any], key: str) -> list[int]:
    try:
        return [int(node[key])] if key in node else []
    except (TypeError, ValueError):
        return []  # ParseDict reports it when the request is read


def _spans_of(request: ExportTraceServiceRequest) -> list[Span]:
    return [span for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans]


def _log_records_of(request: ExportLogsServiceRequest) -> list[LogRecord]:
    return [record for rl in request.resource_logs for sl in rl.scope_logs for record in sl.log_records]


def _span_id_problem(span: Span) -> str | None:
    return _span_ids_problem(f"span {span.name!r}", span.trace_id, span.span_id, span.parent_span_id)


def _log_id_problem(record: LogRecord) -> str | None:
    return _log_ids_problem(record.trace_id, record.span_id)


def _span_ids_problem(what: str, trace_id: bytes, span_id: bytes, parent_span_id: bytes) -> str | None:
    """What is wrong with a span's ids (OTLP: 16-byte trace id, 8-byte span ids), or None."""
    return _width_problem(
        what,
        (("traceId", trace_id, (16,)), ("spanId", span_id, (8,)), ("parentSpanId", parent_span_id, (0, 8))),
    )


def _log_ids_problem(trace_id: bytes, span_id: bytes) -> str | None:
    """What is wrong with a log record's ids (both absent, or 16-byte trace and 8-byte span id), or None."""
    return _width_problem("log record", (("traceId", trace_id, (0, 16)), ("spanId", span_id, (0, 8))))


def _width_problem(what: str, ids: tuple[tuple[str, bytes, tuple[int, ...]], ...]) -> str | None:
    for key, value, widths in ids:
        if len(value) not in widths:
            return f"{what}: {key} has {len(value)} bytes, expected {' or '.join(map(str, widths))}"
    return None


def _raise_on(problem: str | None) -> None:
    if problem is not None:
        raise ValueError(problem)


def _decode(message_type: type[_Message], payload: bytes) -> _Message | None:
    message = message_type()
    try:
        message.ParseFromString(payload)
    except DecodeError:
        return None
    return message
