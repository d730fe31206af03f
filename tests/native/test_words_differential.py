"""The native word, digit and derivation-cue leaves agree exactly with the Python engine (the oracle):
on every dev-set text, key and number, and on generated adversarial text."""

from __future__ import annotations

import random
import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring import derivation_cues
from tests.native import words_cases as cases

FUZZ = settings(max_examples=5_000, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
piece_text = st.lists(st.sampled_from(cases.PIECES), max_size=24).map("".join)
mixed_text = st.lists(st.one_of(piece_text, st.text(max_size=4))).map("".join)
any_text = st.one_of(piece_text, st.text(max_size=40), mixed_text)


def _assert_agree(mismatch: str | None) -> None:
    assert mismatch is None, mismatch


# ------------------------------------------------------------------------------ Python's Unicode


def test_character_classes_are_python_re_on_every_code_point() -> None:
    import re

    classes = [re.compile(pattern) for pattern in (r"\w", r"[^\W\d_]", r"\d", r"\s")]
    # Surrogates cannot cross into Rust as str: the boundary's concern, not the classes'.
    chars = "".join(chr(cp) for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp <= 0xDFFF)
    native = _native.unicode_classes(chars)
    wrong = [
        f"U+{ord(char):04X}"
        for char, bits in zip(chars, native, strict=True)
        if bits != sum(bool(pattern.fullmatch(char)) << bit for bit, pattern in enumerate(classes))
    ]
    assert not wrong, wrong[:20]
    # Another Python's Unicode: regenerate the tables with native/engine/python_tables.py.
    assert _native.unicode_version() == unicodedata.unidata_version


def test_lower_is_python_lower_on_every_code_point() -> None:
    wrong = [
        f"U+{cp:04X}"
        for cp in range(sys.maxunicode + 1)
        if not 0xD800 <= cp <= 0xDFFF and _native.unicode_lower(chr(cp)) != chr(cp).lower()
    ]
    assert not wrong, wrong[:20]


@FUZZ
@given(st.lists(st.sampled_from("ΣσςΑa'.ʰ\u0345\u0301İ ΌΪ̈ǅ1"), max_size=12).map("".join))
def test_lower_reads_final_sigma_as_python(text: str) -> None:
    assert _native.unicode_lower(text) == text.lower()


# ---------------------------------------------------------------------------------- label words


@pytest.mark.parametrize("name", ["texts", "keys"])
def test_words_of_every_devset_text_and_key(name: str) -> None:
    for text in cases.devset()[name]:
        _assert_agree(cases.check_words(text))


def test_windows_and_contexts_of_every_devset_figure() -> None:
    for text in cases.devset()["texts"]:
        _assert_agree(cases.check_text(text))


def test_json_words_of_every_devset_value() -> None:
    for keys, record in cases.devset()["json_values"]:
        _assert_agree(cases.check_json_words(keys, record))


@FUZZ
@given(any_text)
def test_words(text: str) -> None:
    _assert_agree(cases.check_words(text))


ENDINGS = ("s", "es", "ies", "sses", "ches", "shes", "xes", "ie", "che", "us", "is", "ss", "e", "")
stem = st.text(alphabet="abcehilsuxyİß\u0307", max_size=4)


@FUZZ
@given(st.tuples(stem, st.sampled_from(ENDINGS)).map("".join) | st.sampled_from(cases.PIECES).map(str.lower))
def test_singular(word: str) -> None:
    _assert_agree(cases.check_singular(word))


@FUZZ
@given(any_text, st.lists(st.integers(0, 400), min_size=4, max_size=4), st.booleans())
def test_window_words(text: str, cuts: list[int], whole: bool) -> None:
    lower, start, end, upper = sorted(min(cut, len(text)) for cut in cuts)
    _assert_agree(cases.check_window_words(text, start, end, lower, None if whole else upper))


@FUZZ
@given(
    st.lists(any_text, max_size=4),
    st.none()
    | st.dictionaries(
        st.sampled_from(("name", "label", "metric", "kind", "value", "unit")), any_text | st.integers()
    ),
)
def test_json_words(keys: list[str], siblings: dict[str, object] | None) -> None:
    _assert_agree(cases.check_json_words(keys, siblings))


@FUZZ
@given(any_text, st.lists(st.integers(0, 400), min_size=8, max_size=8), st.booleans())
def test_atom_context(text: str, cuts: list[int], has_previous: bool) -> None:
    low, near_low, start, end, near_high, high = sorted(min(cut, len(text)) for cut in cuts[:6])
    previous = tuple(sorted(min(cut, low) for cut in cuts[6:]))
    _assert_agree(
        cases.check_atom_context(
            text, start, end, (low, high), (near_low, near_high), previous if has_previous else None
        )
    )


# ---------------------------------------------------------------------------------- units, digits


def test_units_of_every_devset_key() -> None:
    for key in cases.devset()["keys"]:
        _assert_agree(cases.check_units(key, 1.0, "MB", "MiB"))


def test_digits_of_every_devset_number() -> None:
    numbers = cases.devset()["numbers"]
    rng = random.Random(0)
    for previous, value in zip([1.0, *numbers], numbers, strict=False):
        _assert_agree(cases.check_number(value, previous))
        _assert_agree(cases.check_number(value, cases.related_number(rng, value)))


key_text = st.lists(st.sampled_from(cases.KEY_PARTS), max_size=6).map("".join) | st.text(max_size=70)
unit = st.sampled_from(cases.UNITS) | st.text(max_size=3)


@FUZZ
@given(key_text, st.floats(allow_nan=True, allow_infinity=True), unit, unit)
def test_units(key: str, value: float, unit: str, target: str) -> None:
    _assert_agree(cases.check_units(key, value, unit, target))


figure = st.floats(allow_nan=True, allow_infinity=True) | st.integers(1, 10**17).map(float)
# Exact ties of the 12-digit mantissa and of every answer precision: "1" + zeros + "5".
tie = st.tuples(st.integers(0, 14), st.integers(-3, 3)).map(
    lambda z: float(int("1" + "0" * z[0] + "5")) * 10.0 ** z[1]
)


@FUZZ
@given(figure | tie, st.integers(0, 2**32), figure | tie)
def test_digits_of_figures(value: float, seed: int, other: float) -> None:
    _assert_agree(cases.check_number(value, other))
    _assert_agree(cases.check_number(value, cases.related_number(random.Random(seed), value)))


@FUZZ
@given(st.text(alphabet="0123456789", min_size=1, max_size=17), st.integers(-340, 340), figure)
def test_digits_of_any_mantissa(digits: str, exponent: int, other: float) -> None:
    _assert_agree(cases.check_digit_edits((digits, exponent), other))


# ---------------------------------------------------------------------------- derivation cues


def test_change_words_are_the_python_set() -> None:
    candidates = {word for text in cases.devset()["texts"] for word in text.lower().split()}
    candidates |= set(derivation_cues.CHANGE_WORDS) | {piece.lower() for piece in cases.PIECES}
    assert {word for word in candidates if _native.is_change_word(word)} == derivation_cues.CHANGE_WORDS


@FUZZ
@given(any_text)
def test_operations_in(text: str) -> None:
    _assert_agree(cases.check_operations_in(text))


@FUZZ
@given(
    any_text,
    st.lists(st.integers(0, 400), min_size=8, max_size=8),
    st.booleans(),
    st.frozensets(st.sampled_from(cases.OPERATIONS)),
)
def test_cued_and_table_operations(
    text: str, cuts: list[int], has_previous: bool, operations: frozenset[str]
) -> None:
    low, near_low, start, end, near_high, high = sorted(min(cut, len(text)) for cut in cuts[:6])
    previous = tuple(sorted(min(cut, low) for cut in cuts[6:]))
    _assert_agree(
        cases.check_cues(
            text,
            start,
            end,
            (low, high),
            (near_low, near_high),
            previous if has_previous else None,
            operations,
        )
    )
