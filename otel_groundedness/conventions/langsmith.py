"""LangSmith's OpenTelemetry mode (``LANGSMITH_OTEL_ENABLED=true``): one span per run, typed by
``langsmith.span.kind``, with the run's inputs in ``gen_ai.prompt`` and outputs in
``gen_ai.completion`` (JSON).

- ``llm`` runs: the answer is ``generations[0][0].text`` (LangChain) or ``choices[0].message``
  (``wrap_openai``); the prompt's messages after the last human one hold the turn's tool results, so
  the final LLM span is self-contained. That matters: LangSmith exports a run's spans in batches, and
  the run's root often ends (is exported) before its children.
- ``tool`` runs: the output is a serialized ToolMessage, ``{"output": {"content": "<result>", ...}}``.
- ``retriever`` runs: ``{"documents": [{"page_content", "metadata", "id"}]}``.
- ``chain`` runs (graphs, nodes, the root) are not read: they repeat what the runs above say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions._common import (
    Document,
    asks_for_tools,
    clean_id,
    content_text,
    finish_reasons,
    retrieval_span_facts,
    semconv_context,
    text_attr,
    tool_span_facts,
    turn_start,
)
from otel_groundedness.conventions._json import as_dict, as_list, decode
from otel_groundedness.conventions._langchain import langchain_message, llm_output
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord
from otel_groundedness.scoring.evidence import Evidence

CONVENTION = "langsmith"
SPAN_KIND = "langsmith.span.kind"
PROMPT = "gen_ai.prompt"
COMPLETION = "gen_ai.completion"
GATE_KEYS = frozenset({SPAN_KIND})


def read(span: SpanRecord) -> SpanFacts | None:
    kind = text_attr(span.attributes, SPAN_KIND)
    if kind == "llm":
        return _read_llm(span)
    if kind == "tool":
        return _read_tool(span)
    if kind == "retriever":
        return _read_retriever(span)
    return None


def _read_llm(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    prompt, completion = decode(attributes.get(PROMPT)), decode(attributes.get(COMPLETION))
    messages = _prompt_messages(prompt.value)
    start = turn_start(messages, lambda message: message[0] == "user" and _text(message[1]) is not None)
    evidence = tuple(
        Evidence(fields["content"], clean_id(fields.get("tool_call_id")), name=_name(fields))
        for role, fields in messages[start:]
        if role == "tool" and fields.get("content") is not None
    )
    text, reason, calls = llm_output(completion.value)
    step = asks_for_tools((reason, *finish_reasons(attributes.get("gen_ai.response.finish_reasons"))), calls)
    return SpanFacts(
        convention=CONVENTION,
        context=semconv_context(attributes, "chat"),
        answer=None if step else text,
        evidence=evidence,
        user_prompt=_text(messages[start - 1][1]) if start else None,
        tool_call_step=step,
        content_captured=PROMPT in attributes or COMPLETION in attributes,
        content_truncated=prompt.truncated or completion.truncated,
    )


def _read_tool(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    output = as_dict(decode(attributes.get(COMPLETION)).value).get("output")
    message = langchain_message(output)
    call_id = clean_id(attributes.get("gen_ai.tool.call.id"))
    if message is not None and message[0] == "tool":
        output = message[1].get("content")
        call_id = call_id or clean_id(message[1].get("tool_call_id"))
    context = semconv_context(attributes, "execute_tool")
    name = text_attr(attributes, "gen_ai.tool.name") or span.name
    return tool_span_facts(CONVENTION, span, context, output, call_id=call_id, name=name)


def _read_retriever(span: SpanRecord) -> SpanFacts:
    decoded = decode(span.attributes.get(COMPLETION))
    documents = [
        Document(fields.get("page_content"), clean_id(fields.get("id")), fields.get("metadata"))
        for fields in map(as_dict, as_list(as_dict(decoded.value).get("documents")))
    ]
    context = semconv_context(span.attributes, "retrieval")
    return retrieval_span_facts(CONVENTION, span, context, documents, truncated=decoded.truncated)


def _prompt_messages(inputs: Any) -> list[tuple[str, Mapping[str, Any]]]:
    """The chat messages of an LLM run's inputs: ``{"messages": [[...]]}`` for LangChain chat models
    (one list per prompt of a batch; the first is read), ``{"messages": [...]}`` for ``wrap_openai``."""
    raw = as_list(as_dict(inputs).get("messages"))
    if raw and isinstance(raw[0], list | tuple):
        raw = list(raw[0])
    return [message for message in map(langchain_message, raw) if message is not None]


def _text(fields: Mapping[str, Any]) -> str | None:
    return content_text(fields.get("content"))


def _name(fields: Mapping[str, Any]) -> str | None:
    name = fields.get("name")
    return name if isinstance(name, str) else None


PRODUCER = Producer(name=CONVENTION, order=25, gate_keys=GATE_KEYS, read_span=read)
