"""Model Context Protocol spans (``mcp.method.name``; Traceloop's ``mcp.response.value``): one tool
result may reach a trace several times: on the agent framework's ``execute_tool`` span, on the MCP
client span and again on the server side, usually without a call id they share. It is counted once:

- the client's ``tools/call`` span is the tool execution: its ``gen_ai.tool.call.result`` (an MCP
  ``CallToolResult`` is reduced to its structured content, else its text) keyed by
  ``gen_ai.tool.call.id`` when there is one;
- server-side copies (a ``SERVER`` span, or any span carrying ``mcp.response.value``) are claimed and
  read as evidence-only spans with nothing in them, so no other reader takes their copy.

The official MCP Python SDK (2.x) records no result on its spans; its server ``tools/call`` span is
claimed here like any server copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions._common import (
    clean_id,
    content_text,
    semconv_context,
    text_attr,
    tool_span_facts,
)
from otel_groundedness.conventions._json import as_dict, as_list, decode
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord

CONVENTION = "mcp"
METHOD = "mcp.method.name"
RESPONSE_VALUE = "mcp.response.value"
GATE_KEYS = frozenset({METHOD, RESPONSE_VALUE})


def read(span: SpanRecord) -> SpanFacts | None:
    attributes = span.attributes
    if RESPONSE_VALUE in attributes or span.kind == "SERVER":
        return _server_copy(span)
    if text_attr(attributes, METHOD) == "tools/call":
        return _read_tool_call(span)
    return None  # other methods (initialize, tools/list, …) carry no evidence


def _read_tool_call(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    return tool_span_facts(
        CONVENTION,
        span,
        semconv_context(attributes, "execute_tool"),
        _result(attributes.get("gen_ai.tool.call.result")),
        call_id=clean_id(attributes.get("gen_ai.tool.call.id")),
        name=text_attr(attributes, "gen_ai.tool.name"),
    )


def _server_copy(span: SpanRecord) -> SpanFacts:
    """A server-side span repeating what the client span holds: claimed so that no other reader counts
    its copy, and read as an evidence-only span without evidence (never a skip)."""
    return SpanFacts(
        convention=CONVENTION,
        context=semconv_context(span.attributes, "execute_tool"),
        is_tool=True,
    )


def _result(raw: Any) -> Any:
    """An MCP ``CallToolResult`` (``{"content": [{"type": "text", "text"}], "structuredContent"}``) as
    its structured content, else its joined text; any other value as it is."""
    decoded = decode(raw)
    fields = as_dict(decoded.value)
    if "content" not in fields or not isinstance(fields["content"], list | tuple):
        return raw
    structured = fields.get("structuredContent")
    if isinstance(structured, Mapping) and structured:
        return structured
    return content_text(as_list(fields["content"])) or raw


# Before the Traceloop reader (its MCP server spans carry a span kind too) and semconv (the SDK's
# server span says execute_tool).
PRODUCER = Producer(name=CONVENTION, order=36, gate_keys=GATE_KEYS, read_span=read)
