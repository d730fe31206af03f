"""The native table model, JSON tables and table derivations agree exactly with the Python engine
(the oracle): `make_table` of every text and JSON table of the table dev set, the benchmark's
income statement and the adversarial shapes, and of generated grids and JSON rows and records
(same cells in the same order, floats to the bit, same citations, paths and offsets, same label
words); and `table_derivation` of every dev-set question's figures (operation,
cells, value bits, budget left) and of generated targets over generated tables."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.adversarial_bench import shapes
from benchmarks.scoring_bench import TABLE_ANSWER, income_table
from otel_groundedness import _native
from otel_groundedness.scoring import derivations, table_derivations
from otel_groundedness.scoring.budget import BudgetSpent, WorkBudget
from otel_groundedness.scoring.corpus import Source, collect, render_path
from otel_groundedness.scoring.scorer import score  # the oracle, whose table searches are recorded
from otel_groundedness.scoring.table_json import head_has_note, json_grid
from otel_groundedness.scoring.table_text import text_tables
from otel_groundedness.scoring.tables import Cell, Table, make_table, tokens
from tests.native.words_cases import CELL_PIECES
from tests.scoring.devset.measure import load_cases

# 3,000 generated tables in all (text and JSON), and 1,000 searches: about a minute on two cores.
FUZZ = settings(max_examples=1_500, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
SEARCHES = settings(FUZZ, max_examples=1_000)
MAX_BYTES = 1 << 22
SOURCE = Source(0, None, "tool_result", None)
OPERATIONS = ("sum", "difference", "pct_change", "ratio", "average", "pp_difference")


def _bits(value: Any) -> Any:
    """Floats as their hex (bit-exact, -0.0 apart), inside tuples and lists."""
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, list | tuple):
        return tuple(_bits(item) for item in value)
    return value


def _plain(table: Table | None, rows: Any = None) -> Any:
    """A Python table as the binding renders a native one."""
    if table is None:
        return None

    def record(cell: Cell) -> int | None:
        if cell.where.record is None:
            return None
        return next(at for at, row in enumerate(rows) if row is cell.where.record)

    cells = [
        (
            (
                cell.value, cell.power, cell.percent, cell.currency, cell.row, cell.column, cell.label,
                list(cell.columns), cell.year, cell.source.index, cell.cited(),
            ),
            (
                cell.where.text, render_path(cell.where.path), cell.where.start, cell.where.end,
                (cell.where.number, cell.where.currency, record(cell)),
            ),
        )
        for cell in table.cells
    ]  # fmt: skip
    words = [
        [(number, sorted(found)) for number, found in labels.items()]
        for labels in (table.row_words, table.column_words)
    ]
    return (cells, *words)


def _python_text(text: str) -> Any:
    try:
        return [_plain(make_table(grid, SOURCE, caption)) for grid, caption in text_tables(text, None)]
    except ValueError as error:
        return ("ValueError", str(error))


def _native_text(text: str) -> Any:
    try:
        return _native.text_table_models(text, 0)
    except ValueError as error:
        return ("ValueError", str(error))


def _python_json(document: str, caption: str) -> Any:
    found = []
    for _, path, rows, _ in collect([document], None, MAX_BYTES).arrays:
        note = head_has_note(rows)
        grid = json_grid(rows, path)
        table: Any = None if grid is None else _plain(make_table(grid, SOURCE, caption), rows)
        found.append((render_path(path), note, grid is None, table))
    return found


def _assert_texts_agree(text: str) -> int:
    python = _python_text(text)
    assert _bits(_native_text(text)) == _bits(python), text
    return (
        sum(len(table[0]) for table in python if isinstance(table, tuple)) if isinstance(python, list) else 0
    )


def _assert_json_agrees(document: str, caption: str = "") -> int:
    python = _python_json(document, caption)
    assert _bits(_native.json_table_models(document, caption, MAX_BYTES)) == _bits(python), document[:2000]
    return sum(len(table[0]) for *_, table in python if isinstance(table, tuple))


def _assert_evidence_agrees(item: object) -> int:
    """Every text table of the item's strings and every JSON table in it agree; the cells compared."""
    try:
        document = item if isinstance(item, str) else json.dumps(item)
    except RecursionError:  # an object nested past json.dumps: no document to compare
        return 0
    cells = 0
    # Where json.loads meets the recursion limit depends on the caller's stack, which the evidence
    # binding measures (test_evidence_differential.py); this binding assumes 500 levels.
    if _nesting(document) < 400:
        cells += _assert_json_agrees(document) + _assert_json_agrees(document, "(In millions)")
    texts = {fragment.text for fragment in collect([document], None, MAX_BYTES).fragments}
    for text in sorted(texts | {document}):
        if "\n" in text or "<" in text:
            cells += _assert_texts_agree(text)
    return cells


def _nesting(document: str) -> int:
    depth = deepest = 0
    for char in document:
        depth += (char in "[{") - (char in "]}")
        deepest = max(deepest, depth)
    return deepest


def test_every_devset_table() -> None:
    cells = sum(_assert_evidence_agrees(item) for case in load_cases() for item in case["evidence"])
    assert cells > 5_000  # the set's tables were read, not skipped


def test_the_benchmark_and_adversarial_tables() -> None:
    assert _assert_evidence_agrees(income_table()) == 16
    for shape in shapes():
        for item in shape.evidence:
            _assert_evidence_agrees(item)


# --- generated grids ------------------------------------------------------------------------------

cell_text = st.lists(st.sampled_from(CELL_PIECES), max_size=4).map("".join)
LABELS = (
    "Revenue", "Net income", "Operating income", "Total revenue", "Gross margin", "EPS per share",
    "Cost of revenue", "Operating expenses:", "  Research (1)", "Fiscal 2023", "Churn rate", "",
)  # fmt: skip
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
    "45",
    "-7",
    "€ 9.9",
    "n/a",
)
HEADS = (
    "",
    "2024",
    "2023",
    "FY2022",
    "Q1 2025",
    "Year ended",
    "(In millions)",
    "% of total",
    "Cloud",
    "$000s",
)
label = st.sampled_from(LABELS) | cell_text
figure = st.sampled_from(FIGURES) | cell_text
# Report-like grids (header rows of periods, rows of a label and figures), cells sometimes random.
grid = st.integers(1, 4).flatmap(
    lambda width: st.tuples(
        st.lists(st.lists(st.sampled_from(HEADS) | cell_text, min_size=width, max_size=width), max_size=2),
        st.lists(st.tuples(label, st.lists(figure, min_size=width, max_size=width)), min_size=1, max_size=6),
    ).map(lambda parts: [["", *row] for row in parts[0]] + [[first, *rest] for first, rest in parts[1]])
)


def _markdown(rows: list[list[str]]) -> str:
    clean = [[text.replace("|", " ").replace("\n", " ") for text in row] for row in rows]
    lines = ["| " + " | ".join(row) + " |" for row in clean]
    return "\n".join([*lines[:1], "|---" * len(clean[0]) + "|", *lines[1:]])


def _csv(rows: list[list[str]], separator: str) -> str:
    return "\n".join(
        separator.join(text.replace(separator, " ").replace("\n", " ") for text in row) for row in rows
    )


def _html(rows: list[list[str]]) -> str:
    body = "".join("<tr>" + "".join(f"<td>{text}</td>" for text in row) + "</tr>" for row in rows)
    return f"<table>{body}</table>"


@FUZZ
@given(caption=cell_text, rows=grid, form=st.sampled_from(("markdown", "csv", "tsv", "html")))
def test_generated_text_tables(caption: str, rows: list[list[str]], form: str) -> None:
    text = {"markdown": _markdown, "html": _html}.get(
        form, lambda r: _csv(r, "," if form == "csv" else "\t")
    )(rows)
    _assert_texts_agree(caption + "\n\n" + text)


json_scalar = (
    cell_text
    | st.integers(1890, 2110)
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([None, True, False, 2**80, -(2**54) - 1, 1.5e300])
)
key = st.sampled_from(
    [
        "item", "period", "Revenue", "revenue_usd_m", "2024", "2023", "FY2024", "q1", "Q3 sales", "order_id",
        "fiscalYear", "currency", "margin", "tax_rate", "share", "(In millions)", "('000)", "name", "x",
        "Total",
    ]
)  # fmt: skip
record = st.dictionaries(key, json_scalar, min_size=1, max_size=6)
json_rows = st.lists(st.lists(json_scalar, max_size=5), min_size=1, max_size=6)
json_records = st.lists(record, min_size=1, max_size=6).map(
    lambda records: [{**records[0], **{k: v for k, v in r.items() if k in records[0]}} for r in records]
)


number = st.sampled_from([100, 120, 80.5, -20, 2024, 1.5e300, 0]) | json_scalar
report_rows = st.tuples(
    st.lists(st.sampled_from(HEADS) | key, min_size=2, max_size=4), st.lists(label, max_size=5)
).map(
    lambda parts: (
        [["", *parts[0]]]
        + [[first, *([100, "12.5%", 80.5, None] * 2)[: len(parts[0])]] for first in parts[1]]
    )
)
report_records = st.tuples(
    st.lists(key, min_size=1, max_size=4, unique=True), st.lists(st.tuples(label, number), max_size=5)
).map(lambda parts: [{"item": first, **{name: value for name in parts[0]}} for first, value in parts[1]])


@FUZZ
@given(
    rows=json_rows | json_records | st.lists(record, min_size=1, max_size=4) | report_rows | report_records,
    caption=st.sampled_from(["", "(In millions)", "USD 000s", "€m"]),
    wrapped=st.booleans(),
)
def test_generated_json_tables(rows: list[Any], caption: str, wrapped: bool) -> None:
    _assert_json_agrees(json.dumps({"unit": caption, "data": rows} if wrapped else rows), caption)


# --- derivations ----------------------------------------------------------------------------------


def _plain_tables(tables: list[Table]) -> list[Any]:
    return [
        (
            [
                (c.value, c.power, c.percent, c.currency, c.row, c.column, c.label, c.year)
                for c in table.cells
            ],
            [(number, sorted(found)) for number, found in table.row_words.items()],
            [(number, sorted(found)) for number, found in table.column_words.items()],
        )
        for table in tables
    ]


def _python_derivation(
    tables: list[Table], args: tuple[Any, ...], asked: frozenset[str], cited: list[float], budget: int
) -> tuple[Any, int]:
    used: list[tuple[int, bool]] = []
    original = table_derivations.cell_hit
    table_derivations.cell_hit = lambda cell, scaled: used.append((id(cell), scaled))  # type: ignore[assignment,func-returns-value]
    spent = WorkBudget(budget)
    try:
        found = table_derivations.table_derivation(
            tables, table_derivations.TableTarget(*args), asked, cited, spent
        )
    except BudgetSpent:
        return "BudgetSpent", spent.left
    except OverflowError:
        return "OverflowError", spent.left
    finally:
        table_derivations.cell_hit = original
    if found is None:
        return None, spent.left
    where = {id(cell): (t, c) for t, table in enumerate(tables) for c, cell in enumerate(table.cells)}
    scaled = {flag for _, flag in used}
    assert len(scaled) == 1
    return (found.operation, [where[cell] for cell, _ in used], found.value, scaled.pop()), spent.left


def _assert_derivation_agrees(
    tables: list[Table], args: tuple[Any, ...], asked: frozenset[str], cited: list[float], budget: int
) -> Any:
    python = _python_derivation(tables, args, asked, cited, budget)
    plain_args = (*args[:6], sorted(args[6]), args[7])
    native = _native.table_derivation(_plain_tables(tables), plain_args, set(asked), cited, budget)
    assert _bits(native) == _bits(python), (args, asked, cited, budget)
    return python[0]


@contextmanager
def _recorded_searches() -> Iterator[list[tuple[Any, ...]]]:
    """Every table search `score()` runs: (tables, target arguments, asked, cited, budget left)."""
    calls: list[tuple[Any, ...]] = []
    target_type, search = derivations.TableTarget, derivations.table_derivation

    class Recording(target_type):  # type: ignore[misc,valid-type]
        __slots__ = ("args",)

        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self.args = args

    def recording(
        tables: list[Table], target: Any, asked: frozenset[str], cited: list[float], budget: WorkBudget
    ) -> Any:
        calls.append((list(tables), target.args, asked, list(cited), budget.left))
        return search(tables, target, asked, cited, budget)

    derivations.TableTarget, derivations.table_derivation = Recording, recording  # type: ignore[misc,assignment]
    try:
        yield calls
    finally:
        derivations.TableTarget, derivations.table_derivation = target_type, search  # type: ignore[misc]


def test_every_devset_question_and_the_benchmark() -> None:
    with _recorded_searches() as calls:
        for case in load_cases():
            for answer in (case["answer"], case["corrupted_answer"]):
                score(answer, case["evidence"], user_prompt=case["user_prompt"])
        score(TABLE_ANSWER, [income_table()])
    results = [_assert_derivation_agrees(*call) for call in calls]
    found = [result for result in results if isinstance(result, tuple)]
    assert len(calls) >= 300 and len(found) >= 150, (len(calls), len(found))
    # A tight budget stops both at the same family.
    for tables, args, asked, cited, _ in calls[:60]:
        for budget in (0, 3, 40):
            _assert_derivation_agrees(tables, args, asked, cited, budget)


words = st.sampled_from(
    ["revenue", "income", "2024", "2023", "operating", "margin", "total", "net", "cost", "x"]
)


@SEARCHES
@given(
    rows=grid,
    caption=st.sampled_from(["", "(In millions)", "€m"]),
    value=st.sampled_from(
        [20.0, 40.0, 220.0, 39.5, 25.0, 1.25, 110.0, 19.5, 100.0, 12.5, 0.8, 5.0, 150.0, -20.0]
    )
    | st.floats(-1e4, 1e4, allow_nan=False),
    text=st.sampled_from(["12.5", "$1.2 million", "3 bn", "40%", "7k", "20"]),
    percent=st.booleans(),
    decrease=st.sampled_from([False, False, True]),
    operations=st.just(set(OPERATIONS)) | st.sets(st.sampled_from(OPERATIONS), min_size=1),
    currency=st.sampled_from([None, "USD", "EUR"]),
    asked=st.frozensets(words, min_size=1, max_size=4),
    cited=st.lists(st.sampled_from([120.0, 100.0, 80.5, 1e8, -20.0]), max_size=2),
    budget=st.sampled_from([10**9, 30]),
    pick=st.integers(0, 10**6),
)
def test_generated_derivations(
    rows: list[list[str]], caption: str, value: float, text: str, percent: bool, decrease: bool,
    operations: set[str], currency: str | None, asked: frozenset[str], cited: list[float], budget: int,
    pick: int,
) -> None:  # fmt: skip
    tables = [
        t
        for grid_rows, cap in text_tables(_markdown(rows), None)
        if (t := make_table(grid_rows, SOURCE, caption + cap))
    ]
    cells = [cell for table in tables for cell in table.cells]
    if len(cells) >= 2 and pick % 4:  # most targets are a result two cells give, the words their row's
        first, second = cells[pick % len(cells)], cells[pick // 7 % len(cells)]
        value = (first.value - second.value, first.value + second.value, first.value / (second.value or 1.0))[
            pick % 3
        ]
        asked = asked | tokens(first.label)
    args = (
        value,
        0.05,
        min(0.05, abs(value) / 1e6),
        text,
        percent,
        decrease,
        frozenset(operations),
        currency,
    )
    _assert_derivation_agrees(tables, args, asked, cited, budget)
