"""Malformed OTLP input ends ``replay`` with a located error and exit code 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

from otel_groundedness.cli.main import main
from otel_groundedness.otlp.files import InvalidInputError, iter_otlp_file

TRACE_ID = "5b8efff798038103d269b633813fc60c"
SPAN_ID = "eee19b7ec3c1b174"


def _span(**ids: str) -> dict[str, Any]:
    span = {
        "traceId": TRACE_ID,
        "spanId": SPAN_ID,
        "name": "chat gpt-4o-mini",
        "startTimeUnixNano": "1",
        "endTimeUnixNano": "2",
    }
    return {**span, **ids}


def _traces(span: dict[str, Any]) -> dict[str, Any]:
    return {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}


def _logs(record: dict[str, Any]) -> dict[str, Any]:
    return {"resourceLogs": [{"scopeLogs": [{"logRecords": [record]}]}]}


WRONG_WIDTH_IDS = {
    "trace id of 18 bytes": _traces(_span(traceId=TRACE_ID + "1112")),
    "span id of 4 bytes": _traces(_span(spanId="01020304")),
    "parent span id of 9 bytes": _traces(_span(parentSpanId=SPAN_ID + "ff")),
    "log span id of 10 bytes": _logs(
        {"traceId": TRACE_ID, "spanId": SPAN_ID + "0910", "eventName": "gen_ai.choice"}
    ),
}


@pytest.mark.parametrize("document", WRONG_WIDTH_IDS.values(), ids=WRONG_WIDTH_IDS.keys())
def test_ids_of_the_wrong_width_are_invalid_input(tmp_path: Path, document: dict[str, Any]) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(document) + "\n")
    with pytest.raises(InvalidInputError, match=r"t\.jsonl:1: .*bytes"):
        list(iter_otlp_file(path))


def test_deeply_nested_json_is_invalid_input(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("[" * 100_000 + "\n")
    with pytest.raises(InvalidInputError, match=r"t\.jsonl:1: "):
        list(iter_otlp_file(path))


def test_nesting_within_the_json_parser_limit_is_invalid_input(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"resourceSpans": ' + "[" * 900 + "]" * 900 + "}\n")
    with pytest.raises(InvalidInputError, match=r"t\.jsonl:1: "):
        list(iter_otlp_file(path))


@pytest.mark.parametrize("document", WRONG_WIDTH_IDS.values(), ids=WRONG_WIDTH_IDS.keys())
def test_replay_exits_2_on_wrong_width_ids_even_when_writing_spans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], document: dict[str, Any]
) -> None:
    # Spans read with an oversized id used to fail only later, while writing --out.
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(_traces(_span())) + "\n" + json.dumps(document) + "\n")
    code = main(["replay", str(path), "--out", str(tmp_path / "out.jsonl"), "--no-progress"])
    assert code == 2
    assert "t.jsonl:2: " in capsys.readouterr().err


def test_protobuf_span_with_a_wrong_width_parent_id_is_invalid_input(tmp_path: Path) -> None:
    span = Span(
        trace_id=bytes.fromhex(TRACE_ID),
        span_id=bytes.fromhex(SPAN_ID),
        parent_span_id=bytes(9),
        name="chat",
        end_time_unix_nano=2,
    )
    request = ExportTraceServiceRequest(
        resource_spans=[ResourceSpans(scope_spans=[ScopeSpans(spans=[span])])]
    )
    payload = request.SerializeToString()
    path = tmp_path / "t.pb"
    path.write_bytes(len(payload).to_bytes(4, "big") + payload)
    with pytest.raises(InvalidInputError, match="not an OTLP traces, logs or metrics protobuf request"):
        list(iter_otlp_file(path))
