"""The tool backend answers like a thin API client: records by arguments, JSON errors otherwise."""

from __future__ import annotations

import json

from otel_groundedness.demo.tools import TOOL_SPECS, ToolBackend


def _backend() -> ToolBackend:
    backend = ToolBackend()
    backend.add(
        "get_service_metrics", {"service": "checkout-api", "week_ending": "2025-06-08"}, {"requests": 1}
    )
    return backend


def test_lookup_ignores_argument_order_and_whitespace() -> None:
    result = _backend().call(
        "get_service_metrics", '{"week_ending": " 2025-06-08", "service": "checkout-api"}'
    )
    assert json.loads(result) == {"requests": 1}


def test_errors_are_json_documents() -> None:
    backend = _backend()
    assert json.loads(backend.call("get_service_metrics", '{"service": "x", "week_ending": "y"}'))[
        "error"
    ] == ("not_found")
    assert json.loads(backend.call("get_weather", "{}"))["error"] == "unknown_tool"
    assert json.loads(backend.call("get_order", "{not json"))["error"] == "invalid_arguments"
    assert json.loads(backend.call("get_order", "[1]"))["error"] == "invalid_arguments"


def test_schemas_require_every_parameter() -> None:
    for spec in TOOL_SPECS.values():
        schema = spec.openai_schema()
        parameters = schema["function"]["parameters"]
        assert schema["type"] == "function"
        assert set(parameters["required"]) == set(parameters["properties"]) == set(spec.parameters)
