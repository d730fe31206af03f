"""Serialized LangChain messages and LLM run outputs, as OpenInference, LangSmith and MLflow record them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions._common import content_text
from otel_groundedness.conventions._json import as_dict, as_list

_ROLES = {  # LangChain message types and class names, OpenAI roles → chat roles
    "ai": "assistant", "AIMessage": "assistant", "AIMessageChunk": "assistant", "assistant": "assistant",
    "human": "user", "HumanMessage": "user", "user": "user",
    "tool": "tool", "ToolMessage": "tool",
}  # fmt: skip


def langchain_message(value: Any) -> tuple[str, Mapping[str, Any]] | None:
    """(role, fields) of a serialized message: LangChain's ``{"type", "data"}`` (``messages_to_dict``),
    ``{"lc": 1, "id": [..., "AIMessage"], "kwargs"}`` (``dumpd``) and ``{"type", "content", ...}``
    (``model_dump``) forms, or an OpenAI ``{"role", "content"}`` message. None for other roles."""
    message = as_dict(value)
    if "data" in message:
        role, fields = _ROLES.get(str(message.get("type"))), as_dict(message["data"])
    elif "kwargs" in message:
        path = as_list(message.get("id"))
        role, fields = _ROLES.get(str(path[-1]) if path else ""), as_dict(message["kwargs"])
    elif "content" in message:
        role, fields = _ROLES.get(str(message.get("type", message.get("role")))), message
    else:
        return None
    return (role, fields) if role else None


def llm_output(outputs: Any) -> tuple[str | None, str | None, bool]:
    """(answer text, finish reason, whether it calls tools) of an LLM run's outputs: LangChain's
    ``{"generations": [[...]]}`` or an OpenAI chat completion's ``{"choices": [...]}``."""
    fields = as_dict(outputs)
    generations = as_list(fields.get("generations"))
    if generations:
        first = as_dict(next(iter(as_list(generations[0])), None))
        message = langchain_message(first.get("message"))
        calls = bool(message and message[1].get("tool_calls"))
        reason = as_dict(first.get("generation_info")).get("finish_reason")
        return content_text(first.get("text")), reason if isinstance(reason, str) else None, calls
    choice = as_dict(next(iter(as_list(fields.get("choices"))), None))
    message_fields = as_dict(choice.get("message"))
    reason = choice.get("finish_reason")
    text = content_text(message_fields.get("content")) or content_text(choice.get("text"))  # or a completion
    return text, reason if isinstance(reason, str) else None, bool(message_fields.get("tool_calls"))
