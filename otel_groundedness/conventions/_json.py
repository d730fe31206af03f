"""Best-effort decoding of attribute values that hold JSON (strings, or structured SDK values)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Decoded:
    """A decoded value; ``truncated`` is True when a JSON-looking string did not parse whole."""

    value: Any
    truncated: bool = False


def decode(raw: Any) -> Decoded:
    """Decode a JSON string; pass structured values (dict, list, tuple) through as-is.

    A string that starts like a JSON object or array but does not parse (for example one cut by
    ``OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT``) decodes to None with ``truncated=True``. A document
    nested too deep for the parser stays the raw string, also ``truncated``: its figures can still
    be read as text. Any other string is returned unchanged.
    """
    if isinstance(raw, str):
        text = raw.strip()
        if not text.startswith(("{", "[")):
            return Decoded(raw)
        try:
            return Decoded(json.loads(text))
        except RecursionError:
            return Decoded(raw, truncated=True)
        except ValueError:
            return Decoded(None, truncated=True)
    return _ABSENT if raw is None else Decoded(raw)


# Most content attributes a reader asks for are absent: one shared (immutable) result for them.
_ABSENT = Decoded(None)


def as_list(value: Any) -> list[Any]:
    """A list for JSON arrays and the SDK's tuple form; empty for anything else."""
    return list(value) if isinstance(value, (list, tuple)) else []  # a tuple: faster than a union


def as_dict(value: Any) -> Mapping[str, Any]:
    """The mapping itself, or an empty one when ``value`` is not a mapping."""
    if isinstance(value, dict):  # the usual case, without the ABC's slower instance check
        return value
    return value if isinstance(value, Mapping) else {}


def as_text(value: Any) -> str | None:
    """A non-empty string, else None."""
    return value if isinstance(value, str) and value else None
