"""Conversion between OTLP ``AnyValue``/``KeyValue`` protobuf messages and plain Python values.

Python values are written into the target message in place: building a message and copying it into
its parent costs twice as much, and the gateway writes every evaluation this way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

# Arrays and kvlists nested deeper than this are cut: conversion follows the input's structure, so
# its depth must not be the input's to choose. Real GenAI bodies nest a handful of levels; 24 kvlist
# levels inside a span event stay under protobuf's own limit of 100 nested messages.
MAX_VALUE_DEPTH = 24
CUT_VALUE = f"[cut: nested deeper than {MAX_VALUE_DEPTH} levels]"
_SCALAR_FIELDS = frozenset({"string_value", "bool_value", "int_value", "double_value", "bytes_value"})
# The ``AnyValue`` field of each scalar type; bool is its own type here, not an int.
_FIELD_OF_TYPE: dict[type, str] = {
    str: "string_value", bool: "bool_value", int: "int_value", float: "double_value", bytes: "bytes_value"
}  # fmt: skip


class ValueReader:
    """Reads ``AnyValue``/``KeyValue`` messages into Python values, counting the values it cuts.

    Arrays become tuples, as the OpenTelemetry SDK stores sequence attributes; an array or kvlist
    nested deeper than ``MAX_VALUE_DEPTH`` becomes ``CUT_VALUE`` and adds one to ``cut``.
    """

    def __init__(self) -> None:
        self.cut = 0

    def value(self, value: AnyValue, depth: int = 0) -> Any:
        """The Python value of an ``AnyValue``: str, bool, int, float, bytes, tuple, dict or None."""
        text = value.string_value  # most values: a non-empty string is the set member of the oneof
        return text if text else self._other(value, value.WhichOneof("value"), depth)

    def attributes(self, items: Iterable[KeyValue], depth: int = 0) -> dict[str, Any]:
        """A dict from repeated ``KeyValue`` (a later duplicate key wins, as in the SDK)."""
        result: dict[str, Any] = {}
        for item in items:  # ``value`` inlined: the gateway reads every attribute here
            value = item.value
            text = value.string_value
            result[item.key] = text if text else self._other(value, value.WhichOneof("value"), depth)
        return result

    def _other(self, value: AnyValue, which: str | None, depth: int) -> Any:
        if which in _SCALAR_FIELDS:
            return getattr(value, which)
        if which is None:
            return None
        if depth >= MAX_VALUE_DEPTH:
            self.cut += 1
            return CUT_VALUE
        if which == "array_value":
            return tuple([self.value(item, depth + 1) for item in value.array_value.values])
        return self.attributes(value.kvlist_value.values, depth + 1)


def set_any_value(target: AnyValue, value: Any) -> None:
    """Set an empty ``target`` to hold ``value``, in place: no message is built and copied."""
    field = _FIELD_OF_TYPE.get(type(value))
    if field is not None:  # the common case: one exact type lookup
        setattr(target, field, value)
    elif value is None:
        target.SetInParent()  # present and empty, as an ``AnyValue()`` assigned would be
    elif isinstance(value, str):
        target.string_value = value
    elif isinstance(value, bool):  # before int: bool is an int subclass
        target.bool_value = value
    elif isinstance(value, int):
        target.int_value = value
    elif isinstance(value, float):
        target.double_value = value
    elif isinstance(value, bytes):
        target.bytes_value = value
    elif isinstance(value, Mapping):
        add_key_values(target.kvlist_value.values, value)
    elif isinstance(value, Iterable):
        values = target.array_value.values
        for item in value:
            set_any_value(values.add(), item)
    else:
        target.string_value = str(value)


def add_key_values(target: Any, attributes: Mapping[str, Any]) -> None:
    """Append a ``KeyValue`` per attribute to the repeated field ``target``, in the mapping's order."""
    for key, value in attributes.items():
        item = target.add()
        item.key = str(key)
        set_any_value(item.value, value)
