"""Helpers shared by the adapters: typed getters, ids, turn start, content text, "asks for tools",
and the facts of evidence-only spans (tool executions, retrievals)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from otel_groundedness.conventions._json import as_dict, as_list, decode
from otel_groundedness.records import RETRIEVAL, SpanFacts, SpanRecord, TurnContext
from otel_groundedness.scoring.evidence import Evidence

T = TypeVar("T")

# Every spelling of "the model stopped to call a tool" (OpenAI, semconv enum, AI SDK, legacy functions,
# Bedrock/Strands ``tool_use``).
TOOL_FINISH_REASONS = frozenset({"tool_calls", "tool_call", "tool-calls", "function_call", "tool_use"})
# Content-part types that hold visible text (chat APIs, Responses API, LangChain, AI SDK); untyped
# blocks (Strands ``{"text": ...}``) count too. Reasoning and media parts do not.
_TEXT_PART_TYPES = (None, "text", "input_text", "output_text")


def text_attr(attributes: Mapping[str, Any], *keys: str) -> str | None:
    """The first non-empty string value among ``keys``."""
    for key in keys:
        value = attributes.get(key)
        if isinstance(value, str) and value:  # ``as_text`` inlined: this runs for every key read
            return value
    return None


def clean_id(value: Any) -> str | None:
    """A tool-call or message id without surrounding whitespace (old spec examples had a leading space)."""
    if isinstance(value, str):
        return value.strip() or None
    return None


def span_source_id(span_id: int) -> str:
    """The evidence source id for a span that carries no tool-call id: the span id in hex."""
    return f"{span_id:016x}"


def finish_reasons(raw: Any) -> tuple[str, ...]:
    """``gen_ai.response.finish_reasons`` as a tuple (it may be a list, a tuple or a JSON string)."""
    if raw is None:
        return ()
    if type(raw) is tuple and all(type(item) is str for item in raw):
        return raw  # the SDK's and OTLP's form, already as wanted
    decoded = decode(raw).value
    if isinstance(decoded, str):
        return (decoded,)
    return tuple(item for item in as_list(decoded) if isinstance(item, str))


def stopped_for_tools(reasons: Iterable[Any]) -> bool:
    return any(isinstance(reason, str) and reason in TOOL_FINISH_REASONS for reason in reasons)


def asks_for_tools(reasons: Iterable[Any], has_tool_calls: bool) -> bool:
    """Whether a model output is a tool-calling step: a tool finish reason, or tool calls in place of text."""
    return has_tool_calls or stopped_for_tools(reasons)


def turn_start(messages: Sequence[T], opens_turn: Callable[[T], bool]) -> int:
    """Index just after the last message that opens a turn (a user message with text); 0 if none.

    Evidence is read from there on: tool results of earlier turns are not this answer's evidence.
    """
    for index in range(len(messages) - 1, -1, -1):
        if opens_turn(messages[index]):
            return index + 1
    return 0


def indexed_turn_start(groups: Mapping[int, T], opens_turn: Callable[[T], bool]) -> int:
    """``turn_start`` over regrouped indexed attributes, whose indices may have gaps: the index (not
    the position) just after the message that opens the turn."""
    indices = list(groups)
    position = turn_start([groups[index] for index in indices], opens_turn)
    return indices[position - 1] + 1 if position else 0


def content_text(content: Any) -> str | None:
    """Message content as text: a string, or the joined ``text`` of its text parts (OpenAI, LangChain,
    AI SDK and Strands content blocks)."""
    if isinstance(content, str):
        return content or None
    parts = map(as_dict, as_list(content))
    texts = [part.get("text") for part in parts if part.get("type") in _TEXT_PART_TYPES]
    return "".join(text for text in texts if isinstance(text, str)) or None


def text_blocks(value: Any) -> Any:
    """A list of text content blocks (Strands and Bedrock ``[{"text": ...}]``, MCP ``[{"type": "text",
    "text": ...}]``) as its joined text, so a JSON document inside is read as one; other values as is."""
    if isinstance(value, str) and not value.lstrip().startswith("["):
        return value  # not a list: spare parsing a large JSON object twice
    blocks = as_list(decode(value).value)
    if not blocks or not all(isinstance(block, dict) and set(block) <= {"type", "text"} for block in blocks):
        return value
    text = content_text(blocks)
    return value if text is None else text


# ``semconv_context``'s keys: the provider (≥1.37, then ≤1.36), then TurnContext's fields in order.
_CONTEXT_KEYS = (
    "gen_ai.provider.name",
    "gen_ai.system",
    "gen_ai.request.model",
    "gen_ai.response.model",
    "gen_ai.agent.name",
    "gen_ai.response.id",
    "gen_ai.conversation.id",
)


def semconv_context(attributes: Mapping[str, Any], operation: str | None) -> TurnContext:
    """The turn descriptors from standard ``gen_ai.*`` attributes (≤1.36 and ≥1.37 names)."""
    # One pass of plain lookups (``text_attr`` per field costs a call each, for every span and log).
    provider, system, *rest = [
        value if isinstance(value, str) and value else None for value in map(attributes.get, _CONTEXT_KEYS)
    ]
    return TurnContext(operation, provider or system, *rest)


def tool_span_facts(
    convention: str,
    span: SpanRecord,
    context: TurnContext,
    result: Any,
    *,
    call_id: str | None = None,
    name: str | None = None,
) -> SpanFacts:
    """An evidence-only tool span: its result keyed by the tool-call id, else by the span id."""
    source = call_id or span_source_id(span.span_id)
    evidence = () if result is None else (Evidence(text_blocks(result), source, name=name),)
    return SpanFacts(
        convention=convention,
        context=context,
        evidence=evidence,
        is_tool=True,
        content_captured=result is not None,
        content_truncated=decode(result).truncated,
    )


@dataclass(frozen=True, slots=True)
class Document:
    """One retrieved document as a producer recorded it."""

    content: Any
    document_id: str | None = None
    metadata: Any = None


_DOCUMENT_TEXT_KEYS = ("page_content", "content", "text")


def document_item(item: Any) -> Document:
    """A retrieved document as frameworks serialize it: a string, a LangChain or MLflow
    ``{"page_content", "metadata", "id"}`` object, or ``{"content"|"text", "id", "metadata"}``."""
    if isinstance(item, str):
        return Document(item)
    fields = as_dict(item)
    content = next((fields[key] for key in _DOCUMENT_TEXT_KEYS if fields.get(key) is not None), None)
    return Document(content, clean_id(fields.get("id")), fields.get("metadata"))


def retrieval_span_facts(
    convention: str, span: SpanRecord, context: TurnContext, documents: Sequence[Document], *, truncated: bool
) -> SpanFacts:
    """An evidence-only retrieval span: one ``retrieval`` evidence item per document with content.

    The document id is the source id (a document without one is keyed by span and position, so two
    such documents never collapse into one); the name cited is a title-like metadata field, else the id.
    """
    evidence = tuple(
        Evidence(
            document.content,
            document.document_id or f"{span_source_id(span.span_id)}/{index}",
            kind=RETRIEVAL,
            name=_document_name(document.metadata) or document.document_id,
        )
        for index, document in enumerate(documents)
        if document.content is not None and document.content != ""
    )
    return SpanFacts(
        convention=convention,
        context=context,
        evidence=evidence,
        is_tool=True,
        content_captured=bool(evidence),
        content_truncated=truncated,
    )


def _document_name(metadata: Any) -> str | None:
    fields = as_dict(decode(metadata).value)
    return text_attr(fields, "title", "file_name", "source", "url")
