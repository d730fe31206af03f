"""Protobuf's wire format, for joining messages already encoded: a message's encoding is its fields'
encodings one after another, and an embedded or repeated message field is its tag, its length and
the embedded message's bytes. The gateway assembles export requests from spans it keeps encoded this
way, without parsing them into a request and encoding the request again."""

from __future__ import annotations

_LENGTH_DELIMITED = 2


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
