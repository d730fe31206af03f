"""MLflow tracing (3.x) as OpenTelemetry spans, in-process or over OTLP: ``mlflow.spanType`` names the
span's role and ``mlflow.spanInputs`` / ``mlflow.spanOutputs`` hold its content. MLflow JSON-encodes
every one of its attribute values, strings included (``"\\"TOOL\\""``).

- ``CHAT_MODEL`` / ``LLM`` (autolog of OpenAI, LangChain, …): the inputs' ``messages`` (OpenAI or
  LangChain form), the outputs an OpenAI chat completion or LangChain generations; the tool messages
  after the last user message are the turn's evidence, so the final call is self-contained.
- ``TOOL``: the output is the result (``@mlflow.trace(span_type="TOOL")``); MLflow records no call id.
- ``RETRIEVER``: the output is a list of documents (``{"page_content", "metadata", "id"}``).
- ``AGENT``: closes a turn; the answer is the output when it is text or a message.
- ``CHAIN``, ``EMBEDDING``, ``PARSER``, ``RERANKER``, ``UNKNOWN``: not read.

With ``MLFLOW_ENABLE_OTEL_GENAI_SEMCONV=true`` MLflow exports semconv ``gen_ai.*`` attributes instead,
which the semconv reader takes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from otel_groundedness.conventions._common import (
    asks_for_tools,
    clean_id,
    content_text,
    document_item,
    retrieval_span_facts,
    tool_span_facts,
    turn_start,
)
from otel_groundedness.conventions._json import Decoded, as_dict, as_list, as_text
from otel_groundedness.conventions._langchain import langchain_message, llm_output
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord, TurnContext
from otel_groundedness.scoring.evidence import Evidence

CONVENTION = "mlflow"
SPAN_TYPE = "mlflow.spanType"
INPUTS = "mlflow.spanInputs"
OUTPUTS = "mlflow.spanOutputs"
MODEL = "mlflow.llm.model"
GATE_KEYS = frozenset({SPAN_TYPE})
_INFERENCE_TYPES = frozenset({"CHAT_MODEL", "LLM"})


def read(span: SpanRecord) -> SpanFacts | None:
    kind = _value(span.attributes, SPAN_TYPE).value
    if kind in _INFERENCE_TYPES:
        return _read_inference(span)
    if kind == "TOOL":
        return _read_tool(span)
    if kind == "RETRIEVER":
        return _read_retriever(span)
    if kind == "AGENT":
        return _read_agent(span)
    return None


def _read_inference(span: SpanRecord) -> SpanFacts:
    attributes = span.attributes
    inputs, outputs = _value(attributes, INPUTS), _value(attributes, OUTPUTS)
    messages = _messages(inputs.value)
    start = turn_start(messages, lambda message: message[0] == "user" and _text(message[1]) is not None)
    evidence = tuple(
        Evidence(fields["content"], clean_id(fields.get("tool_call_id")), name=as_text(fields.get("name")))
        for role, fields in messages[start:]
        if role == "tool" and fields.get("content") is not None
    )
    if isinstance(outputs.value, str):
        text, reason, calls = outputs.value or None, None, False
    else:
        text, reason, calls = llm_output(outputs.value)
    step = asks_for_tools((reason,), calls)
    return SpanFacts(
        convention=CONVENTION,
        context=_context(attributes, "chat", as_text(as_dict(outputs.value).get("id"))),
        answer=None if step else text,
        evidence=evidence,
        user_prompt=_text(messages[start - 1][1]) if start else None,
        tool_call_step=step,
        content_captured=INPUTS in attributes or OUTPUTS in attributes,
        content_truncated=inputs.truncated or outputs.truncated,
    )


def _read_tool(span: SpanRecord) -> SpanFacts:
    output = _value(span.attributes, OUTPUTS)
    context = _context(span.attributes, "execute_tool", None)
    facts = tool_span_facts(CONVENTION, span, context, output.value, name=span.name)
    return replace(facts, content_truncated=True) if output.truncated else facts


def _read_retriever(span: SpanRecord) -> SpanFacts:
    output = _value(span.attributes, OUTPUTS)
    documents = [document_item(item) for item in as_list(output.value)]
    context = _context(span.attributes, "retrieval", None)
    return retrieval_span_facts(CONVENTION, span, context, documents, truncated=output.truncated)


def _read_agent(span: SpanRecord) -> SpanFacts:
    output = _value(span.attributes, OUTPUTS)
    value = output.value
    if isinstance(value, Mapping):
        value = value.get("content", value.get("output"))
    return SpanFacts(
        convention=CONVENTION,
        # Never the span name as agent name: it may carry run ids, an unbounded metric label.
        context=_context(span.attributes, "invoke_agent", None),
        answer=content_text(value),
        is_agent=True,
        content_truncated=output.truncated,
    )


def _value(attributes: Mapping[str, Any], key: str) -> Decoded:
    """An MLflow attribute value, JSON-decoded once; ``truncated`` when a JSON document did not parse."""
    raw = attributes.get(key)
    if not isinstance(raw, str):
        return Decoded(raw)
    try:
        return Decoded(json.loads(raw))
    except RecursionError:
        return Decoded(raw, truncated=True)
    except ValueError:
        cut = raw.lstrip().startswith(("{", "[", '"'))
        return Decoded(None, truncated=True) if cut else Decoded(raw)


def _context(attributes: Mapping[str, Any], operation: str, response_id: str | None) -> TurnContext:
    model = _value(attributes, MODEL).value
    return TurnContext(
        operation=operation,
        request_model=model if isinstance(model, str) and model else None,
        response_id=response_id,
    )


def _messages(inputs: Any) -> list[tuple[str, Mapping[str, Any]]]:
    """(role, fields) of the chat messages in the inputs (``messages``: OpenAI or LangChain messages,
    one list per prompt of a LangChain batch, the first read)."""
    raw = as_list(as_dict(inputs).get("messages")) if isinstance(inputs, Mapping) else as_list(inputs)
    if raw and isinstance(raw[0], list | tuple):
        raw = list(raw[0])
    if isinstance(inputs, Mapping) and not raw and isinstance(inputs.get("prompt"), str):
        return [("user", {"content": inputs["prompt"]})]  # a completions (LLM) call
    return [message for message in map(langchain_message, raw) if message is not None]


def _text(fields: Mapping[str, Any]) -> str | None:
    return content_text(fields.get("content"))


PRODUCER = Producer(name=CONVENTION, order=28, gate_keys=GATE_KEYS, read_span=read)
