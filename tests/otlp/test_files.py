"""Reading and writing OTLP files in the Collector file exporter's formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from otel_groundedness.otlp.files import InvalidInputError, iter_otlp_file, write_otlp_file
from otel_groundedness.records import LogEventRecord, SpanEventRecord, SpanRecord

TRACE_ID = 0x5B8EFFF798038103D269B633813FC60C
SPAN = SpanRecord(
    trace_id=TRACE_ID,
    span_id=0xEEE19B7EC3C1B174,
    parent_span_id=0xEEE19B7EC3C1B173,
    name="chat gpt-4o-mini",
    kind="CLIENT",
    start_time_ns=1_700_000_000_000_000_000,
    end_time_ns=1_700_000_000_500_000_000,
    attributes={
        "gen_ai.operation.name": "chat",
        "gen_ai.usage.input_tokens": 42,
        "ratio": 0.5,
        "ok": True,
        "gen_ai.response.finish_reasons": ("stop",),
        "structured": ({"role": "user", "parts": ({"type": "text", "content": "hi"},)},),
    },
    events=(SpanEventRecord("gen_ai.evaluation.result", {"gen_ai.evaluation.score.value": 0.5}, 7),),
    resource={"service.name": "billing"},
    scope="opentelemetry.util.genai.handler",
)
EVENT = LogEventRecord(
    trace_id=TRACE_ID,
    span_id=0xEEE19B7EC3C1B174,
    event_name="gen_ai.choice",
    attributes={"gen_ai.system": "openai"},
    body={"index": 0, "message": {"role": "assistant", "content": "Total $1,243,500."}},
    timestamp_ns=1_700_000_000_400_000_000,
)

# One line as the Collector's file exporter writes it (hex ids, int64 as strings, enum as int).
COLLECTOR_LINE = {
    "resourceSpans": [
        {
            "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "billing"}}]},
            "scopeSpans": [
                {
                    "scope": {"name": "demo"},
                    "spans": [
                        {
                            "traceId": "5b8efff798038103d269b633813fc60c",
                            "spanId": "eee19b7ec3c1b174",
                            "name": "execute_tool get_invoice",
                            "kind": 1,
                            "startTimeUnixNano": "1544712660000000000",
                            "endTimeUnixNano": "1544712661000000000",
                            "attributes": [
                                {"key": "gen_ai.tool.call.result", "value": {"stringValue": '{"total": 1}'}},
                                {"key": "attempt", "value": {"intValue": "3"}},
                                {"key": "tags", "value": {"arrayValue": {"values": [{"stringValue": "a"}]}}},
                            ],
                            "status": {},
                        }
                    ],
                }
            ],
        }
    ]
}


def _read(path: Path) -> tuple[list[SpanRecord], list[LogEventRecord]]:
    chunks = list(iter_otlp_file(path))
    return [s for c in chunks for s in c.spans], [e for c in chunks for e in c.log_events]


@pytest.mark.parametrize("name", ["telemetry.jsonl", "telemetry.pb"])
def test_spans_and_log_events_round_trip(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    write_otlp_file(path, [SPAN], [EVENT])
    spans, events = _read(path)
    assert spans == [SPAN]
    assert events == [EVENT]


def test_json_lines_use_otlp_json_conventions(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_otlp_file(path, [SPAN])
    document = json.loads(path.read_text().splitlines()[0])
    span = document["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert span["traceId"] == f"{TRACE_ID:032x}"
    assert span["kind"] == 3
    assert span["startTimeUnixNano"] == str(SPAN.start_time_ns)


def test_reads_a_collector_file_exporter_line_and_ignores_metrics(tmp_path: Path) -> None:
    path = tmp_path / "collector.json"
    metrics = {"resourceMetrics": [{"scopeMetrics": [{"metrics": [{"name": "x", "gauge": {}}]}]}]}
    path.write_text(json.dumps(COLLECTOR_LINE) + "\n\n" + json.dumps(metrics) + "\n")
    spans, events = _read(path)
    assert events == []
    (span,) = spans
    assert span.trace_id == TRACE_ID and span.parent_span_id is None
    assert span.kind == "INTERNAL" and span.scope == "demo"
    assert span.attributes == {"gen_ai.tool.call.result": '{"total": 1}', "attempt": 3, "tags": ("a",)}
    assert span.resource == {"service.name": "billing"}


def test_progress_offsets_reach_the_file_size(tmp_path: Path) -> None:
    path = tmp_path / "t.pb"
    write_otlp_file(path, [SPAN], [EVENT])
    offsets = [chunk.end_offset for chunk in iter_otlp_file(path)]
    assert offsets == sorted(offsets) and offsets[-1] == path.stat().st_size


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"resourceSpans": [\n', "t.bin:1: not JSON"),
        (b'["not", "an", "object"]\n', "expected an OTLP JSON object"),
        (b'{"hello": 1}\n', "not an OTLP traces, logs or metrics request"),
        (b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}\n', "not hex"),
        (b"\x28\xb5\x2f\xfd\x00\x00", "zstd-compressed"),
        (b"\x00\x00\x01\x00\x0a\x02", "truncated protobuf message"),
        (b"\x00\x00\x00\x02\xff\xff", "not an OTLP traces, logs or metrics protobuf request"),
    ],
)
def test_invalid_input_is_reported_with_its_location(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "t.bin"
    path.write_bytes(content)
    with pytest.raises(InvalidInputError, match=message):
        list(iter_otlp_file(path))
