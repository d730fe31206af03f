"""MCP spans: the official MCP Python SDK 2.3.0 (semconv names, no result recorded), semconv MCP client
spans that record the result, and Traceloop's opentelemetry-instrumentation-mcp 0.62.4 server-side
copies (``mcp.response.value``). One tool result is evidence once however many spans repeat it."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from otel_groundedness.conventions import is_genai_span, read_span
from tests.conventions.spans import CALL_ID, INVOICE, INVOICE_JSON, span

CALL_RESULT = {"content": [{"type": "text", "text": INVOICE_JSON}], "isError": False}


def client_call(result: Any = CALL_RESULT, **extra: Any) -> dict[str, Any]:
    return {
        "mcp.method.name": "tools/call",
        "jsonrpc.request.id": "3",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_invoice",
        "gen_ai.tool.call.result": json.dumps(result),
        **extra,
    }


def test_client_tools_call_span_is_the_tool_execution() -> None:
    attributes = client_call()
    assert is_genai_span(attributes)
    facts = read_span(span(attributes, "tools/call get_invoice", span_id=0xABC))
    assert facts is not None and facts.convention == "mcp" and facts.is_tool
    # The CallToolResult is reduced to the text its content blocks hold.
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, "0000000000000abc", "get_invoice")
    ]
    with_id = read_span(span(client_call(**{"gen_ai.tool.call.id": CALL_ID})))
    assert with_id is not None and with_id.evidence[0].source_id == CALL_ID


def test_structured_content_wins_over_its_text_rendering() -> None:
    result = {**CALL_RESULT, "structuredContent": INVOICE}
    facts = read_span(span(client_call(result)))
    assert facts is not None and facts.evidence[0].content == INVOICE


def test_server_side_copies_are_claimed_and_hold_no_evidence() -> None:
    sdk_server = {  # MCP Python SDK 2.3.0 OpenTelemetryMiddleware: no result recorded
        "mcp.method.name": "tools/call",
        "mcp.protocol.version": "2025-11-25",
        "jsonrpc.request.id": "3",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_invoice",
    }
    traceloop_writer = {"mcp.response.value": json.dumps(CALL_RESULT), "mcp.request.id": "3"}
    traceloop_server = {
        "traceloop.span.kind": "server",
        "traceloop.entity.name": "mcp.server",
        "mcp.response.value": json.dumps(CALL_RESULT),
    }
    semconv_server = client_call()
    for attributes, kind in (
        (sdk_server, "SERVER"),
        (traceloop_writer, "INTERNAL"),
        (traceloop_server, "INTERNAL"),
        (semconv_server, "SERVER"),
    ):
        facts = read_span(replace(span(attributes, "tools/call get_invoice"), kind=kind))
        assert facts is not None and facts.convention == "mcp" and facts.is_tool and facts.evidence == ()


def test_other_client_methods_are_not_read() -> None:
    assert read_span(span({"mcp.method.name": "tools/list", "jsonrpc.request.id": "2"}, "tools/list")) is None


def test_a_result_on_client_and_server_spans_is_evidence_once() -> None:
    """The same call seen by the client (semconv, with the result), the SDK's server middleware and
    Traceloop's response writer: one evidence item in all."""
    server = replace(span(client_call(), "tools/call get_invoice", span_id=0x2), kind="SERVER")
    client = replace(span(client_call(), "tools/call get_invoice", span_id=0x3), kind="CLIENT")
    writer = span({"mcp.response.value": json.dumps(CALL_RESULT)}, "ResponseStreamWriter", span_id=0x4)
    evidence = [item for record in (server, writer, client) for item in read_span(record).evidence]  # type: ignore[union-attr]
    assert [(e.content, e.source_id) for e in evidence] == [(INVOICE_JSON, "0000000000000003")]
