"""Atom pairing of the baseline comparison: same text first, then what is left of a kind, in order."""

from __future__ import annotations

from otel_groundedness.replay.diff import AtomChange, atom_changes
from otel_groundedness.replay.turn_result import AtomOutcome


def _atom(text: str, verdict: str = "supported", kind: str = "money") -> AtomOutcome:
    return AtomOutcome(kind, text, verdict, "exact" if verdict == "supported" else "not_found")


def test_unchanged_atoms_are_not_listed_even_when_repeated_or_reordered() -> None:
    atoms = (_atom("$5"), _atom("$5"), _atom("2025-01-01", kind="date"))
    assert atom_changes(atoms, (atoms[2], atoms[0], atoms[1])) == ()


def test_a_verdict_change_of_the_same_text() -> None:
    before = (_atom("$5"), _atom("$6"))
    after = (_atom("$5"), _atom("$6", "unsupported"))
    assert atom_changes(before, after) == (AtomChange("money", before[1], after[1]),)


def test_a_restated_figure_pairs_with_the_one_it_replaced_and_extra_atoms_stand_alone() -> None:
    before = (_atom("$5"), _atom("$6"), _atom("INV-1", kind="identifier"))
    after = (_atom("$5"), _atom("$7", "contradicted"), _atom("$8", "unsupported"))
    assert atom_changes(before, after) == (
        AtomChange("money", before[1], after[1]),
        AtomChange("money", None, after[2]),
        AtomChange("identifier", before[2], None),
    )


def test_one_of_two_identical_atoms_gone() -> None:
    before = (_atom("$5"), _atom("$5"))
    assert atom_changes(before, before[:1]) == (AtomChange("money", before[1], None),)
