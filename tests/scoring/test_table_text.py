"""A delimited block's extent is found by counting fields, which must agree with splitting them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from otel_groundedness.scoring.table_text import _field_count, _split

_LINES = st.text(alphabet='ab1,\t"', max_size=40)


@given(_LINES)
def test_comma_field_count_is_the_number_of_split_fields(line: str) -> None:
    assert _field_count(line, ",") == len(_split(line, ",", 0))


@given(_LINES)
def test_tab_field_count_is_the_number_of_split_fields(line: str) -> None:
    assert _field_count(line, "\t") == len(_split(line, "\t", 0))
