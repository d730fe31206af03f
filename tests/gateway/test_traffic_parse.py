"""Reading the Collector's file exporter output after a kill: records joined on one line are
each read, a record cut short is skipped."""

from __future__ import annotations

import json

from google.protobuf import json_format

from tests.gateway.traffic import parse_requests, plain_request


def _line(spans: int) -> str:
    document = json_format.MessageToDict(plain_request(spans))
    for resource_spans in document["resourceSpans"]:
        for scope_spans in resource_spans["scopeSpans"]:
            for span in scope_spans["spans"]:  # the file exporter writes ids in hex
                span["traceId"] = bytes.fromhex("00" * 16).hex()
                span["spanId"] = bytes.fromhex("00" * 8).hex()
    return json.dumps(document, separators=(",", ":"))


def test_records_joined_on_one_line_are_each_read_and_a_cut_one_is_skipped() -> None:
    first, second, third = _line(2), _line(3), _line(1)
    line = first + second[: len(second) // 2] + third + first
    requests = list(parse_requests([line]))
    assert [len(r.resource_spans[0].scope_spans[0].spans) for r in requests] == [2, 1, 2]


def test_one_record_a_line_reads_as_before() -> None:
    requests = list(parse_requests([_line(2), "", _line(1)]))
    assert [len(r.resource_spans[0].scope_spans[0].spans) for r in requests] == [2, 1]
