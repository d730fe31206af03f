"""Sentence spans of an answer: the unit of the sentence rollup and the window for label words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from otel_groundedness.scoring.atoms import Atom

# A run of marks is tried from its first mark only: read from each of its marks in turn, a long
# run not followed by a space would cost its length squared.
_BOUNDARY = re.compile(r"(?<![.!?])[.!?]++(?=\s|$)|\n")
_WORD_BEFORE = re.compile(r"([^\W\d_][\w.]{0,10})$")
# A period after these words (and after dotted tokens such as "U.S" or "e.g") ends no sentence.
_ABBREVIATION_TEXT = (
    "approx ca circa etc vs no nr inc ltd corp co mr mrs ms dr st fig est jan feb mar apr jun jul aug "
    "sep sept oct nov dec mon tue wed thu fri sat sun"
)
_ABBREVIATIONS = frozenset(_ABBREVIATION_TEXT.split())


def sentence_spans(text: str, atoms: Sequence[Atom] = ()) -> list[tuple[int, int]]:
    """Split ``text`` into ``(start, end)`` spans; boundaries inside an atom (``3. März``) are ignored.

    ``atoms`` must be sorted by start (as extraction returns them).
    """
    spans: list[tuple[int, int]] = []
    start = 0
    atom_index = 0
    for match in _BOUNDARY.finditer(text):
        position = match.start()
        while atom_index < len(atoms) and atoms[atom_index].end <= position:
            atom_index += 1
        if atom_index < len(atoms) and atoms[atom_index].start <= position:
            continue
        if match.group() == "." and _is_abbreviation(text, position):
            continue
        spans.append((start, match.end()))
        start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [span for span in spans if text[span[0] : span[1]].strip()]


def _is_abbreviation(text: str, period: int) -> bool:
    word = _WORD_BEFORE.search(text, max(0, period - 12), period)
    if word is None:
        return False
    token = word.group(1)
    return "." in token or token.lower() in _ABBREVIATIONS or len(token) == 1
