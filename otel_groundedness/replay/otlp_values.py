"""Conversion between OTLP ``AnyValue``/``KeyValue`` protobuf messages and plain Python values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

# Arrays and kvlists nested deeper than this are cut: conversion follows the input's structure, so
# its depth must not be the input's to choose. Real GenAI bodies nest a handful of levels; 24 kvlist
# levels inside a span event stay under protobuf's own limit of 100 nested messages.
MAX_VALUE_DEPTH = 24
CUT_VALUE = f"[cut: nested deeper than {MAX_VALUE_DEPTH} levels]"


class ValueReader:
    """Reads ``AnyValue``/``KeyValue`` messages into Python values, counting the values it cuts.

    Arrays become tuples, as the OpenTelemetry SDK stores sequence attributes; an array or kvlist
    nested deeper than ``MAX_VALUE_DEPTH`` becomes ``CUT_VALUE`` and adds one to ``cut``.
    """

    def __init__(self) -> None:
        self.cut = 0

    def value(self, value: AnyValue, depth: int = 0) -> Any:
        """The Python value of an ``AnyValue``: str, bool, int, float, bytes, tuple, dict or None."""
        which = value.WhichOneof("value")
        if which == "string_value":
            return value.string_value
        if which == "bool_value":
            return value.bool_value
        if which == "int_value":
            return value.int_value
        if which == "double_value":
            return value.double_value
        if which == "bytes_value":
            return value.bytes_value
        if which not in ("array_value", "kvlist_value"):
            return None
        if depth >= MAX_VALUE_DEPTH:
            self.cut += 1
            return CUT_VALUE
        if which == "array_value":
            return tuple(self.value(item, depth + 1) for item in value.array_value.values)
        return self.attributes(value.kvlist_value.values, depth + 1)

    def attributes(self, items: Iterable[KeyValue], depth: int = 0) -> dict[str, Any]:
        """A dict from repeated ``KeyValue`` (a later duplicate key wins, as in the SDK)."""
        return {item.key: self.value(item.value, depth) for item in items}


def to_any_value(value: Any) -> AnyValue:
    """An ``AnyValue`` holding ``value`` (mappings become kvlists, other iterables arrays)."""
    result = AnyValue()
    if value is None:
        return result
    if isinstance(value, str):
        result.string_value = value
    elif isinstance(value, bool):  # before int: bool is an int subclass
        result.bool_value = value
    elif isinstance(value, int):
        result.int_value = value
    elif isinstance(value, float):
        result.double_value = value
    elif isinstance(value, bytes):
        result.bytes_value = value
    elif isinstance(value, Mapping):
        result.kvlist_value.values.extend(to_key_values(value))
    elif isinstance(value, Iterable):
        result.array_value.values.extend(to_any_value(item) for item in value)
    else:
        result.string_value = str(value)
    return result


def to_key_values(attributes: Mapping[str, Any]) -> list[KeyValue]:
    """Repeated ``KeyValue`` for an attribute mapping, in its order."""
    return [KeyValue(key=str(key), value=to_any_value(value)) for key, value in attributes.items()]
