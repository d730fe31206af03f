"""Evidence walker: flattens evidence items into text fragments and raw numeric scalars.

Nested payloads are walked in document order (dict keys too); JSON documents serialized as
strings are parsed and walked; the byte cap truncates the item that crosses it and stops there.
"""

from __future__ import annotations

import datetime
import decimal
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from otel_groundedness.scoring.evidence_item import Evidence

# JSON strings nested inside JSON strings (a tool message whose content is a JSON document) are
# decoded this many levels deep; deeper layers are scanned as text.
_MAX_JSON_DECODES = 3
_PLAIN_NUMBER = re.compile(r"-?\d{1,30}(?:\.\d{1,30})?")
# In a JSON document that does not parse (typically cut by the producer), `"key": 123` and
# `"key": "123.00"` pairs still identify raw scalars and their labels.
_KEYED_NUMBER = re.compile(
    r'"([^"\\\n]{1,80})"[ \t\r\n]{0,8}:[ \t\r\n]{0,8}'
    r'(?:(-?\d{1,30}(?:\.\d{1,30})?(?:[eE][+-]?\d{1,3})?)(?![\d.eE])|"(-?\d{1,30}(?:\.\d{1,30})?)")'
)
_CURRENCY_KEYS = ("currency", "currency_code", "currencyCode", "ccy")
_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Source:
    """Where a piece of evidence came from: its position in the caller's list and its labels."""

    index: int | None  # None for the user prompt, which is not one of the caller's items
    source_id: str | None
    kind: str
    name: str | None


class JsonPath:
    """A link in a JSON path; rendered only when a citation needs it."""

    __slots__ = ("key", "parent", "rooted")

    def __init__(self, parent: JsonPath | None, key: str | int, rooted: bool = True) -> None:
        self.parent = parent
        self.key = key
        self.rooted = rooted

    def render(self) -> str:
        """``$.invoice.total``, ``$.items[0]``, ``$['INV-2210']``; ``$..total`` when the root is unknown."""
        links: list[JsonPath] = []
        node: JsonPath | None = self
        while node is not None:
            links.append(node)
            node = node.parent
        parts = ["$" if links[-1].rooted else "$."]
        for link in reversed(links):
            key = link.key
            if isinstance(key, int):
                parts.append(f"[{key}]")
            elif _SIMPLE_KEY.fullmatch(key):
                parts.append(f".{key}")
            else:
                parts.append(f"[{json.dumps(key, ensure_ascii=False)}]")
        return "".join(parts)

    def labels(self) -> list[str]:
        """The string keys on the way to the root, nearest first."""
        found: list[str] = []
        node: JsonPath | None = self
        while node is not None:
            if isinstance(node.key, str):
                found.append(node.key)
            node = node.parent
        return found


class Fragment:
    """A string scanned for atoms: a text item, a JSON string value, or a dict key."""

    __slots__ = ("path", "siblings", "source", "text")

    def __init__(
        self, source: Source, path: JsonPath | None, text: str, siblings: Mapping[Any, Any] | None
    ) -> None:
        self.source = source
        self.path = path
        self.text = text
        self.siblings = siblings


class RawScalar:
    """A number that carries no surface form: a JSON int/float or a plain numeric string."""

    __slots__ = ("currency", "end", "literal", "path", "siblings", "source", "start", "value")

    def __init__(
        self,
        source: Source,
        path: JsonPath | None,
        value: float,
        literal: object,
        currency: str | None,
        siblings: Mapping[Any, Any] | None,
        start: int | None = None,
        end: int | None = None,
    ) -> None:
        self.source = source
        self.path = path
        self.value = value
        self.literal = literal
        self.currency = currency
        self.siblings = siblings
        self.start = start  # offsets in a text item, for scalars read out of unparseable JSON
        self.end = end

    @property
    def text(self) -> str:
        literal = self.literal
        return literal if isinstance(literal, str) else json.dumps(literal)


@dataclass(slots=True)
class Corpus:
    """Everything the evidence offers for matching, plus what the report needs to know about it."""

    fragments: list[Fragment]
    scalars: list[RawScalar]
    truncated: bool
    has_tool_evidence: bool


def collect(evidence: Iterable[Any], user_prompt: str | None, max_bytes: int) -> Corpus:
    """Walk the user prompt (if given) and every evidence item within ``max_bytes``."""
    walker = _Walker(max_bytes)
    if user_prompt:
        walker.walk(user_prompt, Source(None, None, "user_prompt", None))
    has_tool_evidence = False
    for index, item in enumerate(evidence):
        if isinstance(item, Evidence):
            source = Source(index, item.source_id, item.kind, item.name)
            content = item.content
        else:
            source = Source(index, None, "tool_result", None)
            content = item
        has_tool_evidence = has_tool_evidence or source.kind != "user_prompt"
        if walker.remaining > 0:
            walker.walk(content, source)
        elif not _is_empty(content):
            walker.truncated = True
    return Corpus(walker.fragments, walker.scalars, walker.truncated, has_tool_evidence)


def _is_empty(content: Any) -> bool:
    return content is None or (isinstance(content, str | list | dict | tuple) and not content)


def _byte_size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _finite_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        try:
            number = float(value)
        except OverflowError:
            return None
    elif isinstance(value, float | decimal.Decimal):
        number = float(value)
    else:
        return None
    return number if math.isfinite(number) else None


class _Walker:
    """Iterative depth-first walk (no recursion limit) with a shrinking byte budget."""

    def __init__(self, max_bytes: int) -> None:
        self.remaining = max_bytes
        self.truncated = False
        self.fragments: list[Fragment] = []
        self.scalars: list[RawScalar] = []

    def _take(self, text: str) -> str:
        """Charge ``text`` to the budget; return the part that fits."""
        size = _byte_size(text)
        if size <= self.remaining:
            self.remaining -= size
            return text
        self.truncated = True
        keep = self.remaining
        self.remaining = 0
        if text.isascii():
            return text[:keep]
        return text.encode("utf-8", "surrogatepass")[:keep].decode("utf-8", "ignore")

    def walk(self, content: Any, source: Source) -> None:
        stack: list[tuple[Any, JsonPath | None, Mapping[Any, Any] | None, str | None, int]] = [
            (content, None, None, None, 0)
        ]
        while stack and self.remaining > 0:
            value, path, siblings, currency, decodes = stack.pop()
            if isinstance(value, str):
                self._string(value, source, path, siblings, currency, decodes, stack)
            elif isinstance(value, Mapping):
                currency_here = _sibling_currency(value)
                children = []
                for key, child in value.items():
                    key_text = key if isinstance(key, str) else str(key)
                    child_path = JsonPath(path, key_text)
                    children.append((key_text, child_path, child))
                for key_text, child_path, child in reversed(children):
                    stack.append((child, child_path, value, currency_here, decodes))
                    # The key is pushed last so it is scanned before its value.
                    stack.append((_KeyText(key_text), child_path, value, None, decodes))
            elif isinstance(value, list | tuple):
                for position in range(len(value) - 1, -1, -1):
                    stack.append((value[position], JsonPath(path, position), siblings, currency, decodes))
            elif isinstance(value, _KeyText):
                self._fragment(value.text, source, path, siblings)
            else:
                self._scalar(value, source, path, siblings, currency)

    def _string(
        self,
        text: str,
        source: Source,
        path: JsonPath | None,
        siblings: Mapping[Any, Any] | None,
        currency: str | None,
        decodes: int,
        stack: list[tuple[Any, JsonPath | None, Mapping[Any, Any] | None, str | None, int]],
    ) -> None:
        stripped = text.strip()
        if _PLAIN_NUMBER.fullmatch(stripped):
            self._take(stripped)
            self.scalars.append(RawScalar(source, path, float(stripped), stripped, currency, siblings))
            return
        if decodes < _MAX_JSON_DECODES and stripped[:1] in ("{", "[") and _byte_size(text) <= self.remaining:
            try:
                parsed = json.loads(stripped)
            except (ValueError, RecursionError):
                parsed = None
            if isinstance(parsed, dict | list):
                stack.append((parsed, path, siblings, currency, decodes + 1))
                return
        kept = self._take(text)
        self.fragments.append(Fragment(source, path, kept, siblings))
        if stripped[:1] in ("{", "["):
            self._keyed_numbers(kept, source, path)

    def _fragment(
        self, text: str, source: Source, path: JsonPath | None, siblings: Mapping[Any, Any] | None
    ) -> None:
        self.fragments.append(Fragment(source, path, self._take(text), siblings))

    def _keyed_numbers(self, text: str, source: Source, path: JsonPath | None) -> None:
        for match in _KEYED_NUMBER.finditer(text):
            literal = match.group(2) or match.group(3)
            number = _finite_number(float(literal))
            if number is None:
                continue
            group = 2 if match.group(2) else 3
            key_path = JsonPath(path, match.group(1), rooted=False)
            self.scalars.append(
                RawScalar(source, key_path, number, literal, None, None, match.start(group), match.end(group))
            )

    def _scalar(
        self,
        value: Any,
        source: Source,
        path: JsonPath | None,
        siblings: Mapping[Any, Any] | None,
        currency: str | None,
    ) -> None:
        number = _finite_number(value)
        if number is not None:
            # Charged a flat 8 bytes (a typical literal) instead of paying to render every number.
            self.remaining -= min(self.remaining, 8)
            literal = value if isinstance(value, int | float) else str(value)
            self.scalars.append(RawScalar(source, path, number, literal, currency, siblings))
        elif isinstance(value, datetime.date | datetime.time):
            self._fragment(value.isoformat(), source, path, siblings)
        elif value is not None and not isinstance(value, bool):
            try:
                text = str(value)
            except Exception:  # an arbitrary object's __str__ must not break scoring
                return
            self._fragment(text, source, path, siblings)


class _KeyText:
    """Marks a dict key on the walk stack (scanned as text, never parsed as JSON)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _sibling_currency(mapping: Mapping[Any, Any]) -> str | None:
    for key in _CURRENCY_KEYS:
        code = mapping.get(key)
        if isinstance(code, str) and len(code) == 3 and code.isascii() and code.isalpha():
            return code.upper()
    return None
