"""Conversion between OTLP ``AnyValue``/``KeyValue`` protobuf messages and plain Python values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue


def from_any_value(value: AnyValue) -> Any:
    """The Python value of an ``AnyValue``: str, bool, int, float, bytes, tuple, dict or None.

    Arrays become tuples, as the OpenTelemetry SDK stores sequence attributes.
    """
    which = value.WhichOneof("value")
    if which == "string_value":
        return value.string_value
    if which == "bool_value":
        return value.bool_value
    if which == "int_value":
        return value.int_value
    if which == "double_value":
        return value.double_value
    if which == "array_value":
        return tuple(from_any_value(item) for item in value.array_value.values)
    if which == "kvlist_value":
        return attributes_from_key_values(value.kvlist_value.values)
    if which == "bytes_value":
        return value.bytes_value
    return None


def attributes_from_key_values(items: Iterable[KeyValue]) -> dict[str, Any]:
    """A dict from repeated ``KeyValue`` (a later duplicate key wins, as in the SDK)."""
    return {item.key: from_any_value(item.value) for item in items}


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
