"""Attribute and body values nested past ``MAX_VALUE_DEPTH`` are cut there and counted, never a crash.

Conversion follows the input's structure, so its depth is bounded: a deeper array or kvlist is replaced
by ``CUT_VALUE``, the cut is counted per chunk and shown by ``replay`` (``nested_values_cut``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from otel_groundedness.cli.main import main
from otel_groundedness.otlp.files import InvalidInputError, iter_otlp_file, write_otlp_file
from otel_groundedness.otlp.values import CUT_VALUE, MAX_VALUE_DEPTH, ValueReader
from otel_groundedness.records import SpanRecord

TRACE_ID = "5b8efff798038103d269b633813fc60c"


def _nested_json(depth: int, container: str) -> str:
    """An AnyValue as OTLP JSON text (built as text: json.dumps would recurse as deep)."""
    if container == "arrayValue":
        opening, closing = '{"arrayValue": {"values": [', "]}}"
    else:
        opening, closing = '{"kvlistValue": {"values": [{"key": "k", "value": ', "}]}}"
    return opening * depth + '{"stringValue": "leaf"}' + closing * depth


def _nested_python(depth: int, leaf: Any = "leaf") -> Any:
    value = leaf
    for _ in range(depth):
        value = {"k": value}
    return value


def _line(value: str, *, on_event: bool = False) -> str:
    attributes = [{"key": "deep", "value": "VALUE"}]
    span: dict[str, Any] = {
        "traceId": TRACE_ID, "spanId": "eee19b7ec3c1b174", "name": "GET /", "kind": 2,
        "startTimeUnixNano": "1", "endTimeUnixNano": "2",
    }  # fmt: skip
    if on_event:
        span["events"] = [{"name": "e", "timeUnixNano": "2", "attributes": attributes}]
    else:
        span["attributes"] = attributes
    document = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})
    return document.replace('"VALUE"', value) + "\n"


def _deep_value(span: SpanRecord, *, on_event: bool = False) -> Any:
    return (span.events[0].attributes if on_event else span.attributes)["deep"]


@pytest.mark.parametrize("container", ["arrayValue", "kvlistValue"])
@pytest.mark.parametrize("on_event", [False, True], ids=["span", "event"])
def test_json_values_deeper_than_the_cap_are_cut_and_counted(
    tmp_path: Path, container: str, on_event: bool
) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(_line(_nested_json(MAX_VALUE_DEPTH + 40, container), on_event=on_event))
    (chunk,) = iter_otlp_file(path)
    assert chunk.values_cut == 1
    value = _deep_value(chunk.spans[0], on_event=on_event)
    for _ in range(MAX_VALUE_DEPTH):
        value = value[0] if container == "arrayValue" else value["k"]
    assert value == CUT_VALUE


@pytest.mark.parametrize("container", ["arrayValue", "kvlistValue"])
def test_json_values_at_the_cap_are_read_whole(tmp_path: Path, container: str) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(_line(_nested_json(MAX_VALUE_DEPTH, container), on_event=True))
    (chunk,) = iter_otlp_file(path)
    assert chunk.values_cut == 0
    assert "leaf" in json.dumps(_deep_value(chunk.spans[0], on_event=True))


def test_protobuf_values_deeper_than_the_cap_are_cut_and_counted(tmp_path: Path) -> None:
    span = SpanRecord(
        int(TRACE_ID, 16), 1, None, "GET /", "SERVER", 1, 2, {"deep": _nested_python(MAX_VALUE_DEPTH + 3)}
    )
    path = tmp_path / "deep.pb"
    write_otlp_file(path, [span])
    (chunk,) = iter_otlp_file(path)
    assert chunk.values_cut == 1
    assert json.dumps(chunk.spans[0].attributes["deep"]).count("{") == MAX_VALUE_DEPTH


def test_the_reader_never_recurses_past_the_cap() -> None:
    # Far deeper than the interpreter's recursion limit: built bottom-up, read top-down.
    root = AnyValue()
    value = root
    for _ in range(5000):
        value = value.array_value.values.add()
    value.string_value = "leaf"
    reader = ValueReader()
    read = reader.value(root)
    assert reader.cut == 1
    for _ in range(MAX_VALUE_DEPTH):
        (read,) = read
    assert read == CUT_VALUE


def test_json_nested_past_the_parser_limit_is_still_invalid_input(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(_line(_nested_json(2000, "arrayValue")))
    with pytest.raises(InvalidInputError, match=r"deep\.jsonl:1: .*nested too deeply"):
        list(iter_otlp_file(path))


def test_replay_reports_the_cut_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = Path(__file__).resolve().parents[1] / "data" / "otlp" / "demo-latest.jsonl"
    path = tmp_path / "with-deep.jsonl"
    path.write_text(recording.read_text() + _line(_nested_json(MAX_VALUE_DEPTH + 1, "kvlistValue")))
    report = tmp_path / "report.json"
    assert main(["replay", str(path), "--json", str(report), "--no-progress"]) == 0
    assert json.loads(report.read_text())["summary"]["nested_values_cut"] == 1
    summary_line = " ".join(capsys.readouterr().out.split())  # the console wraps long lines
    assert f"values nested deeper than {MAX_VALUE_DEPTH} levels cut: 1" in summary_line
