"""Read what the Collector's ``file`` exporter wrote (OTLP JSON, one export request per line) and
replay its probabilistic sampling decision, so a test can predict exactly which traces are kept."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

_FNV64_OFFSET = 0xCBF29CE484222325
_FNV64_PRIME = 0x100000001B3
_MAX_UINT64 = 2**64 - 1


@dataclass(frozen=True)
class Span:
    trace_id: str
    span_id: str
    name: str
    attributes: dict[str, Any]


@dataclass(frozen=True)
class LogRecord:
    trace_id: str
    span_id: str
    event_name: str
    attributes: dict[str, Any]


def any_value(value: dict[str, Any]) -> Any:
    """The Python value of an OTLP JSON AnyValue (64-bit integers are JSON strings)."""
    if "intValue" in value:
        return int(value["intValue"])
    if "doubleValue" in value:
        return float(value["doubleValue"])
    for key in ("stringValue", "boolValue"):
        if key in value:
            return value[key]
    return value


def _attributes(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {item["key"]: any_value(item.get("value", {})) for item in items}


def _requests(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def read_traces(path: Path) -> dict[str, list[Span]]:
    """Spans by trace id (hex), in file order."""
    traces: dict[str, list[Span]] = {}
    for request in _requests(path):
        for resource_spans in request.get("resourceSpans", []):
            for scope_spans in resource_spans.get("scopeSpans", []):
                for span in scope_spans.get("spans", []):
                    traces.setdefault(span["traceId"], []).append(
                        Span(
                            span["traceId"],
                            span["spanId"],
                            span["name"],
                            _attributes(span.get("attributes", [])),
                        )
                    )
    return traces


def read_log_records(path: Path) -> list[LogRecord]:
    records: list[LogRecord] = []
    for request in _requests(path):
        for resource_logs in request.get("resourceLogs", []):
            for scope_logs in resource_logs.get("scopeLogs", []):
                for record in scope_logs.get("logRecords", []):
                    records.append(
                        LogRecord(
                            record.get("traceId", ""),
                            record.get("spanId", ""),
                            record.get("eventName", ""),
                            _attributes(record.get("attributes", [])),
                        )
                    )
    return records


def baseline_keeps(trace_id_hex: str, percent: float, salt: str) -> bool:
    """The tail_sampling ``probabilistic`` policy's decision: FNV-1a 64 of salt + trace id bytes
    compared with ``percent`` of the 64-bit range."""
    digest = _FNV64_OFFSET
    for byte in salt.encode() + bytes.fromhex(trace_id_hex):
        digest = ((digest ^ byte) * _FNV64_PRIME) & _MAX_UINT64
    threshold = int(_MAX_UINT64 * Fraction(percent / 100))
    return digest <= threshold
