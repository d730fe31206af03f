"""Hard-data atoms: the typed facts the scorer extracts from answers and evidence.

This module is the contract between extraction (``scoring.extract``) and matching
(``scoring.index`` / ``scoring.verdicts``); it holds data types only. The types are slotted but
not frozen (a frozen dataclass costs about a microsecond more per object, and extraction builds
thousands); they are hashable by value and nothing mutates them after construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

AtomKind: TypeAlias = Literal["money", "percent", "number", "date", "identifier", "time"]
ATOM_KINDS: tuple[AtomKind, ...] = ("money", "percent", "number", "date", "identifier", "time")
NUMERIC_KINDS: frozenset[AtomKind] = frozenset({"money", "percent", "number"})


@dataclass(slots=True, unsafe_hash=True)
class Quantity:
    """Value of a money, percent or number atom.

    ``value`` is in base units: ``$1.24 million`` is 1_240_000.0, ``15.3%`` is 15.3,
    ``25 bps`` is 0.25 with unit ``pp``. ``tolerance`` is the absolute amount the stated
    figure may be off by: half a unit of its last significant digit, widened when the
    figure is hedged ("about", "roughly") or ends in zeros that state lower precision.
    ``digits`` keeps the significant digits as written (``"1234500"``), sign and
    separators removed, for digit-level comparisons (transpositions, one changed digit).
    """

    value: float
    tolerance: float
    digits: str
    currency: str | None = None  # ISO 4217 code for money ("USD", "EUR"); None if unmarked
    unit: str | None = None  # percent: "%" or "pp"; number: a unit suffix such as "ms", "kg", "MB"
    hedged: bool = False


@dataclass(slots=True, unsafe_hash=True)
class CalendarDate:
    """Value of a date atom: every (year, month, day) reading the text allows.

    Coarser dates leave trailing components ``None`` (``March 2025`` -> (2025, 3, None));
    a date without a year has year ``None`` (``Mar 3`` -> (None, 3, 3)). An ambiguous
    numeric date such as ``03/04/2025`` under a locale that allows both orders carries
    both readings; a datetime keeps only its date.
    """

    readings: tuple[tuple[int | None, int | None, int | None], ...]


@dataclass(slots=True, unsafe_hash=True)
class Identifier:
    """Value of an identifier atom.

    ``normalized`` is the comparison form (case-folded ticket codes, URLs without trailing
    punctuation, phone numbers as digits only); ``shape`` names its family so only
    identifiers of one shape are compared: ``email``, ``url``, ``ticket``, ``uuid``, ``ip``,
    ``version``, ``hash``, ``phone``, ``code`` (booking references, tracking numbers).
    """

    normalized: str
    shape: str


AtomValue: TypeAlias = Quantity | CalendarDate | Identifier


@dataclass(slots=True, unsafe_hash=True)
class Atom:
    """One hard fact found in a text, with its character span ``text[start:end]``."""

    kind: AtomKind
    text: str
    start: int
    end: int
    value: AtomValue
