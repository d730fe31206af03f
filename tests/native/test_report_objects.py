"""The report objects `_native.score` makes: written straight into the slots it finds in a probe
instance, or set field by field when it finds none (`native/python/src/report.rs`). Both ways must
give the same fields."""

from __future__ import annotations

import dataclasses
from typing import Any

from otel_groundedness import _native
from otel_groundedness.scoring.engine import DEFAULT_POLICY
from otel_groundedness.scoring.results import AtomVerdict, Citation

ANSWER = (
    "Order ORD-52445 shipped on 2026-11-02 for $994,908.19, 7468 units at 5% off; "
    "order ORD-80239 cost $99,720.46 and 1950 units."
)
EVIDENCE = [
    '[{"order_id": "ORD-52445", "amount": "$994,908.19", "qty": 7468, "date": "2026-11-02",'
    ' "discount": "5%"},'
    ' {"order_id": "ORD-80239", "amount": "$99,702.46", "qty": 1950}]'
]


def _plain(cls: type) -> type:
    """A dict-based class with `cls`'s fields: no slots for the probe to find."""
    names = [field.name for field in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(f"Plain{cls.__name__}", names)


def _fields(value: Any) -> Any:
    names = [field.name for field in dataclasses.fields(AtomVerdict)]
    citation_names = [field.name for field in dataclasses.fields(Citation)]
    fields = {name: getattr(value, name) for name in names}
    if fields["citation"] is not None:
        fields["citation"] = {name: getattr(fields["citation"], name) for name in citation_names}
    return fields


def _verdicts(types: tuple[type, type]) -> list[Any]:
    groups = _native.score(ANSWER, EVIDENCE, None, DEFAULT_POLICY, types)[0]
    supported, contradicted, unsupported, derived = groups
    assert derived == []  # no figure here is computed from others
    return [_fields(verdict) for verdict in [*supported, *contradicted, *unsupported]]


def test_slot_writes_and_field_by_field_setting_give_the_same_report() -> None:
    slotted = _verdicts((AtomVerdict, Citation))
    plain_types = (_plain(AtomVerdict), _plain(Citation))
    plain = _verdicts(plain_types)
    made = _native.score(ANSWER, EVIDENCE, None, DEFAULT_POLICY, plain_types)[0][0]
    assert made and all(type(verdict) is plain_types[0] for verdict in made)
    assert len(slotted) >= 8
    assert any(verdict["verdict"] == "contradicted" for verdict in slotted)
    assert plain == slotted


def test_slotted_objects_are_the_real_frozen_types() -> None:
    supported = _native.score(ANSWER, EVIDENCE, None, DEFAULT_POLICY, (AtomVerdict, Citation))[0][0]
    verdict = supported[0]
    assert type(verdict) is AtomVerdict and type(verdict.citation) is Citation
    assert verdict == dataclasses.replace(verdict)  # every field readable, equal to a rebuilt copy
