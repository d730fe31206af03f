"""Serialized LangChain messages, as OpenInference and LangSmith record them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
