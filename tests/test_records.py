"""The records' quick ``__init__`` (``records._quick_init``) takes what a dataclass's takes and builds
the same frozen record: same parameters, defaults and factories, still immutable."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from otel_groundedness import records

RECORDS = [
    records.SpanEventRecord,
    records.SpanRecord,
    records.LogEventRecord,
    records.TurnContext,
    records.SpanFacts,
    records.LogFacts,
    records.Turn,
]


def reference(cls: type) -> type:
    """The same fields as a plain frozen, slotted dataclass: its generated ``__init__``."""
    fields = [
        (item.name, item.type, dataclasses.field(default=item.default, default_factory=item.default_factory))
        for item in dataclasses.fields(cls)
    ]
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True, slots=True)


def parameters(cls: type) -> list[tuple[str, Any, str]]:
    return [
        (name, parameter.kind, repr(parameter.default))
        for name, parameter in inspect.signature(cls).parameters.items()
    ]


def values(record: Any) -> tuple[Any, ...]:
    return tuple(getattr(record, item.name) for item in dataclasses.fields(record))


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__name__)
def test_the_quick_init_builds_what_the_dataclass_init_builds(cls: type) -> None:
    plain = reference(cls)
    fields = dataclasses.fields(cls)
    given = {item.name: f"value of {item.name}" for item in fields}
    required = {
        item.name: given[item.name]
        for item in fields
        if item.default is dataclasses.MISSING and item.default_factory is dataclasses.MISSING
    }
    assert parameters(cls) == parameters(plain)
    assert values(cls(*given.values())) == values(plain(*given.values()))
    assert values(cls(**given)) == values(plain(**given))
    assert values(cls(**required)) == values(plain(**required))  # defaults and factories
    record = cls(**given)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.__setattr__(fields[0].name, "changed")
    assert dataclasses.replace(record, **{fields[0].name: "changed"}) == cls(
        **{**given, fields[0].name: "changed"}
    )
    with pytest.raises(TypeError):
        cls(*given.values(), "one too many")
