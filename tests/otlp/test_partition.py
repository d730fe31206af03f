"""A request cut down to one worker's traces: kept records, their numbers, shared blocks counted once."""

from __future__ import annotations

import copy
from typing import Any

from otel_groundedness.otlp.partition import Partition, prune


def _span(trace: int) -> dict[str, Any]:
    return {"traceId": f"{trace:032x}", "spanId": f"{trace:016x}", "name": f"s{trace}"}


def _request() -> dict[str, Any]:
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": [{"key": "r", "value": {"stringValue": "1"}}]},
                "scopeSpans": [
                    {"scope": {"name": "a"}, "spans": [_span(1), _span(2)]},
                    {"scope": {"name": "b"}, "spans": [_span(4)]},
                ],
            },
            {"resource": {"attributes": []}, "scopeSpans": [{"scope": {"name": "empty"}, "spans": None}]},
        ]
    }


def _names(document: dict[str, Any]) -> list[list[list[str]]]:
    return [
        [[span["name"] for span in scope["spans"]] for scope in resource["scopeSpans"]]
        for resource in document["resourceSpans"]
    ]


def test_each_worker_keeps_its_own_records_numbered_in_the_whole_request() -> None:
    request = _request()
    original = copy.deepcopy(request)
    even, odd = prune(request, Partition(0, 2)), prune(request, Partition(1, 2))
    assert even is not None and odd is not None
    assert request == original  # the input is not modified
    assert _names(even.document) == [[["s2"], ["s4"]], [[]]]  # worker 0 also keeps the empty block
    assert _names(odd.document) == [[["s1"]]]
    assert (even.numbers, odd.numbers) == ([1, 2], [0])


def test_a_shared_block_is_counted_by_the_owner_of_its_first_record() -> None:
    request = _request()
    even, odd = prune(request, Partition(0, 2)), prune(request, Partition(1, 2))
    assert even is not None and odd is not None
    resource, scope_a = (
        request["resourceSpans"][0]["resource"],
        request["resourceSpans"][0]["scopeSpans"][0]["scope"],
    )
    # The first resource and scope "a" begin with trace 1 (worker 1): worker 0 does not count them.
    assert any(shared is resource for shared in even.uncounted)
    assert any(shared is scope_a for shared in even.uncounted)
    assert odd.uncounted == []


def test_a_request_of_another_shape_is_left_whole() -> None:
    assert prune({"resourceSpans": {"not": "a list"}}, Partition(0, 2)) is None
    assert (
        prune({"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}, Partition(1, 2)) is None
    )


def test_log_records_without_a_trace_belong_to_worker_0() -> None:
    request = {"resourceLogs": [{"scopeLogs": [{"logRecords": [{"body": {"stringValue": "x"}}]}]}]}
    kept = prune(request, Partition(0, 3))
    assert kept is not None and kept.numbers == [0]
    other = prune(request, Partition(2, 3))
    assert other is not None and other.numbers == [] and other.document["resourceLogs"] == []
