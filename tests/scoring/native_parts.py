"""The native engine's extraction as typed atoms, for the tests under tests/scoring.

``otel_groundedness._native.extract_atoms`` answers plain rows ``(kind, text, start, end, fields)``
(offsets in code points; ``fields`` are the value's dataclass fields in order). The tests read atoms,
so this module keeps the atom dataclasses the Python engine used to define (``Quantity``,
``CalendarDate``, ``Identifier``, ``Atom``), with ``ClockTime`` for time atoms, and builds them from
those rows. Nothing else here: every
other native hook is called directly by the tests.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias, cast

from otel_groundedness import _native
from otel_groundedness.scoring.atoms import ATOM_KINDS, AtomKind

# The locales the engine reads (GroundednessPolicy.locale); any other makes extract_atoms raise.
SUPPORTED_LOCALES: tuple[str, ...] = ("en-US", "en-GB", "de-DE", "fr-FR")


@dataclass(slots=True, unsafe_hash=True)
class Quantity:
    """Value of a money, percent or number atom: ``value`` in base units (``$1.24 million`` is
    1_240_000.0, ``25 bps`` is 0.25 with unit ``pp``), the ``tolerance`` the stated figure may be
    off by, its significant ``digits`` as written, ISO ``currency``, ``unit`` and ``hedged``."""

    value: float
    tolerance: float
    digits: str
    currency: str | None = None
    unit: str | None = None
    hedged: bool = False


@dataclass(slots=True, unsafe_hash=True)
class CalendarDate:
    """Value of a date atom: every (year, month, day) reading the text allows."""

    readings: tuple[tuple[int | None, int | None, int | None], ...]


@dataclass(slots=True, unsafe_hash=True)
class Identifier:
    """Value of an identifier atom: its comparison form and the shape family it belongs to."""

    normalized: str
    shape: str


@dataclass(slots=True, unsafe_hash=True)
class ClockTime:
    """Value of a time atom: a 24-hour clock (``7:30 PM`` is 19, 30), ``second`` when stated, the
    zone's label (``"UTC"``, ``"PT"``, ``"-07:00"``) and the UTC offsets in minutes it stands for."""

    hour: int
    minute: int
    second: int | None = None
    zone: str | None = None
    offsets: tuple[int, int] | None = None


AtomValue: TypeAlias = Quantity | CalendarDate | Identifier | ClockTime


@dataclass(slots=True, unsafe_hash=True)
class Atom:
    """One hard fact found in a text, with its character span ``text[start:end]``."""

    kind: AtomKind
    text: str
    start: int
    end: int
    value: AtomValue


_SURROGATE = re.compile("[\ud800-\udfff]")


def readable(text: str) -> str:
    """``text`` as ``score`` reads it: each lone surrogate as U+FFFD (same length; the engine reads
    UTF-8, which cannot carry one)."""
    return _SURROGATE.sub("\ufffd", text)


def _value(kind: str, fields: tuple[Any, ...]) -> AtomValue:
    if kind == "date":
        (readings,) = fields
        return CalendarDate(tuple(tuple(reading) for reading in readings))
    if kind == "identifier":
        return Identifier(*fields)
    if kind == "time":
        hour, minute, second, zone, offsets = fields
        return ClockTime(hour, minute, second, zone, None if offsets is None else tuple(offsets))
    return Quantity(*fields)


def extract_atoms(
    text: str,
    *,
    locale: str = "en-US",
    min_number_digits: int = 4,
    kinds: Iterable[str] = ATOM_KINDS,
    anchor: datetime.date | None = None,
) -> list[Atom]:
    """The atoms the native engine extracts from ``readable(text)``, in order; ValueError on bad
    options (unsupported locale, negative ``min_number_digits``, unknown kinds)."""
    rows = _native.extract_atoms(readable(text), locale, min_number_digits, list(kinds), anchor)
    return [
        Atom(cast(AtomKind, kind), atom_text, start, end, _value(kind, fields))
        for kind, atom_text, start, end, fields in rows
    ]
