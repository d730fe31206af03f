"""OTLP/JSON documents: hex ids to and from protobuf's base64, values cut at ``MAX_VALUE_DEPTH``.

Both walks use an explicit stack: a document may be nested as deeply as ``json.loads`` accepts.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from typing import Any

from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from otel_groundedness.otlp.values import CUT_VALUE, MAX_VALUE_DEPTH

ID_KEYS = ("traceId", "spanId", "parentSpanId")
_FIELD_STEP = re.compile(r"Failed to parse (\w+) field: ")


def prepare_for_parse(document: dict[str, Any]) -> int:
    """Make a document read from a file ready for ``json_format.ParseDict``, in place.

    Hex ids become base64 (protobuf's JSON form of bytes), and every array or kvlist value nested
    deeper than ``MAX_VALUE_DEPTH`` becomes ``CUT_VALUE`` (protobuf would refuse the whole request
    past 100 nested messages). Returns how many values were cut.
    """
    return _walk(document, hex_to_base64, MAX_VALUE_DEPTH)


def cut_deep_values(node: dict[str, Any]) -> int:
    """``prepare_for_parse``'s cuts alone (ids left as they are): how many values were cut."""
    return _walk(node, _unchanged, MAX_VALUE_DEPTH)


def to_otlp_json(request: ExportTraceServiceRequest | ExportLogsServiceRequest) -> dict[str, Any]:
    """The OTLP/JSON form of a request (camelCase, integer enums, hex ids)."""
    document: dict[str, Any] = json_format.MessageToDict(request, use_integers_for_enums=True)
    base64_to_hex_ids(document)
    return document


def base64_to_hex_ids(document: dict[str, Any]) -> None:
    """Ids in a ``MessageToDict`` document (protobuf's base64) as OTLP/JSON's hex, in place."""
    _walk(document, base64_to_hex, None)


def parse_error_text(error: Exception) -> str:
    """A ``json_format.ParseError`` as ``field.path: reason`` instead of a chain of "Failed to parse"."""
    text = str(error)
    path = _FIELD_STEP.findall(text)
    reason = _FIELD_STEP.sub("", text).rstrip(".")
    return f"{'.'.join(path)}: {reason}" if path else reason


def _unchanged(value: str) -> str:
    return value


def hex_to_base64(value: str) -> str:
    return base64.b64encode(hex_bytes(value)).decode()


def hex_bytes(value: str) -> bytes:
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ValueError(f"id {value!r} is not hex") from None


def base64_to_hex(value: str) -> str:
    try:
        return base64.b64decode(value, validate=True).hex()
    except binascii.Error as error:
        raise ValueError(f"id {value!r} is not base64") from error


def _walk(document: dict[str, Any], convert: Callable[[str], str], max_value_depth: int | None) -> int:
    cut = 0
    # (node, how many array/kvlist values enclose it)
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, list):
            stack.extend((item, depth) for item in node if isinstance(item, dict | list))
            continue
        if "arrayValue" in node or "kvlistValue" in node:  # only an AnyValue has these keys
            if max_value_depth is not None and depth >= max_value_depth:
                node.clear()
                node["stringValue"] = CUT_VALUE
                cut += 1
                continue
            depth += 1
        for key, value in node.items():
            if key in ID_KEYS and isinstance(value, str):
                node[key] = convert(value)
            elif isinstance(value, dict | list):
                stack.append((value, depth))
    return cut
