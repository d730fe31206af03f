"""Properties of ``extract_atoms`` over arbitrary and adversarial text, and its argument checks."""

from __future__ import annotations

import calendar
import datetime
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness.scoring.atoms import ATOM_KINDS, NUMERIC_KINDS
from tests.scoring.native_parts import (
    SUPPORTED_LOCALES,
    Atom,
    CalendarDate,
    ClockTime,
    Identifier,
    Quantity,
    extract_atoms,
    readable,
)

# Fragments that exercise the grammar's edges when glued together at random.
TOKENS = [
    "$", "€", "US", "USD", " ", "\u00a0", "\u202f", "\n\x1e\n", "1", "2", "0", "7", "19", "2024", "1,243,500",
    "4.812", "12,5", ".", ",", "-", "–", "−", "+", "%", "/", ":", "T", "Z", "#", "(", ")", "@", "x.com",
    "https://", "www.", "March", "Mar", "mars", "März", "3rd", "1er", " of ", "k", "M", "Mio.", "bn",
    "million", "ms", "MB", "bps", "pp", "percent", "about ", "~", "INV-", "COVID-", "v", "a3f", "e29b",
    "ago", "in ", "days", "today", "\x00", "\ud800", "\U0001f600", "ü", "٣",
]  # fmt: skip
texts = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=()), max_size=200),
    st.lists(st.sampled_from(TOKENS), max_size=40).map("".join),
)
options = st.fixed_dictionaries(
    {
        "locale": st.sampled_from(SUPPORTED_LOCALES),
        "min_number_digits": st.integers(0, 6),
        "anchor": st.none()
        | st.dates(min_value=datetime.date(1, 1, 10), max_value=datetime.date(9999, 12, 20)),
    }
)


DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_valid(year: int | None, month: int | None, day: int | None) -> bool:
    """Whether a reading names a real date: a year alone, a month of a year (or of no year), or a
    day of one; 29 February needs a leap year when the year is given."""
    if month is None:
        return day is None and year is not None
    if not 1 <= month <= 12:
        return False
    if day is None:
        return True
    if month == 2 and day == 29:
        return year is None or calendar.isleap(year)
    return 1 <= day <= DAYS_IN_MONTH[month - 1]


@pytest.mark.parametrize(
    ("reading", "valid"),
    [
        ((2025, None, None), True),
        ((None, None, None), False),
        ((2025, None, 3), False),
        ((None, 3, 3), True),
        ((2024, 2, 29), True),
        ((1900, 2, 29), False),
        ((None, 2, 29), True),
        ((2025, 4, 31), False),
        ((2025, 13, None), False),
    ],
)
def test_is_valid_knows_the_calendar(reading: tuple[int | None, int | None, int | None], valid: bool) -> None:
    assert is_valid(*reading) is valid


def test_extracted_dates_are_real_dates() -> None:
    """The engine's date readings pass ``is_valid``; impossible dates are not read as dates."""
    for text in ("on 29 February 2024", "on 2025-04-30", "in March 2025", "on Feb 29"):
        dates = [atom for atom in extract_atoms(text) if atom.kind == "date"]
        assert dates, text
        assert all(isinstance(d.value, CalendarDate) for d in dates)
        assert all(is_valid(*r) for d in dates for r in d.value.readings)  # type: ignore[union-attr]
    for text in ("on 2025-02-30", "on 2025-13-01", "on 31 April 2025"):
        readings = [a.value.readings for a in extract_atoms(text) if isinstance(a.value, CalendarDate)]
        assert all(is_valid(*r) for rs in readings for r in rs), (text, readings)


def assert_sane(text: str, atoms: list[Atom]) -> None:
    """Sorted, non-overlapping, spans point at the text (as read: lone surrogates as U+FFFD),
    values typed and finite."""
    text = readable(text)
    previous_end = 0
    for atom in atoms:
        assert previous_end <= atom.start < atom.end <= len(text)
        assert text[atom.start : atom.end] == atom.text
        previous_end = atom.end
        assert atom.kind in ATOM_KINDS
        if atom.kind in NUMERIC_KINDS:
            assert isinstance(atom.value, Quantity)
            assert math.isfinite(atom.value.value) and math.isfinite(atom.value.tolerance)
            assert atom.value.tolerance > 0 and atom.value.digits.isdigit()
        elif atom.kind == "date":
            assert isinstance(atom.value, CalendarDate) and atom.value.readings
            assert all(is_valid(*reading) for reading in atom.value.readings)
        elif atom.kind == "time":
            assert isinstance(atom.value, ClockTime)
            assert 0 <= atom.value.hour <= 23 and 0 <= atom.value.minute <= 59
        else:
            assert isinstance(atom.value, Identifier) and atom.value.normalized


@settings(max_examples=400, deadline=None)
@given(text=texts, opts=options)
def test_any_text_yields_sane_deterministic_atoms(text: str, opts: dict[str, object]) -> None:
    atoms = extract_atoms(text, **opts)  # type: ignore[arg-type]
    assert_sane(text, atoms)
    assert extract_atoms(text, **opts) == atoms  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(text=texts, kinds=st.sets(st.sampled_from(ATOM_KINDS)))
def test_kinds_filter_keeps_the_same_atoms(text: str, kinds: set[str]) -> None:
    everything = extract_atoms(text)
    assert extract_atoms(text, kinds=kinds) == [a for a in everything if a.kind in kinds]


def test_one_megabyte_of_adversarial_text_completes_with_sane_atoms() -> None:
    rng = random.Random(5)
    segment = 1 << 18
    text = "".join(
        [
            "".join(rng.choice("0123456789" * 3 + ",.$%@-/#: ") for _ in range(segment)),
            "7" * segment,
            "1," * (segment // 2),
            "$1." * (segment // 3),
        ]
    )
    atoms = extract_atoms(text)
    assert_sane(text, atoms)
    assert any(atom.kind == "money" for atom in atoms)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"locale": "xx-XX"}, "unsupported locale"),
        ({"min_number_digits": -1}, "min_number_digits"),
        ({"kinds": ("number", "colour")}, "unknown atom kinds"),
    ],
)
def test_bad_arguments_raise_value_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        extract_atoms("$5", **options)  # type: ignore[arg-type]


def test_supported_locales() -> None:
    """Every locale the tests sample is read by the engine (which refuses others, see above)."""
    assert SUPPORTED_LOCALES == ("en-US", "en-GB", "de-DE", "fr-FR")
    for locale in SUPPORTED_LOCALES:
        assert [a.kind for a in extract_atoms("$5", locale=locale)] == ["money"]
