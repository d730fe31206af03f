"""Split an answer into plain text and atom segments so each atom can be marked with its verdict."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

VERDICT_KEYS = ("supported", "contradicted", "unsupported")


@dataclass(frozen=True, slots=True)
class Segment:
    """A slice of the answer; ``atom`` is the verdict dict when the slice is an atom."""

    text: str
    atom: Mapping[str, Any] | None = None


def atoms_of(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every atom verdict of a report dict, in answer order."""
    atoms = [atom for key in VERDICT_KEYS for atom in report.get(key) or () if isinstance(atom, Mapping)]
    return sorted(atoms, key=lambda atom: (_int(atom.get("start")), _int(atom.get("end"))))


def segments(answer: str, atoms: Iterable[Mapping[str, Any]]) -> Sequence[Segment]:
    """``answer`` cut at the atoms' spans; overlapping or out-of-range atoms stay unmarked."""
    result: list[Segment] = []
    cursor = 0
    for atom in sorted(atoms, key=lambda a: (_int(a.get("start")), _int(a.get("end")))):
        start, end = _int(atom.get("start")), _int(atom.get("end"))
        if start < cursor or end <= start or end > len(answer):
            continue
        if start > cursor:
            result.append(Segment(answer[cursor:start]))
        result.append(Segment(answer[start:end], atom))
        cursor = end
    if cursor < len(answer):
        result.append(Segment(answer[cursor:]))
    return result


def _int(value: Any) -> int:
    return value if isinstance(value, int) else -1
