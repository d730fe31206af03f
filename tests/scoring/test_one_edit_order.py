"""Of several evidence numbers one edit from a ``#ticket``, the smallest is cited: the order is a
rule, not the iteration order of a set of floats (which the native engine could not reproduce)."""

from __future__ import annotations

from otel_groundedness._native import one_edit_numbers
from otel_groundedness.scoring import score


def test_the_smallest_edited_number_is_cited() -> None:
    report = score("Ticket #4521 was escalated.", [{"tickets": [{"ticket": 64521}, {"ticket": 4621}]}])
    (atom,) = report.contradicted
    assert atom.reason == "identifier_edit"
    assert atom.citation is not None and atom.citation.text == "4621"


def test_edited_numbers_come_in_ascending_order() -> None:
    values = one_edit_numbers("4521")
    assert values == sorted(set(values))
    assert {64521.0, 4621.0, 521.0} <= set(values)
