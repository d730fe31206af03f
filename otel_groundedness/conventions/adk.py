"""Google ADK's legacy (v1) span schema, still written by ADK until its semconv-aligned schema is the
only one: content in ``gcp.vertex.agent.llm_request`` / ``.llm_response`` on ``call_llm`` spans and
``gcp.vertex.agent.tool_response`` on ``execute_tool`` spans, as google-genai ``Content`` JSON. With
content capture off ADK writes ``"{}"``. Its v2 schema is semconv and read by ``semconv``.

- LLM spans: the request's ``contents`` (``{"role", "parts": [{"text"} | {"function_call"} |
  {"function_response": {"id", "name", "response"}}]}``); the function responses after the last user
  text are the turn's evidence, the response's text parts the answer unless it calls functions.
- Tool spans: the response (``{"result": ...}`` when the tool returned no dict) keyed by
  ``gen_ai.tool.call.id``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions._common import (
    asks_for_tools,
    clean_id,
    semconv_context,
    text_attr,
    tool_span_facts,
    turn_start,
)
from otel_groundedness.conventions._json import as_dict, as_list, decode
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord
from otel_groundedness.scoring.evidence import Evidence

CONVENTION = "adk_legacy"
LLM_REQUEST = "gcp.vertex.agent.llm_request"
LLM_RESPONSE = "gcp.vertex.agent.llm_response"
TOOL_RESPONSE = "gcp.vertex.agent.tool_response"
GATE_KEYS = frozenset({LLM_RESPONSE, TOOL_RESPONSE})
_NOT_CAPTURED = "{}"
_NO_CALL_ID = "<not specified>"


def read(span: SpanRecord) -> SpanFacts | None:
    attributes = span.attributes
    if TOOL_RESPONSE in attributes:  # its tool spans also carry an empty llm_response
        return _read_tool(span)
    if LLM_RESPONSE in attributes:
        return _read_llm(span)
    return None


def _read_tool(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    raw = attributes.get(TOOL_RESPONSE)
    response = None if raw in (None, _NOT_CAPTURED) else _unwrapped(decode(raw).value)
    call_id = clean_id(attributes.get("gen_ai.tool.call.id"))
    return tool_span_facts(
        CONVENTION,
        span,
        semconv_context(attributes, "execute_tool"),
        response,
        call_id=None if call_id == _NO_CALL_ID else call_id,
        name=text_attr(attributes, "gen_ai.tool.name"),
    )


def _read_llm(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    raw_request, raw_response = attributes.get(LLM_REQUEST), attributes.get(LLM_RESPONSE)
    request, response = decode(raw_request), decode(raw_response)
    contents = [as_dict(content) for content in as_list(as_dict(request.value).get("contents"))]
    start = turn_start(contents, lambda content: content.get("role") == "user" and _text(content) is not None)
    evidence = tuple(
        Evidence(_unwrapped(call.get("response")), clean_id(call.get("id")), name=_name(call))
        for content in contents[start:]
        for part in _parts(content)
        if (call := as_dict(part.get("function_response"))) and call.get("response") is not None
    )
    output = as_dict(as_dict(response.value).get("content"))
    calls = any(part.get("function_call") for part in _parts(output))
    step = asks_for_tools((), calls)
    captured = raw_response not in (None, _NOT_CAPTURED) or raw_request not in (None, _NOT_CAPTURED)
    return SpanFacts(
        convention=CONVENTION,
        context=semconv_context(attributes, "chat"),
        answer=None if step else _text(output),
        evidence=evidence,
        user_prompt=_text(contents[start - 1]) if start else None,
        tool_call_step=step,
        content_captured=captured,
        content_truncated=request.truncated or response.truncated,
    )


def _unwrapped(response: Any) -> Any:
    """A function response without the ``{"result": ...}`` envelope ADK puts around a non-dict value."""
    fields = as_dict(response)
    return fields["result"] if set(fields) == {"result"} else response


def _parts(content: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [as_dict(part) for part in as_list(content.get("parts"))]


def _text(content: Mapping[str, Any]) -> str | None:
    """The joined text parts of a ``Content``, without thought parts (the model's reasoning)."""
    texts = [part.get("text") for part in _parts(content) if not part.get("thought")]
    return "".join(text for text in texts if isinstance(text, str)) or None


def _name(call: Mapping[str, Any]) -> str | None:
    name = call.get("name")
    return name if isinstance(name, str) else None


# Its spans also carry gen_ai.operation.name / gen_ai.system, so it goes before the semconv reader.
PRODUCER = Producer(name=CONVENTION, order=35, gate_keys=GATE_KEYS, read_span=read)
