"""OTel GenAI semconv ≥1.37 spans: inference and agent spans with ``gen_ai.input/output.messages``,
``execute_tool`` spans with ``gen_ai.tool.call.result``, ``retrieval`` spans with
``gen_ai.retrieval.documents``; ``handle_conversation_turn`` and ``invoke_workflow`` close a turn like
``invoke_agent``.

Also reads the JSON form of OpenLLMetry ≥0.55, AI SDK 7 ``@ai-sdk/otel``, Pydantic AI chat spans and
Logfire ``instrument_openai`` v2 spans, which all use this vocabulary.
"""

from __future__ import annotations

from otel_groundedness.conventions import semconv_messages as msgs
from otel_groundedness.conventions import semconv_span_events as span_events
from otel_groundedness.conventions._common import (
    Document,
    clean_id,
    retrieval_span_facts,
    semconv_context,
    text_attr,
    tool_span_facts,
)
from otel_groundedness.conventions._json import as_dict, as_list, decode
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord

CONVENTION = "semconv"
OPERATION = "gen_ai.operation.name"
INPUT_MESSAGES = msgs.INPUT_MESSAGES
OUTPUT_MESSAGES = msgs.OUTPUT_MESSAGES
TOOL_CALL_RESULT = "gen_ai.tool.call.result"
RETRIEVAL_DOCUMENTS = "gen_ai.retrieval.documents"
INFERENCE_OPERATIONS = frozenset({"chat", "text_completion", "generate_content"})
# ``handle_conversation_turn``: a framework runner's whole turn (ADK and OpenAI Agents ``Runner.run``).
AGENT_OPERATIONS = frozenset({"invoke_agent", "invoke_workflow", "handle_conversation_turn"})
# Provider, system and response id mark GenAI spans whose operation key was evicted or never written.
GATE_KEYS = frozenset(
    {
        OPERATION,
        INPUT_MESSAGES,
        OUTPUT_MESSAGES,
        TOOL_CALL_RESULT,
        RETRIEVAL_DOCUMENTS,
        "gen_ai.provider.name",
        "gen_ai.system",
        "gen_ai.response.id",
    }
)


def read(span: SpanRecord) -> SpanFacts | None:
    attributes = span.attributes
    operation = text_attr(attributes, OPERATION)
    if operation == "execute_tool" or (operation is None and TOOL_CALL_RESULT in attributes):
        return read_tool(span, CONVENTION)
    if operation == "retrieval" or (operation is None and RETRIEVAL_DOCUMENTS in attributes):
        return _read_retrieval(span)
    has_content = INPUT_MESSAGES in attributes or OUTPUT_MESSAGES in attributes
    agent = operation in AGENT_OPERATIONS
    if not (agent or operation in INFERENCE_OPERATIONS or (operation is None and has_content)):
        return None
    facts = msgs.read_messages(attributes, agent=agent)
    if not has_content and span.events:  # Strands: the content is in span events
        facts = span_events.read_messages(span.events, agent=agent) or facts
    return SpanFacts(
        convention=CONVENTION,
        context=semconv_context(attributes, operation or "chat"),
        answer=facts.answer,
        evidence=facts.evidence,
        user_prompt=facts.user_prompt,
        is_agent=agent,
        tool_call_step=facts.tool_call_step,
        # An agent span without content still closes its subtree; only inference spans need content.
        content_captured=facts.captured or agent,
        content_truncated=facts.truncated,
    )


def read_tool(span: SpanRecord, convention: str) -> SpanFacts:
    """An ``execute_tool``-shaped span: ``gen_ai.tool.call.result`` keyed by ``gen_ai.tool.call.id``."""
    attributes = span.attributes
    result = attributes.get(TOOL_CALL_RESULT)
    return tool_span_facts(
        convention,
        span,
        semconv_context(attributes, "execute_tool"),
        span_events.tool_result(span.events) if result is None else result,
        call_id=clean_id(attributes.get("gen_ai.tool.call.id")),
        name=text_attr(attributes, "gen_ai.tool.name"),
    )


def _read_retrieval(span: SpanRecord) -> SpanFacts:
    """``gen_ai.retrieval.documents``: ``[{id, content, score, ...}]`` (JSON string or structured)."""
    attributes = span.attributes
    decoded = decode(attributes.get(RETRIEVAL_DOCUMENTS))
    documents = [
        Document(fields.get("content"), clean_id(fields.get("id")), fields.get("metadata"))
        for fields in map(as_dict, as_list(decoded.value))
    ]
    context = semconv_context(attributes, "retrieval")
    return retrieval_span_facts(CONVENTION, span, context, documents, truncated=decoded.truncated)


PRODUCER = Producer(name=CONVENTION, order=90, gate_keys=GATE_KEYS, read_span=read)
