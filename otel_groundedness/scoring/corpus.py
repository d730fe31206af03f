"""Evidence walker: flattens evidence items into text fragments and raw numeric scalars.

Nested payloads are walked in document order (dict keys too) on an explicit stack, so nesting of
any depth costs heap, never the interpreter's stack; JSON documents serialized as strings are
parsed and walked; the byte cap truncates the item that crosses it and stops there. Whatever was
cut or read as flat text is named by a ``TruncationReason``.
"""

from __future__ import annotations

import datetime
import decimal
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from otel_groundedness.scoring.evidence import Evidence
from otel_groundedness.scoring.results import TruncationReason

# JSON strings nested inside JSON strings (a tool message whose content is a JSON document) are
# decoded this many levels deep; deeper layers are scanned as text (reason ``json_too_deep``).
_MAX_JSON_DECODES = 3
# Containers nested deeper are not walked (reason ``max_depth``). Not for safety (the walk keeps
# its own stack) but for work: each level costs a few microseconds, and the byte cap alone would
# allow 130,000 of them. JSON text never gets near it (Python's parser stops near 1,000 levels).
MAX_DEPTH = 10_000
_PLAIN_NUMBER = re.compile(r"-?\d{1,30}(?:\.\d{1,30})?")
# Without a relative-date anchor every atom holds a digit, an "@", "://" or "www.": other strings
# are skipped without calling the extractor.
_MAY_HOLD_ATOM = re.compile(r"[0-9@]|://|www\.", re.IGNORECASE)
# In a JSON document that does not parse (typically cut by the producer), `"key": 123` and
# `"key": "123.00"` pairs still identify raw scalars and their labels.
_KEYED_NUMBER = re.compile(
    r'"([^"\\\n]{1,80})"[ \t\r\n]{0,8}:[ \t\r\n]{0,8}'
    r'(?:(-?\d{1,30}(?:\.\d{1,30})?(?:[eE][+-]?\d{1,3})?)(?![\d.eE])|"(-?\d{1,30}(?:\.\d{1,30})?)")'
)
_CURRENCY_KEYS = ("currency", "currency_code", "currencyCode", "ccy")
_CURRENCY_KEY_SET = frozenset(_CURRENCY_KEYS)
_NUMBER_COST = 8  # bytes charged per number: a typical literal, without rendering every one
# Containers cost their brackets and a null or boolean in a list a byte, so the byte cap also ends
# the walk of a payload made of nothing else ([[[...]]], a million nulls).
_CONTAINER_COST = 2
_EMPTY_COST = 1
_LARGEST_INT = 10**308  # beyond this an int has no float value
_SHORT = 64  # strings up to this length are classified once per walk and remembered


class _Somewhere:
    """A link standing for an unknown stretch of path: ``$..total``."""

    __slots__ = ()


SOMEWHERE = _Somewhere()
# A JSON path as a chain of (parent, key) links, built cheaply during the walk and rendered only
# for citations.
Path: TypeAlias = "tuple[Path, str | int | _Somewhere] | None"


# A citation names at most this many keys nearest the value, each cut to this many characters;
# a path through a thousand levels or a key of 100 KB must not make every citation that long.
_RENDERED_KEYS = 16
_RENDERED_KEY_CHARS = 64
# Label words come from the string keys among the nearest links of a path (of at most this many
# characters each: a longer key is text, not a label).
_LABEL_LINKS = 16
_LABEL_KEY_CHARS = 64


def render_path(path: Path) -> str | None:
    """``$.invoice.total``, ``$.items[0]``, ``$["INV-2210"]``; ``$..total`` when the root is unknown
    or further than ``_RENDERED_KEYS`` keys away; a longer key ends in ``…``."""
    if path is None:
        return None
    keys: list[str | int | _Somewhere] = []
    link: Path = path
    while link is not None:
        if len(keys) == _RENDERED_KEYS:
            keys.append(SOMEWHERE)
            break
        link, key = link
        keys.append(key)
    parts = ["$"]
    gap = False  # after an unknown stretch a bracket needs its own "." too: $..[3], as $..total has
    for key in reversed(keys):
        if isinstance(key, _Somewhere):
            parts.append(".")
            gap = True
            continue
        if isinstance(key, int):
            part = f"[{key}]"
        elif len(key) > _RENDERED_KEY_CHARS:
            part = f"[{json.dumps(key[:_RENDERED_KEY_CHARS] + '…', ensure_ascii=False)}]"
        elif key.isascii() and key.isidentifier():  # [A-Za-z_][A-Za-z0-9_]*
            part = f".{key}"
        else:
            part = f"[{json.dumps(key, ensure_ascii=False)}]"
        parts.append("." + part if gap and part[0] == "[" else part)
        gap = False
    return "".join(parts)


def path_labels(path: Path) -> list[str]:
    """The string keys among the ``_LABEL_LINKS`` links nearest the value, nearest first."""
    labels: list[str] = []
    link: Path = path
    for _ in range(_LABEL_LINKS):
        if link is None:
            break
        link, key = link
        if isinstance(key, str) and len(key) <= _LABEL_KEY_CHARS:
            labels.append(key)
    return labels


@dataclass(frozen=True, slots=True)
class Source:
    """Where a piece of evidence came from: its position in the caller's list and its labels."""

    index: int | None  # None for the user prompt, which is not one of the caller's items
    source_id: str | None
    kind: str
    name: str | None


class Fragment:
    """A string scanned for atoms: a text item, a JSON string value, or a dict key."""

    __slots__ = ("path", "siblings", "source", "text")

    def __init__(self, source: Source, path: Path, text: str, siblings: Mapping[Any, Any] | None) -> None:
        self.source = source
        self.path = path
        self.text = text
        self.siblings = siblings


class RawScalar:
    """A number that carries no surface form: a JSON int/float or a plain numeric string.

    The walker stores scalars as rows (see ``ScalarRow``); this object is built only for the few
    that a lookup returns.
    """

    __slots__ = ("cell", "currency", "end", "literal", "path", "siblings", "source", "start", "value")

    def __init__(
        self,
        source: Source,
        path: Path,
        value: float,
        literal: object,
        currency: str | None,
        siblings: Mapping[Any, Any] | None,
        start: int | None = None,
        end: int | None = None,
        cell: str | None = None,
    ) -> None:
        self.source = source
        self.path = path
        self.value = value
        self.literal = literal
        self.currency = currency
        self.siblings = siblings
        self.start = start  # offsets in a text item, for scalars read out of unparseable JSON
        self.end = end
        self.cell = cell  # a table cell's row label and column headers: "Revenue / 2024"

    @property
    def text(self) -> str:
        literal = self.literal
        # repr is what json.dumps writes for a finite int or float, without its dispatch.
        return literal if isinstance(literal, str) else repr(literal)


# (source, path, literal, currency, siblings, start, end) of one raw scalar, in RawScalar's terms:
# number-dense evidence holds thousands, and a tuple costs a fraction of an object.
ScalarRow: TypeAlias = (
    "tuple[Source, Path, object, str | None, Mapping[Any, Any] | None, int | None, int | None]"
)


@dataclass(slots=True)
class Corpus:
    """Everything the evidence offers for matching, plus what the report needs to know about it.

    Raw scalars are columnar: ``scalar_values[i]`` is the value of the scalar ``scalar_rows[i]``.
    """

    fragments: list[Fragment]
    scalar_values: list[float]
    scalar_rows: list[ScalarRow]
    has_tool_evidence: bool
    reasons: set[TruncationReason] = field(default_factory=set)  # why evidence was cut or read flat
    # JSON lists whose first item is a list or an object, as walked: tables of rows or records,
    # read as tables only when a figure needs them (``scoring.table_book``).
    # With the object holding the list: its other values may caption the table ("unit": "In millions").
    arrays: list[tuple[Source, Path, Sequence[Any], Mapping[Any, Any] | None]] = field(default_factory=list)

    @property
    def truncated(self) -> bool:
        return bool(self.reasons)

    def scalar(self, position: int) -> RawScalar:
        source, path, literal, currency, siblings, start, end = self.scalar_rows[position]
        return RawScalar(source, path, self.scalar_values[position], literal, currency, siblings, start, end)

    @property
    def scalars(self) -> list[RawScalar]:
        """Every raw scalar as an object, in walk order."""
        return [self.scalar(position) for position in range(len(self.scalar_rows))]


def collect(
    evidence: Iterable[Any], user_prompt: str | None, max_bytes: int, *, every_string: bool = False
) -> Corpus:
    """Walk the user prompt (if given) and every evidence item within ``max_bytes``.

    ``every_string`` keeps strings without digits too (relative dates such as "yesterday").
    """
    walker = _Walker(max_bytes, every_string)
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
            walker.reasons.add("max_evidence_bytes")
    return Corpus(
        walker.fragments, walker.values, walker.rows, has_tool_evidence, walker.reasons, walker.arrays
    )


def _is_empty(content: Any) -> bool:
    return content is None or (isinstance(content, str | list | dict | tuple) and not content)


def _byte_size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _finite_number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | decimal.Decimal):
        return None
    try:
        number = float(value)
    except (OverflowError, ValueError):  # Decimal("sNaN") has no float value
        return None
    return number if math.isfinite(number) else None


def _classify_short(text: str) -> tuple[int, bool, float | None, bool]:
    """Bytes charged (an empty string costs one, like a null), whether it may hold an atom, its value
    if it is a plain number ("1243500.00"), and whether it may be a JSON document."""
    stripped = text.strip()
    number = float(stripped) if _PLAIN_NUMBER.fullmatch(stripped) else None
    size = _byte_size(text) or _EMPTY_COST
    return size, bool(_MAY_HOLD_ATOM.search(text)), number, stripped[:1] in ("{", "[")


def _key_text(key: object) -> str:
    try:
        return str(key)
    except Exception:  # an int past str()'s digit limit, a broken __str__: the key labels nothing
        return ""


def sibling_currency(mapping: Mapping[Any, Any]) -> str | None:
    for key in _CURRENCY_KEYS:
        code = mapping.get(key)
        if isinstance(code, str) and len(code) == 3 and code.isascii() and code.isalpha():
            return code.upper()
    return None


# A container being walked: (is a mapping, its (key, child) pairs still to read, the siblings and
# currency its children see, its path, JSON decode level). For a list the pairs are (index, child)
# and the siblings and currency are those of the object holding it.
_Frame: TypeAlias = "tuple[bool, Iterator[tuple[Any, Any]], Mapping[Any, Any] | None, Path, str | None, int]"


class _Walker:
    """Depth-first walk in document order with a shrinking byte budget, on an explicit stack."""

    def __init__(self, max_bytes: int, every_string: bool) -> None:
        self.remaining = max_bytes
        self.reasons: set[TruncationReason] = set()
        self.every_string = every_string
        self.fragments: list[Fragment] = []
        self.values: list[float] = []
        self.rows: list[ScalarRow] = []
        self.source = Source(None, None, "tool_result", None)
        self._short: dict[str, tuple[int, bool, float | None, bool]] = {}
        self._stack: list[_Frame] = []
        self.arrays: list[tuple[Source, Path, Sequence[Any], Mapping[Any, Any] | None]] = []

    def walk(self, content: Any, source: Source) -> None:
        self.source = source
        stack = self._stack
        self._value(content, None, None, None, 0)
        while stack:
            is_mapping, pairs, siblings, path, currency, decodes = stack[-1]
            if is_mapping:
                finished = self._mapping(pairs, siblings, path, currency, decodes)
            else:
                finished = self._sequence(pairs, siblings, path, currency, decodes)
            if finished and stack:  # a cut walk has emptied the stack already
                stack.pop()

    def _cut(self) -> None:
        """The byte budget is spent and more content was waiting: stop the whole walk."""
        self.reasons.add("max_evidence_bytes")
        self._stack.clear()

    def _take(self, text: str) -> str:
        """Charge ``text`` to the budget; return the part that fits."""
        size = _byte_size(text)
        if size <= self.remaining:
            self.remaining -= size
            return text
        self.reasons.add("max_evidence_bytes")
        keep = self.remaining
        self.remaining = 0
        if text.isascii():
            return text[:keep]
        return text.encode("utf-8", "surrogatepass")[:keep].decode("utf-8", "ignore")

    def _value(
        self, value: Any, path: Path, siblings: Mapping[Any, Any] | None, currency: str | None, decodes: int
    ) -> None:
        """Read one value; a container is pushed on the stack and read by ``walk``."""
        if self.remaining <= 0:
            self._cut()
            return
        kind = type(value)
        if kind is str:
            self._string(value, path, siblings, currency, decodes)
        elif kind is int or kind is float:
            self._number(value, path, siblings, currency)
        elif value is None or kind is bool:
            self.remaining -= _EMPTY_COST
        elif kind is dict or kind is list or isinstance(value, Mapping | list | tuple):
            if len(self._stack) >= MAX_DEPTH:
                self.reasons.add("max_depth")
                return
            remaining = self.remaining
            self.remaining = remaining - _CONTAINER_COST if remaining > _CONTAINER_COST else 0
            if kind is dict or isinstance(value, Mapping):  # a plain dict skips the ABC check
                own = None if _CURRENCY_KEY_SET.isdisjoint(value) else sibling_currency(value)
                self._stack.append((True, iter(value.items()), value, path, own, decodes))
            else:
                if value and type(value[0]) in (list, dict):
                    self.arrays.append((self.source, path, value, siblings))
                self._stack.append((False, enumerate(value), siblings, path, currency, decodes))
        elif isinstance(value, str):
            self._string(str(value), path, siblings, currency, decodes)
        elif _finite_number(value) is not None:
            self._number(value, path, siblings, currency)
        elif isinstance(value, datetime.date | datetime.time):
            self._text(value.isoformat(), path, siblings)
        else:
            try:
                text = str(value)
            except Exception:  # an arbitrary object's __str__ must not break scoring
                return
            self._text(text, path, siblings)

    def _sequence(
        self,
        pairs: Iterator[tuple[Any, Any]],
        siblings: Mapping[Any, Any] | None,
        path: Path,
        currency: str | None,
        decodes: int,
    ) -> bool:
        """Read a list's items until one holds a container (pushed: False) or none is left (True)."""
        stack = self._stack
        depth = len(stack)
        for position, child in pairs:
            if type(child) is dict and depth < MAX_DEPTH:
                # A record of a list of records is read here, and its frame pushed only if it holds
                # a container in turn: ``_mapping`` never reads a container itself, so the
                # interpreter's stack stays this shallow at any depth.
                if self.remaining <= 0:
                    self._cut()
                    return True
                self.remaining -= min(self.remaining, _CONTAINER_COST)
                own = None if _CURRENCY_KEY_SET.isdisjoint(child) else sibling_currency(child)
                items = iter(child.items())
                child_path = (path, position)
                if not self._mapping(items, child, child_path, own, decodes):
                    stack.insert(-1, (True, items, child, child_path, own, decodes))  # under its child
                    return False
                continue
            self._value(child, (path, position), siblings, currency, decodes)
            if len(stack) != depth:
                return not stack  # a container was pushed, or the walk was cut
        return True

    def _mapping(
        self,
        pairs: Iterator[tuple[Any, Any]],
        mapping: Mapping[Any, Any] | None,
        path: Path,
        currency: str | None,
        decodes: int,
    ) -> bool:
        """Read a mapping's keys and values until a value is a container (pushed: False) or none is
        left (True)."""
        short = self._short
        values, rows, source, fragments = self.values, self.rows, self.source, self.fragments
        every_string = self.every_string
        stack = self._stack
        depth = len(stack)
        # The budget lives in a local on this hot loop and is handed back around every call out.
        remaining = self.remaining
        for key, child in pairs:
            key_text = key if type(key) is str else _key_text(key)
            child_path = (path, key_text)
            # Records repeat their keys: size and atom test are worked out once per distinct key.
            known = short.get(key_text)
            if known is None and len(key_text) <= _SHORT:
                known = short[key_text] = _classify_short(key_text)
            if known is None or known[0] >= remaining:
                self.remaining = remaining
                self._text(key_text, child_path, mapping)
                remaining = self.remaining
                if remaining <= 0:
                    self._cut()
                    return True
            else:
                remaining -= known[0]
                if known[1] or every_string:
                    fragments.append(Fragment(source, child_path, key_text, mapping))
            kind = type(child)
            # Leaves are handled here rather than through _value: number-dense payloads are mostly leaves.
            if kind is float or kind is int:
                if kind is float:
                    if child - child != 0.0:  # inf or nan
                        continue
                    values.append(child)
                elif -_LARGEST_INT < child < _LARGEST_INT:
                    values.append(float(child))
                else:
                    continue
                rows.append((source, child_path, child, currency, mapping, None, None))
                remaining = remaining - _NUMBER_COST if remaining > _NUMBER_COST else 0
            elif kind is str:
                # The short-string path of _string, inlined: a record's strings are mostly short
                # repeated codes, dates and amounts, classified once.
                known = short.get(child)
                if known is None or known[3] or known[0] >= remaining:
                    self.remaining = remaining
                    self._string(child, child_path, mapping, currency, decodes)
                    if len(stack) != depth:
                        return not stack  # a JSON document was pushed, or the walk was cut
                    remaining = self.remaining
                    continue
                remaining -= known[0]
                if known[2] is not None:
                    values.append(known[2])
                    rows.append((source, child_path, child.strip(), currency, mapping, None, None))
                elif known[1] or every_string:
                    fragments.append(Fragment(source, child_path, child, mapping))
            elif child is not None and kind is not bool:
                self.remaining = remaining
                self._value(child, child_path, mapping, currency, decodes)
                if len(stack) != depth:
                    return not stack  # a child container was pushed, or the walk was cut
                remaining = self.remaining
        self.remaining = remaining
        return True

    def _number(
        self, value: Any, path: Path, siblings: Mapping[Any, Any] | None, currency: str | None
    ) -> None:
        kind = type(value)
        if kind is float:
            number: float | None = value if math.isfinite(value) else None
        elif kind is int:
            number = float(value) if -_LARGEST_INT < value < _LARGEST_INT else None
        else:
            number = _finite_number(value)
        if number is None:
            return
        self.remaining -= min(self.remaining, _NUMBER_COST)
        literal = value if kind is int or kind is float else str(value)
        self._scalar(number, (self.source, path, literal, currency, siblings, None, None))

    def _scalar(self, value: float, row: ScalarRow) -> None:
        self.values.append(value)
        self.rows.append(row)

    def _string(
        self,
        text: str,
        path: Path,
        siblings: Mapping[Any, Any] | None,
        currency: str | None,
        decodes: int,
    ) -> None:
        if len(text) <= _SHORT:
            # Short values (codes, dates, amounts, labels) repeat across records: classify once.
            known = self._short.get(text)
            if known is None:
                known = self._short[text] = _classify_short(text)
            size, holds_atom, number, json_like = known
            if size < self.remaining and not json_like:
                self.remaining -= size
                if number is not None:
                    self._scalar(number, (self.source, path, text.strip(), currency, siblings, None, None))
                elif holds_atom or self.every_string:
                    self.fragments.append(Fragment(self.source, path, text, siblings))
                return
        if text[:64].lstrip()[:1] in ("{", "["):
            if self._document(text, path, siblings, currency, decodes):
                return
            kept = self._text(text, path, siblings)
            self._keyed_numbers(kept, path)
            return
        if len(text) <= _SHORT and _PLAIN_NUMBER.fullmatch(stripped := text.strip()):
            self._take(stripped)
            self._scalar(float(stripped), (self.source, path, stripped, currency, siblings, None, None))
            return
        self._text(text, path, siblings)

    def _document(
        self, text: str, path: Path, siblings: Mapping[Any, Any] | None, currency: str | None, decodes: int
    ) -> bool:
        """Parse a JSON-looking string and push its container; False (reason noted) to read it as text."""
        if decodes >= _MAX_JSON_DECODES:
            self.reasons.add("json_too_deep")
            return False
        if _byte_size(text) > self.remaining:
            return False  # read as text: the byte cap cuts it there (and names the reason)
        try:
            parsed = json.loads(text)
        except RecursionError:  # deeper than the C parser recurses: ~1,000 levels
            self.reasons.add("json_too_deep")
            return False
        except ValueError:
            self.reasons.add("unparseable_json")
            return False
        self._value(parsed, path, siblings, currency, decodes + 1)
        return True

    def _text(self, text: str, path: Path, siblings: Mapping[Any, Any] | None) -> str:
        kept = self._take(text)
        if self.every_string or _MAY_HOLD_ATOM.search(kept):
            self.fragments.append(Fragment(self.source, path, kept, siblings))
        return kept

    def _keyed_numbers(self, text: str, path: Path) -> None:
        for match in _KEYED_NUMBER.finditer(text):
            group = 2 if match.group(2) else 3
            number = _finite_number(float(match.group(group)))
            if number is not None:
                key_path = ((path, SOMEWHERE), match.group(1))
                literal = match.group(group)
                start, end = match.span(group)
                self._scalar(number, (self.source, key_path, literal, None, None, start, end))
