"""The native identifier index answers what ``EvidenceIndex`` answers (every occurrence, the
identifiers one edit away, the identifier an abbreviation extends, each with the budget it
charges), and the one-edit relations of ``scoring/verdicts.py`` agree."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring.atoms import Identifier
from otel_groundedness.scoring.budget import WorkBudget
from otel_groundedness.scoring.corpus import collect
from otel_groundedness.scoring.index import NEAR_MAX_CHARS, EvidenceIndex, Hit
from otel_groundedness.scoring.verdicts import _one_edit_numbers, one_edit_apart

SHAPES = ("ticket", "hash", "email")
# Small alphabets, so near identifiers are common; a few non-ASCII and astral characters.
TEXT = st.text(alphabet="AB12-é\U0001f600\uffff", min_size=0, max_size=8) | st.text(
    alphabet="0123456789ABCDEF", min_size=NEAR_MAX_CHARS - 1, max_size=NEAR_MAX_CHARS + 2
)


def _python(identifiers: list[tuple[str, str]], queries: list[tuple[str, str, str]]) -> list[Any]:
    budget = WorkBudget(100_000)
    index = EvidenceIndex(collect([], None, 1 << 20), lambda text: [], None, budget)
    index._identifier_hits = [
        Hit("identifier", None, Identifier(normalized, shape), float(position))  # type: ignore[arg-type]
        for position, (shape, normalized) in enumerate(identifiers)
    ]
    answers: list[Any] = []
    for kind, shape, text in queries:
        if kind == "exact":
            hits = index.identifiers(shape, text)
        elif kind == "near":
            hits = index.identifiers_near(shape, text)
        else:
            found = index.identifier_extending(shape, text)
            hits = [] if found is None else [found]
        answers.append(([int(hit.number) for hit in hits], budget.left))
    return answers


@settings(max_examples=3000, derandomize=True)
@given(
    st.lists(st.tuples(st.sampled_from(SHAPES), TEXT), max_size=25),
    st.lists(
        st.tuples(st.sampled_from(["exact", "near", "extending"]), st.sampled_from(SHAPES), TEXT), max_size=5
    ),
    st.data(),
)
def test_identifier_lookups_agree(
    identifiers: list[tuple[str, str]], queries: list[tuple[str, str, str]], data: st.DataObject
) -> None:
    # Ask about evidence identifiers too (and their edits), not only random strings.
    if identifiers:
        shape, text = data.draw(st.sampled_from(identifiers))
        swapped, substituted = text[1:2] + text[:1] + text[2:], "A" + text[1:]
        queries = [
            *queries,
            ("near", shape, swapped),
            ("near", shape, substituted),
            ("exact", shape, text),
            ("extending", shape, text[:3]),
        ]
    expected = _python(identifiers, queries)
    assert _native.identifier_queries(identifiers, queries, 100_000) == expected


@settings(max_examples=5000, derandomize=True)
@given(TEXT, TEXT, st.data())
def test_one_edit_apart_agrees(first: str, second: str, data: st.DataObject) -> None:
    edited = first[:1] + first[2:] if data.draw(st.booleans()) else second
    assert _native.one_edit_apart(first, edited) == one_edit_apart(first, edited)


@settings(max_examples=2000, derandomize=True)
@given(st.text(alphabet="0123456789", min_size=1, max_size=15))
def test_one_edit_numbers_agree(digits: str) -> None:
    assert _native.one_edit_numbers(digits) == _one_edit_numbers(digits)
