"""The native text-table leaves agree exactly with the Python engine (the oracle): the readings of
cells, captions and labels (`scoring/tables.py`) on every dev-set text and on generated cells."""

from __future__ import annotations

import random
import re
import sys
import unicodedata
from string import ascii_lowercase, digits

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from tests.native import words_cases as cases

FUZZ = settings(max_examples=5_000, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
cell = st.lists(st.sampled_from(cases.CELL_PIECES), max_size=8).map("".join)
any_cell = cell | st.text(max_size=12) | st.lists(cell | st.text(max_size=3), max_size=4).map("".join)
CHARS = "".join(chr(cp) for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp <= 0xDFFF)


def _assert_agree(mismatch: str | None) -> None:
    assert mismatch is None, mismatch


def test_digit_values_are_int_on_every_code_point() -> None:
    native = _native.unicode_digit_values(CHARS)
    wrong = [
        f"U+{ord(char):04X}"
        for char, value in zip(CHARS, native, strict=True)
        if value != (unicodedata.decimal(char) if re.fullmatch(r"\d", char) else None)
    ]
    assert not wrong, wrong[:20]


def test_ignorecase_is_python_re_on_every_code_point() -> None:
    for literal in ascii_lowercase + digits:
        pattern = re.compile(literal, re.IGNORECASE)
        native = _native.unicode_ignorecase(CHARS, literal)
        wrong = [
            f"U+{ord(c):04X}"
            for c, same in zip(CHARS, native, strict=True)
            if same != bool(pattern.fullmatch(c))
        ]
        assert not wrong, (literal, wrong[:20])


def test_every_devset_text_line_and_cell() -> None:
    for text in cases.devset()["texts"]:
        _assert_agree(cases.check_table_lines(text))


def test_every_devset_key() -> None:
    for key in cases.devset()["keys"]:
        _assert_agree(cases.check_table_text(key))


@FUZZ
@given(any_cell)
def test_cell_readings(text: str) -> None:
    _assert_agree(cases.check_table_text(text))


@FUZZ
@given(st.lists(any_cell, max_size=7), st.integers(0, 9))
def test_row_spans_and_labels(cells: list[str], width: int) -> None:
    _assert_agree(cases.check_table_row(cells, width))


@FUZZ
@given(st.lists(st.sampled_from(cases.PIECES) | cell, max_size=30).map("".join))
def test_question_tokens_and_acronyms(text: str) -> None:
    _assert_agree(cases.check_table_text(text))


# ------------------------------------------------------------------------------ text tables


def test_tables_of_every_devset_text() -> None:
    for text in cases.devset()["texts"]:
        _assert_agree(cases.check_text_tables(text))


@FUZZ
@given(st.integers(0, 2**32))
def test_tables_of_fragments(seed: int) -> None:
    rng = random.Random(seed)
    _assert_agree(cases.check_text_tables(cases.random_table_text(rng)))
    _assert_agree(cases.check_text_tables(cases.random_grid_text(rng)))


@FUZZ
@given(st.lists(st.sampled_from(cases.TABLE_PIECES) | any_cell, max_size=30).map("".join))
def test_tables_of_any_text(text: str) -> None:
    _assert_agree(cases.check_text_tables(text))


def test_tables_at_their_caps() -> None:
    block = "Revenue (In millions)\n| Item | 2024 |\n|---|---|\n| Sales | 1 |\n\n"
    html_cell = "<td>&#" + "1" * 4301 + ";</td>"
    for text in (
        block * 70,  # more tables than MAX_TABLES
        "a,b,c\n" + "1,2,3\n" * 1500,  # more cells than MAX_TABLE_CELLS
        "<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr>" + "x" * 200_000 + "</table>",
        "<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>" * 70,
        "<table>" * 1000 + "<tr><td>1</td></tr><tr><td>2</td></tr></table>",
        f"<table><tr>{html_cell}</tr><tr><td>2</td></tr></table>",  # int() refuses 4301 digits
        '"a ""quoted"" é field",b\n"1,234",2\n',
    ):
        _assert_agree(cases.check_text_tables(text))
