"""Properties of ``extract_atoms`` over arbitrary and adversarial text, and its argument checks."""

from __future__ import annotations

import datetime
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness.scoring.atoms import (
    ATOM_KINDS,
    NUMERIC_KINDS,
    Atom,
    CalendarDate,
    Identifier,
    Quantity,
)
from otel_groundedness.scoring.extract import SUPPORTED_LOCALES, extract_atoms
from otel_groundedness.scoring.extract.dates import is_valid

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


def assert_sane(text: str, atoms: list[Atom]) -> None:
    """Sorted, non-overlapping, spans point at the text, values typed and finite."""
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
    assert extract_atoms(text, kinds=kinds) == [a for a in everything if a.kind in kinds]  # type: ignore[arg-type]


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
    assert SUPPORTED_LOCALES == ("en-US", "en-GB", "de-DE", "fr-FR")
