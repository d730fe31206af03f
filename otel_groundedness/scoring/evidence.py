"""The ``Evidence`` record: one tool result (or prompt) the answer is checked against."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Evidence:
    """A piece of evidence and where it came from.

    ``content`` is a str, a JSON-like value (dict/list/scalars), or a JSON document
    serialized as a str (parsed and walked). ``source_id`` names its origin (tool-call id,
    span id); ``kind`` says what it is (``tool_result``, ``user_prompt``, ...); ``name``
    is the tool name when known.
    """

    content: Any
    source_id: str | None = None
    kind: str = "tool_result"
    name: str | None = None
