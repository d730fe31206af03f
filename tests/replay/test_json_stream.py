"""``json_stream`` walks a JSON document piece by piece: paths, byte offsets, values, errors, memory."""

from __future__ import annotations

import io
import json
import tracemalloc
from typing import Any

import pytest

from otel_groundedness.replay.json_stream import JsonStreamError, iter_items


def _items(document: bytes, **options: Any) -> list[tuple[tuple[str | int, ...], Any, bytes]]:
    return [
        (item.path, item.value, document[item.start : item.end])
        for item in iter_items(io.BytesIO(document), **options)
    ]


def test_objects_are_walked_and_array_items_come_whole_with_their_bytes() -> None:
    document = json.dumps(
        {"version": 2, "head": {"name": "x", "flags": {"a": True}}, "list": [{"k": [1, 2]}, 3], "empty": []},
        indent=2,
    ).encode()
    assert _items(document) == [
        (("version",), 2, b"2"),
        (("head", "name"), "x", b'"x"'),
        (("head", "flags", "a"), True, b"true"),
        (("list", 0), {"k": [1, 2]}, b'{\n      "k": [\n        1,\n        2\n      ]\n    }'),
        (("list", 1), 3, b"3"),
    ]


def test_offsets_are_bytes_and_raw_values_decode_as_utf8() -> None:
    document = '{"a": "Grüße €", "b": ["ß", 12345678901234567890]}'.encode()
    items = _items(document, chunk_bytes=3)  # chunks cut inside multi-byte characters and numbers
    assert [(path, json.loads(raw)) for path, _, raw in items] == [
        (("a",), "Grüße €"),
        (("b", 0), "ß"),
        (("b", 1), 12345678901234567890),
    ]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (b"", "ends early"),
        (b"[1, 2", "ends early"),
        (b'{"a": 1} {"b": 2}', "unexpected data"),
        (b'{"a" 1}', "expected ':'"),
        (b'{"a": 1,}', "expected a key"),
        (b'{"a": [1 2]}', "expected ',' or ']'"),
        (b'{"a": tru}', "not JSON"),
        (b'{"a": "\xff"}', "not UTF-8"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_malformed_documents_name_what_is_wrong(document: bytes, message: str) -> None:
    with pytest.raises(JsonStreamError, match=message):
        list(iter_items(io.BytesIO(document)))


def test_an_item_larger_than_the_limit_is_refused() -> None:
    document = json.dumps({"list": ["x" * 5000]}).encode()
    with pytest.raises(JsonStreamError, match="larger than 4096 bytes"):
        list(iter_items(io.BytesIO(document), max_item_bytes=4096, chunk_bytes=512))


def test_memory_is_bounded_by_the_largest_item_not_the_document() -> None:
    item = {"answer": "x" * 2000, "report": {"atoms": list(range(50))}}
    document = json.dumps({"head": {"n": 1}, "turns": [item] * 5000}, indent=2).encode()
    assert len(document) > 10_000_000
    stream = io.BytesIO(document)
    tracemalloc.start()
    try:
        count = sum(1 for item in iter_items(stream) if item.path[0] == "turns")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 5000
    assert peak < 1_000_000
