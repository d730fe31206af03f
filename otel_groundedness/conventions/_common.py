"""Helpers shared by the adapters: typed attribute getters, ids, finish reasons, turn context."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions._json import as_list, as_text, decode
from otel_groundedness.records import TurnContext

# Every spelling of "the model stopped to call a tool" (OpenAI, semconv enum, AI SDK, legacy functions).
TOOL_FINISH_REASONS = frozenset({"tool_calls", "tool_call", "tool-calls", "function_call"})


def text_attr(attributes: Mapping[str, Any], *keys: str) -> str | None:
    """The first non-empty string value among ``keys``."""
    for key in keys:
        value = as_text(attributes.get(key))
        if value is not None:
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
    decoded = decode(raw).value
    if isinstance(decoded, str):
        return (decoded,)
    return tuple(item for item in as_list(decoded) if isinstance(item, str))


def stopped_for_tools(reasons: tuple[str, ...]) -> bool:
    return any(reason in TOOL_FINISH_REASONS for reason in reasons)


def semconv_context(attributes: Mapping[str, Any], operation: str | None) -> TurnContext:
    """The turn descriptors from standard ``gen_ai.*`` attributes (≤1.36 and ≥1.37 names)."""
    return TurnContext(
        operation=operation,
        provider=text_attr(attributes, "gen_ai.provider.name", "gen_ai.system"),
        request_model=text_attr(attributes, "gen_ai.request.model"),
        response_model=text_attr(attributes, "gen_ai.response.model"),
        agent_name=text_attr(attributes, "gen_ai.agent.name"),
        response_id=text_attr(attributes, "gen_ai.response.id"),
        conversation_id=text_attr(attributes, "gen_ai.conversation.id"),
    )
