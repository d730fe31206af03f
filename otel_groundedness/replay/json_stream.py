"""A large JSON document read piece by piece: objects key by key, arrays item by item.

A replay report holds one entry per turn, and a baseline of a million turns must not be decoded whole.
``iter_items`` walks objects and streams arrays, decoding each array item and each scalar on its own,
so memory is bounded by the largest item, not the document. The walk decodes the bytes as Latin-1 (one
character per byte, so positions are byte offsets); a value that holds non-ASCII text reads right only
when its bytes are decoded again as UTF-8 (``json.loads(raw)``). The whole input is checked to be UTF-8.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

Path = tuple[str | int, ...]

_CHUNK_BYTES = 1 << 16
MAX_ITEM_BYTES = 64 * 1024 * 1024
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class JsonStreamError(ValueError):
    """The input is not one well-formed JSON document (the message names the byte offset)."""


@dataclass(frozen=True, slots=True)
class Item:
    """An array item or a scalar: where it sits, its value (read as Latin-1) and its bytes' offsets."""

    path: Path
    value: Any
    start: int
    end: int


def iter_items(
    stream: BinaryIO, *, max_item_bytes: int = MAX_ITEM_BYTES, chunk_bytes: int = _CHUNK_BYTES
) -> Iterator[Item]:
    """Every array item and every scalar outside arrays of the document in ``stream``, in order."""
    text = _Text(stream, chunk_bytes, max_item_bytes)
    try:
        yield from _walk(text, ())
    except RecursionError:
        raise text.error("nested too deeply") from None
    if text.peek():
        raise text.error("unexpected data after the document")


def _walk(text: _Text, path: Path) -> Iterator[Item]:
    first = text.peek()
    if first == "{":
        text.pos += 1
        if text.take("}"):
            return
        while True:
            if text.peek() != '"':
                raise text.error("expected a key")
            key = text.value().value
            if not text.take(":"):
                raise text.error("expected ':'")
            yield from _walk(text, (*path, key))
            if text.take("}"):
                return
            if not text.take(","):
                raise text.error("expected ',' or '}'")
    elif first == "[":
        text.pos += 1
        if text.take("]"):
            return
        index = 0
        while True:
            yield text.value((*path, index))
            index += 1
            if text.take("]"):
                return
            if not text.take(","):
                raise text.error("expected ',' or ']'")
    else:
        yield text.value(path)


class _Text:
    """The part of the input not walked yet, refilled as the walk needs it."""

    def __init__(self, stream: BinaryIO, chunk_bytes: int, max_item_bytes: int) -> None:
        self._stream = stream
        self._chunk_bytes = chunk_bytes
        self._max_item_bytes = max_item_bytes
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._eof = False
        self.buffer = ""
        self.base = 0  # input offset of buffer[0]
        self.pos = 0

    def peek(self) -> str:
        """The next character that is not whitespace, ``""`` at the end of the input."""
        while True:
            self.pos = _WHITESPACE.match(self.buffer, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buffer):
                return self.buffer[self.pos]
            if not self._fill(self._chunk_bytes):
                return ""

    def take(self, char: str) -> bool:
        if self.peek() != char:
            return False
        self.pos += 1
        return True

    def value(self, path: Path = ()) -> Item:
        """The JSON value at the current position, decoded whole."""
        if not self.peek():
            raise self.error("expected a value")
        while True:
            pending = len(self.buffer) - self.pos
            try:
                value, end = _DECODER.raw_decode(self.buffer, self.pos)
            except json.JSONDecodeError as error:
                if pending >= self._max_item_bytes:
                    raise self._too_large() from None
                # Most likely cut by the end of the buffer: read as much again and retry.
                if self._fill(max(pending, self._chunk_bytes)):
                    continue
                raise self.error(f"not JSON ({error.msg})") from None
            # A number or literal ending with the buffer may go on in the next chunk.
            if end == len(self.buffer) and self._fill(self._chunk_bytes):
                continue
            if end - self.pos > self._max_item_bytes:
                raise self._too_large()
            item = Item(path, value, self.base + self.pos, self.base + end)
            self.pos = end
            return item

    def error(self, reason: str) -> JsonStreamError:
        """``reason`` at the current position; at the end of the input, that it ends early."""
        if not self.peek():
            reason = "the document ends early"
        return JsonStreamError(f"byte {self.base + self.pos}: {reason}")

    def _too_large(self) -> JsonStreamError:
        return self.error(f"a value larger than {self._max_item_bytes} bytes")

    def _fill(self, size: int) -> bool:
        if self._eof:
            return False
        chunk = self._stream.read(size)
        try:
            self._utf8.decode(chunk, final=not chunk)
        except UnicodeDecodeError as error:
            offset = self.base + len(self.buffer) + error.start
            raise JsonStreamError(f"byte {offset}: not UTF-8") from None
        if not chunk:
            self._eof = True
            return False
        self.base += self.pos
        self.buffer = self.buffer[self.pos :] + chunk.decode("latin-1")
        self.pos = 0
        return True
