"""The native table book agrees exactly with ``TableBook`` of ``scoring/table_book.py`` (the
oracle): on every dev-set, benchmark and adversarial evidence and on generated evidence with text
and JSON tables, the lookups ``verdicts._table_cell`` (``cells_within``) and
``derivations._from_tables`` (``tables()``) make give the same cells in the same order (floats to
the bit, same citations, paths and code-point offsets) and leave the same budget, at a full and at
a short budget (``BudgetSpent`` at the same moment)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring.budget import BudgetSpent, WorkBudget
from otel_groundedness.scoring.corpus import collect, render_path
from otel_groundedness.scoring.table_book import TableBook
from otel_groundedness.scoring.tables import Cell
from tests.native.test_evidence_differential import benchmark_cases, devset_cases

CAP = 262_144
UNITS = 200_000
SHORT = (1, 40, 400)
FUZZ = settings(max_examples=1_000, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))


def _bits(value: Any) -> Any:
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, list | tuple):
        return tuple(_bits(item) for item in value)
    return value


def _plain(cell: Cell) -> Any:
    where = cell.where
    return (
        (
            cell.value, cell.power, cell.percent, cell.currency, cell.row, cell.column, cell.label,
            list(cell.columns), cell.year, cell.source.index, cell.cited(),
        ),
        (
            where.text, render_path(where.path), where.start, where.end, where.number, where.currency,
            where.record is not None,
        ),
    )  # fmt: skip


def python_answers(
    items: Sequence[Any], prompt: str | None, units: int, lookups: list[tuple[Any, ...]]
) -> list[Any]:
    budget = WorkBudget(units)
    book = TableBook(collect(items, prompt, CAP), budget)
    answers: list[Any] = []
    for lookup in lookups:
        try:
            if lookup[0] == "within":
                found: Any = [_plain(cell) for cell in book.cells_within(*lookup[1:])]
            else:
                found = [_plain(cell) for table in book.tables() for cell in table.cells]
        except BudgetSpent:
            found = "BudgetSpent"
        except ValueError:
            found = "ValueError"
        answers.append((found, budget.left))
    return answers


def lookups_for(items: Sequence[Any], prompt: str | None) -> list[tuple[Any, ...]]:
    """``_table_cell``'s ranges around every cell's value at scale (and around its value as
    written, which a direct lookup misses), then ``tables()`` as ``_from_tables`` asks, then more."""
    try:
        tables = TableBook(collect(items, prompt, CAP), WorkBudget(10**12)).tables()
    except ValueError:
        tables = []
    around: list[tuple[Any, ...]] = [("within", -1.0, 1.0, False), ("within", -1e300, 1e300, True)]
    for table in tables[:8]:
        for cell in table.cells[:12]:
            for value in (cell.value * 10.0**cell.power, cell.value):
                reach = max(abs(value) * 1e-9, 1e-9)
                around.append(("within", value - reach, value + reach, cell.percent))
                around.append(("within", value - 1.0, value + 1.0, not cell.percent))
    middle = len(around) // 2
    return [*around[:middle], ("tables",), *around[middle:], ("tables",)]


def assert_agrees(items: Sequence[Any], prompt: str | None = None) -> int:
    lookups = lookups_for(items, prompt)
    cells = 0
    for units in (UNITS, *SHORT):
        expected = python_answers(items, prompt, units, lookups)
        native = _native.table_book_lookups(items, prompt, CAP, False, units, lookups)
        assert _bits([tuple(answer) for answer in native]) == _bits(expected), (items, units)
        cells += sum(len(found) for found, _ in expected if isinstance(found, list))
    return cells


def test_every_devset_and_benchmark_evidence() -> None:
    cells = 0
    for _, items, prompt in [*devset_cases(), *benchmark_cases()]:
        cells += assert_agrees(items, prompt)
    assert cells > 5_000  # the tables were read, not skipped


# --- generated evidence ----------------------------------------------------------------------------

HEADS = ("", "2024", "2023", "FY2022", "Q1 2025", "(In millions)", "% of total", "Cloud", "$000s")
LABELS = ("Revenue", "Net income", "Total revenue", "Gross margin", "EPS", "Fiscal 2023", "")
FIGURES = (
    "100",
    "120",
    "80.5",
    "(20)",
    "$ 250",
    "12.5%",
    "1,000",
    "—",
    "",
    "3.2",
    "-7",
    "€ 9.9",
    "n/a",
    "1.26",
)
NOTES = ("", "(In millions)", "in thousands", "$ in billions", "USD 000s", "Amounts in millions of dollars")
figure = st.sampled_from(FIGURES) | st.text(alphabet="0123456789.,$%()-€ ", max_size=8)
rows = st.integers(1, 4).flatmap(
    lambda width: st.tuples(
        st.lists(st.sampled_from(HEADS), min_size=width, max_size=width),
        st.lists(
            st.tuples(st.sampled_from(LABELS), st.lists(figure, min_size=width, max_size=width)),
            min_size=1,
            max_size=5,
        ),
    ).map(lambda parts: [["", *parts[0]], *([label, *rest] for label, rest in parts[1])])
)


def _text(grid: list[list[str]], form: str, note: str) -> str:
    if form == "markdown":
        lines = ["| " + " | ".join(cell.replace("|", " ") for cell in row) + " |" for row in grid]
        lines.insert(1, "|" + "---|" * len(grid[0]))
    elif form == "html":
        cells = ("".join(f"<td>{cell}</td>" for cell in row) for row in grid)
        return note + "<table>" + "".join(f"<tr>{row}</tr>" for row in cells) + "</table>"
    else:
        separator = "\t" if form == "tsv" else ","
        lines = [separator.join(cell.replace(separator, " ") for cell in row) for row in grid]
    return (note + "\n" if note else "") + "\n".join(lines)


def _number(text: str) -> Any:
    try:
        return json.loads(text.replace(",", ""))
    except ValueError:
        return text


def _records(grid: list[list[str]]) -> list[dict[str, Any]]:
    heads = [head or f"c{at}" for at, head in enumerate(grid[0][1:])]
    return [
        {"item": row[0], **{head: _number(cell) for head, cell in zip(heads, row[1:], strict=False)}}
        for row in grid[1:]
    ]


part = st.one_of(
    st.tuples(rows, st.sampled_from(("markdown", "csv", "tsv", "html")), st.sampled_from(NOTES)).map(
        lambda args: _text(*args)
    ),
    st.tuples(rows, st.sampled_from(NOTES), st.booleans()).map(
        lambda args: (
            {"unit": args[1], "rows": [[_number(cell) for cell in row] for row in args[0]]}
            if args[2]
            else [[_number(cell) for cell in row] for row in args[0]]
        )
    ),
    st.tuples(rows, st.sampled_from(NOTES)).map(lambda args: {"note": args[1], "records": _records(args[0])}),
    st.text(max_size=40),
)


@FUZZ
@given(st.lists(st.lists(part, min_size=1, max_size=3), min_size=1, max_size=3))
def test_generated_evidence(items: list[list[Any]]) -> None:
    evidence = [item if len(item) > 1 else item[0] for item in items]
    assert_agrees(evidence)


def test_a_character_reference_python_refuses() -> None:
    """``html.unescape`` raises ValueError on a reference of more than 4300 digits: the book reads
    nothing (and reads again, paying again, on the next lookup). Not yet covered: a text whose
    earlier HTML table reads well, where Python pays for that table's cells before raising and
    the native book does not (reported on issue 18)."""
    long = "&#" + "1" * 5000 + ";"
    text = f"<table><tr><td></td><td>2024</td></tr><tr><td>Rev</td><td>{long}</td></tr></table>"
    lookups: list[tuple[Any, ...]] = [("within", 0.0, 10.0, False), ("tables",)]
    expected = python_answers([text], None, 1000, lookups)
    assert [found for found, _ in expected] == ["ValueError", "ValueError"]
    native = _native.table_book_lookups([text], None, CAP, False, 1000, lookups)
    assert _bits([tuple(answer) for answer in native]) == _bits(expected)
