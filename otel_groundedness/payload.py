"""Iterative measures of input payloads (decoded JSON, attribute values): byte size and fingerprint.

Input can nest arbitrarily deep (a tool result of 5,000 nested arrays decodes fine), so nothing
here recurses: both walks keep an explicit stack, and each visits a container once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

# Charged per scalar that is not text (int, float, bool, None): a pointer and a small object.
SCALAR_BYTES = 8
DIGEST_BYTES = 16
_CONTAINERS = frozenset({dict, list, tuple})
_SCALARS = frozenset({int, float, bool, type(None)})


def estimate_bytes(value: Any) -> int:
    """Approximate bytes held by ``value``: text lengths plus a fixed charge per other scalar."""
    kind = type(value)
    if kind is str or kind is bytes:  # most values measured are one text
        return len(value)
    if kind not in _CONTAINERS:
        return _walk([value], set())
    # Most containers measured hold only texts and scalars (attributes, a message body): the walk
    # (a stack, a set of those seen) is set up only for what nests.
    stack: list[Any] = []
    total = _container(value, kind is dict, stack)
    return total + _walk(stack, {id(value)}) if stack else total


def _walk(stack: list[Any], seen: set[int]) -> int:
    """The bytes of everything on ``stack`` and below it, each container counted once."""
    total = 0
    while stack:
        item = stack.pop()
        kind = type(item)  # exact types first: an ABC ``isinstance`` costs several times more
        if kind is str or kind is bytes:
            total += len(item)
        elif kind in _SCALARS:  # before the ABC test below, which a scalar would only fail
            total += SCALAR_BYTES
        elif kind not in _CONTAINERS and isinstance(item, str | bytes):
            total += len(item)
        elif kind in _CONTAINERS or isinstance(item, Mapping | list | tuple):
            if id(item) in seen:
                continue
            seen.add(id(item))
            mapping = kind is dict or (kind not in _CONTAINERS and isinstance(item, Mapping))
            total += _container(item, mapping, stack)
        else:
            total += SCALAR_BYTES
    return total


def _container(item: Any, mapping: bool, stack: list[Any]) -> int:
    """A container's own charge and its leaves' bytes; its nested containers go on ``stack``."""
    if mapping:
        return SCALAR_BYTES + _leaves(item.keys(), stack) + _leaves(item.values(), stack)
    return SCALAR_BYTES + _leaves(item, stack)


def _leaves(children: Iterable[Any], stack: list[Any]) -> int:
    """The bytes of the exact-type text and scalar ``children``; the others go on ``stack`` (most
    children of a JSON document are leaves: summed here, they skip a push and a pop each)."""
    total = 0
    for child in children:
        kind = type(child)
        if kind is str or kind is bytes:
            total += len(child)
        elif kind in _SCALARS:
            total += SCALAR_BYTES
        else:
            stack.append(child)
    return total


def fingerprint(value: Any) -> bytes:
    """A 16-byte digest of ``value``'s content, equal for equal JSON-like values."""
    digest = hashlib.blake2b(digest_size=DIGEST_BYTES)
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            encoded = item.encode("utf-8", "surrogatepass")
            digest.update(b"s%d:" % len(encoded))
            digest.update(encoded)
        elif isinstance(item, bytes):
            digest.update(b"b%d:" % len(item))
            digest.update(item)
        elif isinstance(item, Mapping):
            digest.update(b"{%d" % len(item))
            # Reversed so the walk visits entries in document order; keys and values alternate.
            for key, child in reversed(list(item.items())):
                stack.append(child)
                stack.append(key)
        elif isinstance(item, list | tuple):
            digest.update(b"[%d" % len(item))
            stack.extend(reversed(item))
        else:
            digest.update(_scalar_token(item))
    return digest.digest()


def _scalar_token(item: Any) -> bytes:
    if item is None or isinstance(item, bool):
        return b"k%r;" % item
    if isinstance(item, int):
        return b"i%s;" % hex(item).encode()  # hex: decimal str() refuses ints over 4,300 digits
    if isinstance(item, float):
        return b"f%s;" % item.hex().encode()
    try:
        return f"o{type(item).__qualname__}:{item!r};".encode("utf-8", "surrogatepass")
    except Exception:  # a foreign object whose repr fails: never equal to another one
        return b"o%d;" % id(item)


def text_fingerprint(text: str) -> bytes:
    """A 16-byte digest of ``text`` with runs of whitespace folded (the same answer reformatted)."""
    folded = " ".join(text.split()).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(folded, digest_size=DIGEST_BYTES).digest()
