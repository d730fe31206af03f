"""Builders for neutral records shaped like the captures in the conventions reference."""

from __future__ import annotations

import json
from typing import Any

from otel_groundedness.records import LogEventRecord, SpanRecord

PROMPT = "What is the total and due date of invoice INV-2210?"
ANSWER = "Invoice INV-2210 totals $1,243,500 and is due on March 3, 2025."
INVOICE = {
    "invoice_id": "INV-2210",
    "total": 1243500.0,
    "total_formatted": "$1,243,500.00",
    "due_date": "2025-03-03",
}
INVOICE_JSON = json.dumps(INVOICE)
CALL_ID = "call_fake0001"


def span(attributes: dict[str, Any], name: str = "span", span_id: int = 0xABC) -> SpanRecord:
    return SpanRecord(
        trace_id=1,
        span_id=span_id,
        parent_span_id=None,
        name=name,
        kind="INTERNAL",
        start_time_ns=0,
        end_time_ns=1,
        attributes=attributes,
    )


def log(event_name: str, body: Any = None, attributes: dict[str, Any] | None = None) -> LogEventRecord:
    return LogEventRecord(
        trace_id=1, span_id=2, event_name=event_name, attributes=attributes or {}, body=body
    )


def text(role: str, content: str) -> dict[str, Any]:
    return {"role": role, "parts": [{"type": "text", "content": content}]}


def tool_call(call_id: str = CALL_ID, arguments: Any = None) -> dict[str, Any]:
    part = {
        "type": "tool_call",
        "id": call_id,
        "name": "get_invoice",
        "arguments": arguments or {"invoice_id": "INV-2210"},
    }
    return {"role": "assistant", "parts": [part]}


def tool_response(
    content: Any = INVOICE_JSON, call_id: str = CALL_ID, key: str = "response", role: str = "tool"
) -> dict[str, Any]:
    return {"role": role, "parts": [{"type": "tool_call_response", "id": call_id, key: content}]}
