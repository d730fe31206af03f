"""``estimate_bytes``: text lengths plus a fixed charge per other scalar and per container, each
container counted once, whatever the value's exact types (subclasses take the slower checks)."""

from __future__ import annotations

from collections import OrderedDict
from types import MappingProxyType

from otel_groundedness.payload import SCALAR_BYTES, estimate_bytes


class _Text(str):
    pass


class _Items(list[object]):
    pass


def test_scalars_are_charged_a_fixed_amount_and_text_its_length() -> None:
    assert estimate_bytes("hello") == 5
    assert estimate_bytes(b"hi") == 2
    assert estimate_bytes(_Text("abc")) == 3
    for scalar in (None, True, 7, 2.5, 10**40):
        assert estimate_bytes(scalar) == SCALAR_BYTES


def test_containers_are_charged_once_plus_their_contents() -> None:
    assert estimate_bytes(("ab", None, 3)) == SCALAR_BYTES + 2 + SCALAR_BYTES + SCALAR_BYTES
    assert estimate_bytes({"key": [1, "xyz"]}) == 2 * SCALAR_BYTES + 3 + SCALAR_BYTES + 3
    assert estimate_bytes(_Items(["a", None])) == SCALAR_BYTES + 1 + SCALAR_BYTES
    mapping = MappingProxyType(OrderedDict(k="v"))
    assert estimate_bytes(mapping) == SCALAR_BYTES + 1 + 1
    shared = ["abcd"]
    assert estimate_bytes([shared, shared]) == SCALAR_BYTES + SCALAR_BYTES + 4


def test_nested_documents_count_every_leaf_and_each_container_once() -> None:
    loop: list[object] = ["ab"]
    loop.append(loop)
    assert estimate_bytes(loop) == SCALAR_BYTES + 2
    own: dict[str, object] = {"x": "ab"}
    own["self"] = own
    assert estimate_bytes(own) == SCALAR_BYTES + 1 + 2 + 4
    inner = {"k": b"xyz"}
    document = {"a": [inner, inner, (None, 1.5, "cd")], "b": _Text("efg"), "c": inner}
    # Containers: document, list, inner (once), tuple; keys a, b, c, k; leaves xyz, None, 1.5, cd, efg.
    assert estimate_bytes(document) == 4 * SCALAR_BYTES + 3 + 1 + 3 + 2 * SCALAR_BYTES + 2 + 3
