"""Protobuf's wire format, for joining messages already encoded: a message's encoding is its fields'
encodings one after another, and an embedded or repeated message field is its tag, its length and
the embedded message's bytes. The gateway assembles export requests from spans it keeps encoded this
way, without parsing them into a request and encoding the request again, and writes evaluation
attributes as encoded ``KeyValue``s merged into the message (a message field set from Python costs
several times more than the same bytes parsed in C).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from opentelemetry.proto.common.v1.common_pb2 import KeyValue

from otel_groundedness.otlp.values import set_any_value

_LENGTH_DELIMITED = 2
_INT64 = 1 << 63
# ``AnyValue`` fields: string, bool, int, double; ``KeyValue``: key, value.
_STRING, _BOOL, _INT, _DOUBLE = b"\x0a", b"\x10", b"\x18", b"\x21"
_KEY, _VALUE = b"\x0a", b"\x12"
# Export requests, traces and logs alike: a request is resource blocks (field 1); a block is its
# resource (1), scope blocks (2) and schema URL (3); a scope block is its scope (1), its spans or log
# records (2) and schema URL (3).
_FIRST, _SECOND, _SCHEMA_URL = 1, 2, 3
_FIRST_TAG, _SECOND_TAG = b"\x0a", b"\x12"
# (encoded scope or None for none, its schema URL, the encoded spans or log records)
ScopeBlock = tuple[bytes | None, str, Sequence[bytes]]
# (encoded resource or None for none, its schema URL, its scope blocks)
ResourceBlock = tuple[bytes | None, str, Sequence[ScopeBlock]]
# Encoded attributes by (key, type, value): evaluations repeat most of theirs (provenance, labels,
# counts, flags). Cleared when full, so it stays bounded whatever the values.
_ENCODED: dict[tuple[str, type, Any], bytes] = {}
_MAX_ENCODED = 4096


def length_delimited(number: int, payload: bytes) -> bytes:
    """Field ``number`` holding ``payload`` (an embedded message, a string's UTF-8 or bytes)."""
    return varint(number << 3 | _LENGTH_DELIMITED) + varint(len(payload)) + payload


def varint(value: int) -> bytes:
    """A non-negative integer as a base-128 varint."""
    if value < 0x80:
        return bytes((value,))
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def export_request(blocks: Iterable[ResourceBlock]) -> bytes:
    """An encoded traces or logs export request holding encoded spans or log records under their
    encoded resources and scopes, as protobuf encodes the request built of them: fields in number
    order, an empty schema URL left out. Each item is copied once, into the joined request."""
    pieces: list[bytes] = []
    for resource, schema_url, scopes in blocks:
        block = _present(_FIRST, resource)
        for scope, scope_schema_url, items in scopes:
            scope_block = _present(_FIRST, scope)
            for item in items:
                scope_block += (_SECOND_TAG + varint(len(item)), item)
            scope_block += _schema_url(scope_schema_url)
            block += (_SECOND_TAG + varint(_size(scope_block)), *scope_block)
        block += _schema_url(schema_url)
        pieces += (_FIRST_TAG + varint(_size(block)), *block)
    return b"".join(pieces)


def _present(number: int, message: bytes | None) -> list[bytes]:
    return [] if message is None else [length_delimited(number, message)]


def _schema_url(url: str) -> list[bytes]:
    return [length_delimited(_SCHEMA_URL, url.encode())] if url else []


def _size(pieces: list[bytes]) -> int:
    return sum(map(len, pieces))


def key_values_field(number: int, attributes: Mapping[str, Any]) -> bytes:
    """The repeated ``KeyValue`` field ``number`` holding ``attributes`` in the mapping's order, as
    ``values.add_key_values`` writes them: merged into a message, it appends them."""
    return repeated_field(number, key_values(attributes))


def key_values(attributes: Mapping[str, Any]) -> list[bytes]:
    """Each attribute as an encoded ``KeyValue`` with its length before it, in the mapping's order:
    ``repeated_field`` makes them a field of any message (attributes written twice, encoded once)."""
    return [_key_value(key, value) for key, value in attributes.items()]


def repeated_field(number: int, items: Sequence[bytes]) -> bytes:
    """The repeated message field ``number`` holding ``items``, each its length and encoding."""
    if not items:
        return b""
    tag = varint(number << 3 | _LENGTH_DELIMITED)
    return tag + tag.join(items)


def _key_value(key: str, value: Any) -> bytes:
    """A ``KeyValue``'s length and encoding."""
    kind = type(value)
    # Not -0.0, equal to 0.0 as a dict key but encoded apart.
    cached = kind is str or kind is bool or kind is int or (kind is float and value != 0.0)
    if cached:
        encoded = _ENCODED.get((key, kind, value))
        if encoded is not None:
            return encoded
    any_value = _scalar(value, kind)
    if any_value is None:  # anything else (sequences, maps, None, bytes...) is written by protobuf
        item = KeyValue(key=str(key))
        set_any_value(item.value, value)
        message: bytes = item.SerializeToString()
    else:
        name = str(key).encode()
        message = _KEY + varint(len(name)) + name + _VALUE + varint(len(any_value)) + any_value
    encoded = varint(len(message)) + message
    if cached:
        if len(_ENCODED) >= _MAX_ENCODED:
            _ENCODED.clear()
        _ENCODED[(key, kind, value)] = encoded
    return encoded


def _scalar(value: Any, kind: type) -> bytes | None:
    """An ``AnyValue`` holding a str, bool, int (int64) or float; None for any other value."""
    if kind is str:
        text: bytes = value.encode()
        return _STRING + varint(len(text)) + text
    if kind is bool:
        return _BOOL + (b"\x01" if value else b"\x00")
    if kind is int and -_INT64 <= value < _INT64:
        return _INT + varint(value % (1 << 64))  # two's complement, as protobuf encodes an int64
    if kind is float:
        return _DOUBLE + struct.pack("<d", value)
    return None
