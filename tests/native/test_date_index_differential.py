"""The native date index returns what ``EvidenceIndex.dates`` returns: the same evidence readings
(date atoms, raw integers read as years) in the same order, with the same budget charged."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring.atoms import CalendarDate
from otel_groundedness.scoring.budget import WorkBudget
from otel_groundedness.scoring.corpus import collect, render_path
from otel_groundedness.scoring.index import EvidenceIndex, Hit

Reading = tuple[int | None, int | None, int | None]
# Few distinct values, so buckets fill and coarser readings collide with exact ones.
READING = st.tuples(
    st.sampled_from([None, 1810, 2024, 2025]),
    st.sampled_from([None, 3, 4, 12]),
    st.sampled_from([None, 3, 4, 12]),
)
RAW = st.sampled_from([1810, 2025, 2025.0, 999, 2100, 2099, "2025", 1810.5, True])


def _python(
    atoms: list[list[Reading]], raw: list[Any], queries: list[tuple[int, Reading]]
) -> tuple[list[Any], list[tuple[float, bool]]]:
    """The answers of ``EvidenceIndex.dates``, and the corpus scalars as the native index reads them."""
    budget = WorkBudget(100_000)
    corpus = collect([{f"k{i}": value for i, value in enumerate(raw)}], None, 1 << 20)
    index = EvidenceIndex(corpus, lambda text: [], None, budget)
    index._date_atoms = [
        (None, CalendarDate(tuple(readings)), position, 0) for position, readings in enumerate(atoms)
    ]  # type: ignore[misc]
    paths = {render_path(corpus.scalar(i).path): i for i in range(len(corpus.scalar_rows))}

    def entry(hit: Hit) -> tuple[str, int]:
        if hit.kind == "raw":
            return ("scalar", paths[render_path(hit.origin.path)])
        assert hit.start is not None
        return ("atom", hit.start)

    answers = []
    for mask, reading in queries:
        found = [(entry(hit), matched) for hit, matched in index.dates(mask, reading)]
        answers.append((found, budget.left))
    scalars = [
        (value, isinstance(row[2], float))
        for value, row in zip(corpus.scalar_values, corpus.scalar_rows, strict=True)
    ]
    return answers, scalars


@settings(max_examples=3000, derandomize=True)
@given(
    st.lists(st.lists(READING, min_size=1, max_size=2), max_size=20),
    st.lists(RAW, max_size=8),
    st.lists(st.tuples(st.sampled_from([1, 2, 3, 4, 5, 6, 7]), READING), min_size=1, max_size=6),
)
def test_date_lookups_agree(
    atoms: list[list[Reading]], raw: list[Any], queries: list[tuple[int, Reading]]
) -> None:
    expected, scalars = _python(atoms, raw, queries)
    assert _native.date_queries(atoms, scalars, queries, 100_000) == expected
