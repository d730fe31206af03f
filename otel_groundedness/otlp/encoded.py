"""Enriched records encoded one by one where they are scored, and joined into requests where they are
written (``--out`` with ``--jobs``).

Encoding a span (protobuf ``MessageToDict`` for JSON) costs as much as scoring it, so each worker
encodes its own records; the writer only joins the pieces of each request. The joined bytes are those
of ``request_from_spans`` / ``request_from_log_events`` encoded whole: one resource block per
distinct resource, one scope block per scope within it, in order of first appearance.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message
from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope
from opentelemetry.proto.resource.v1.resource_pb2 import Resource

from otel_groundedness.otlp.codec import log_message, span_message
from otel_groundedness.otlp.json_documents import base64_to_hex_ids
from otel_groundedness.otlp.values import add_key_values
from otel_groundedness.otlp.wire import export_request
from otel_groundedness.records import LogEventRecord, SpanRecord

_RESOURCE_CACHE = 256  # distinct resources remembered per encoder (a process has one or a few)


@dataclass(frozen=True, slots=True)
class EncodedSpan:
    """A span, its resource and its scope, each encoded; ``key`` orders it among the input's records."""

    key: int
    resource_key: str
    resource: bytes
    scope: bytes
    span: bytes


@dataclass(frozen=True, slots=True)
class EncodedLog:
    key: int
    log: bytes


class RecordEncoder:
    """Encodes records as OTLP JSON (compact) or protobuf pieces."""

    def __init__(self, *, proto: bool) -> None:
        self.proto = proto
        self._resources: dict[str, bytes] = {}

    def span(self, key: int, record: SpanRecord) -> EncodedSpan:
        resource_key = repr(sorted(record.resource.items()))  # request_from_spans groups by it
        resource = self._resources.get(resource_key)
        if resource is None:
            if len(self._resources) >= _RESOURCE_CACHE:
                self._resources.clear()
            message = Resource()
            add_key_values(message.attributes, record.resource)
            resource = self._resources[resource_key] = self._encode(message)
        scope = self._encode(InstrumentationScope(name=record.scope))
        return EncodedSpan(key, resource_key, resource, scope, self._encode(span_message(record)))

    def log(self, key: int, event: LogEventRecord) -> EncodedLog:
        return EncodedLog(key, self._encode(log_message(event)))

    def _encode(self, message: Message) -> bytes:
        if self.proto:
            return message.SerializeToString()  # type: ignore[no-any-return]
        document: dict[str, Any] = json_format.MessageToDict(message, use_integers_for_enums=True)
        base64_to_hex_ids(document)
        return json.dumps(document, separators=(",", ":")).encode()


def join_spans(spans: Sequence[EncodedSpan], *, proto: bool) -> bytes:
    """One traces request holding ``spans`` (in this order), grouped by resource and scope."""
    groups: dict[str, tuple[bytes, dict[bytes, list[bytes]]]] = {}
    for span in spans:
        _, scopes = groups.setdefault(span.resource_key, (span.resource, {}))
        scopes.setdefault(span.scope, []).append(span.span)
    if proto:
        return export_request(
            (resource, "", [(scope, "", encoded) for scope, encoded in scopes.items()])
            for resource, scopes in groups.values()
        )
    return (
        b'{"resourceSpans":['
        + b",".join(
            b'{"resource":' + resource + b',"scopeSpans":['
            + b",".join(
                b'{"scope":' + scope + b',"spans":[' + b",".join(encoded) + b"]}"
                for scope, encoded in scopes.items()
            )
            + b"]}"
            for resource, scopes in groups.values()
        )
        + b"]}"
    )  # fmt: skip


def join_logs(logs: Sequence[EncodedLog], *, proto: bool) -> bytes:
    """One logs request holding ``logs`` under one empty resource and scope."""
    if proto:  # no resource and no scope
        return export_request([(None, "", [(None, "", [log.log for log in logs])])])
    return b'{"resourceLogs":[{"scopeLogs":[{"logRecords":[' + b",".join(log.log for log in logs) + b"]}]}]}"
