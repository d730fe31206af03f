"""Synthesize a large OTLP JSON-lines recording in the demo's shape, for replay memory benchmarks.

The traces are clones of the committed demo recordings (``tests/data/otlp``: content on spans, and
event-form content in log records), with fresh ids and shifted timestamps, and without the scores the
live processor had written on them. Like a Collector ``file`` exporter under load, each line holds
spans of several concurrent traces in end-time order, so one trace is spread over several lines, and
the log records of a window of traces come in a line of their own between its span lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from otel_groundedness.telemetry import names

TEMPLATES = tuple(
    Path(__file__).resolve().parents[1] / "tests" / "data" / "otlp" / name
    for name in ("demo-latest.jsonl", "demo-legacy.jsonl")
)
_SECOND_NS = 1_000_000_000


@dataclass(frozen=True, slots=True)
class Recording:
    """What was written: turns (one per trace), lines and bytes."""

    turns: int
    lines: int
    bytes: int


@dataclass(frozen=True, slots=True)
class _Trace:
    resource: dict[str, Any]
    spans: list[tuple[str, str]]  # (scope name, span as JSON text)
    logs: list[str]  # log records as JSON text


def write_recording(
    path: Path,
    target_bytes: int = 0,
    *,
    target_turns: int = 0,
    traces_per_window: int = 16,
    spans_per_line: int = 24,
    padding_bytes: int = 0,
) -> Recording:
    """Write at least ``target_bytes`` of OTLP JSON lines and ``target_turns`` turns to ``path``, whole
    windows of traces at a time.

    ``padding_bytes`` > 0 adds to each trace a non-GenAI span carrying that much text: many bytes for
    few turns, so a memory test reaches a large file size without minutes of scoring.
    """
    templates = [_padded(trace, padding_bytes) for trace in _templates()] if padding_bytes else _templates()
    turns = lines = written = 0
    with path.open("w", encoding="utf-8") as stream:
        while written < target_bytes or turns < target_turns:
            clones = [
                _clone(templates[(turns + k) % len(templates)], turns + k) for k in range(traces_per_window)
            ]
            turns += traces_per_window
            for line in _window_lines(clones, spans_per_line):
                stream.write(line)
                written += len(line)
                lines += 1
    return Recording(turns, lines, path.stat().st_size)


def _window_lines(clones: list[_Trace], spans_per_line: int) -> Iterator[str]:
    spans = sorted(
        ((json.loads(text), scope, clone.resource) for clone in clones for scope, text in clone.spans),
        key=lambda item: int(item[0]["endTimeUnixNano"]),
    )
    batches = [spans[start : start + spans_per_line] for start in range(0, len(spans), spans_per_line)]
    logs = [json.loads(text) for clone in clones for text in clone.logs]
    for index, batch in enumerate(batches):
        if logs and index == len(batches) // 2:
            yield _line({"resourceLogs": [{"scopeLogs": [{"logRecords": logs}]}]})
        yield _line({"resourceSpans": _resource_spans(batch)})


def _resource_spans(batch: list[tuple[dict[str, Any], str, dict[str, Any]]]) -> list[dict[str, Any]]:
    resource = batch[0][2]
    scopes: dict[str, list[dict[str, Any]]] = {}
    for span, scope, _ in batch:
        scopes.setdefault(scope, []).append(span)
    return [
        {
            "resource": resource,
            "scopeSpans": [{"scope": {"name": name}, "spans": spans} for name, spans in scopes.items()],
        }
    ]


def _line(document: dict[str, Any]) -> str:
    return json.dumps(document, separators=(",", ":")) + "\n"


def _clone(template: _Trace, number: int) -> _Trace:
    """The template trace with trace id ``number + 1``, fresh span ids and times ``number`` s later."""
    trace_id = f"{number + 1:032x}"
    span_ids: dict[str, str] = {}

    def new_id(old: str) -> str:
        return span_ids.setdefault(old, f"{(number + 1) << 8 | len(span_ids) + 1:016x}")

    spans = []
    for scope, text in template.spans:
        span = json.loads(text)
        span["traceId"] = trace_id
        span["spanId"] = new_id(span["spanId"])
        if span.get("parentSpanId"):
            span["parentSpanId"] = new_id(span["parentSpanId"])
        for key in ("startTimeUnixNano", "endTimeUnixNano"):
            span[key] = str(int(span[key]) + number * _SECOND_NS)
        spans.append((scope, json.dumps(span, separators=(",", ":"))))
    logs = []
    for text in template.logs:
        record = json.loads(text)
        record["traceId"] = trace_id
        record["spanId"] = new_id(record["spanId"])
        if "timeUnixNano" in record:
            record["timeUnixNano"] = str(int(record["timeUnixNano"]) + number * _SECOND_NS)
        logs.append(json.dumps(record, separators=(",", ":")))
    return _Trace(template.resource, spans, logs)


def _templates() -> list[_Trace]:
    traces: dict[str, _Trace] = {}
    for path in TEMPLATES:
        for raw in path.read_text(encoding="utf-8").splitlines():
            document = json.loads(raw)
            for resource_spans in document.get("resourceSpans", ()):
                resource = resource_spans.get("resource", {})
                for scope_spans in resource_spans.get("scopeSpans", ()):
                    scope = scope_spans.get("scope", {}).get("name", "")
                    for span in scope_spans.get("spans", ()):
                        trace = traces.setdefault(span["traceId"], _Trace(resource, [], []))
                        trace.spans.append((scope, json.dumps(_unscored_span(span))))
            for resource_logs in document.get("resourceLogs", ()):
                for scope_logs in resource_logs.get("scopeLogs", ()):
                    for record in scope_logs.get("logRecords", ()):
                        if record.get("eventName") != names.EVENT_EVALUATION_RESULT:
                            traces[record["traceId"]].logs.append(json.dumps(record))
    return list(traces.values())


def _padded(trace: _Trace, padding_bytes: int) -> _Trace:
    first = json.loads(trace.spans[0][1])
    span = {
        "traceId": first["traceId"],
        "spanId": "00000000000000ff",
        "name": "GET /export",
        "kind": 2,
        "startTimeUnixNano": first["startTimeUnixNano"],
        "endTimeUnixNano": first["endTimeUnixNano"],
        "attributes": [
            {"key": "http.response.body", "value": {"stringValue": "0123456789" * (padding_bytes // 10)}}
        ],
    }
    return _Trace(trace.resource, [("http", json.dumps(span)), *trace.spans], trace.logs)


def _unscored_span(span: dict[str, Any]) -> dict[str, Any]:
    """The span as an application exported it, before the processor added its score."""
    span = dict(span)
    span["attributes"] = [
        item for item in span.get("attributes", ()) if not item["key"].startswith("gen_ai.evaluation.")
    ]
    span["events"] = [
        event for event in span.get("events", ()) if event["name"] != names.EVENT_EVALUATION_RESULT
    ]
    if not span["events"]:
        del span["events"]
    return span
