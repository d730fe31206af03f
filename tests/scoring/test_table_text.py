"""A delimited block's extent is found by counting fields, which must agree with splitting them: a
line joins the block under a header exactly when it splits into as many fields, and its row's
cells are those fields (native engine, ``text_tables``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from otel_groundedness._native import text_tables

_LINES = st.text(alphabet='ab1,\t"', max_size=40)
# Lines built to hold their delimiter and a visible character (filtering random lines for them
# discards too many and fails Hypothesis's health check).
_VISIBLE = st.text(alphabet='ab1,"', min_size=1, max_size=10)
_COMMA_LINES = st.tuples(st.text(alphabet='ab1,"', max_size=20), _VISIBLE).map(",".join)
_TAB_LINES = st.tuples(_LINES, _VISIBLE, _LINES).map(lambda parts: f"{parts[0]}\t{parts[1]}{parts[2]}")


def reference_fields(line: str, delimiter: str) -> list[str]:
    """The fields of one line: split at the delimiter; a CSV field may be quoted ("1,234" is one
    field, a doubled quote in it one quote, an unclosed quote runs to the line's end)."""
    fields: list[str] = []
    position = 0
    while position <= len(line):
        if delimiter == "," and line.startswith('"', position):
            close = line.find('"', position + 1)
            while close != -1 and line.startswith('"', close + 1):
                close = line.find('"', close + 2)
            close = len(line) if close == -1 else close
            fields.append(line[position + 1 : close].replace('""', '"'))
            following = line.find(delimiter, close)
            position = len(line) + 1 if following == -1 else following + 1
            continue
        following = line.find(delimiter, position)
        end = len(line) if following == -1 else following
        fields.append(line[position:end])
        position = end + 1
    return fields


def check_block(line: str, delimiter: str) -> None:
    fields = reference_fields(line, delimiter)
    if len(fields) == 1:
        # A delimiter inside quotes only: one field, so no two-field line joins it.
        assert text_tables(f"{line}\nh{delimiter}h") == []
        return
    header = delimiter.join("h" * len(fields))
    (table,) = text_tables(f"{header}\n{line}")
    rows, _ = table
    assert len(rows) == 2
    assert [text for text, _, _ in rows[1]] == fields
    # One field more in the header: the line is no row of its table, and one line is no table.
    assert text_tables(f"{header}{delimiter}h\n{line}") == []


def test_reference_fields() -> None:
    assert reference_fields('a,"1,234",b', ",") == ["a", "1,234", "b"]
    assert reference_fields('"x ""y""",', ",") == ['x "y"', ""]
    assert reference_fields('a\t"b\t"', "\t") == ["a", '"b', '"']


@given(_COMMA_LINES)
def test_comma_field_count_is_the_number_of_split_fields(line: str) -> None:
    check_block(line, ",")


@given(_TAB_LINES)
def test_tab_field_count_is_the_number_of_split_fields(line: str) -> None:
    check_block(line, "\t")
