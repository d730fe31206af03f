"""Extraction of hard-data atoms (money, percent, number, date, identifier) from text."""

from __future__ import annotations

import datetime
from collections.abc import Collection

from otel_groundedness.scoring.atoms import ATOM_KINDS, Atom, AtomKind
from otel_groundedness.scoring.extract.grammar import grammar_for
from otel_groundedness.scoring.extract.locales import SUPPORTED_LOCALES, pack_for
from otel_groundedness.scoring.extract.scanner import Scan

__all__ = ["SUPPORTED_LOCALES", "extract_atoms"]


def extract_atoms(
    text: str,
    *,
    locale: str = "en-US",
    min_number_digits: int = 4,
    kinds: Collection[AtomKind] = ATOM_KINDS,
    anchor: datetime.date | None = None,
) -> list[Atom]:
    """Atoms of ``text`` sorted by start, non-overlapping, with ``text[a.start:a.end] == a.text``.

    Where candidates overlap, the higher kind wins: identifier > date > money > percent > number.
    ``kinds`` filters the result after that choice, so a disabled kind still shadows the others
    (a phone number never turns into three numbers). Bare numbers with fewer than
    ``min_number_digits`` digits are skipped; money, percents and figures with a magnitude or a
    unit are kept whatever their length. Relative dates ("yesterday", "3 days ago") are read only
    when ``anchor`` is given. Raises ``ValueError`` for an unsupported locale, unknown kinds or a
    negative digit floor; never raises because of the text itself.
    """
    pack = pack_for(locale)
    if min_number_digits < 0:
        raise ValueError(f"min_number_digits must be >= 0, got {min_number_digits}")
    wanted = frozenset(kinds)
    unknown = wanted.difference(ATOM_KINDS)
    if unknown:
        raise ValueError(f"unknown atom kinds {sorted(unknown)}; known: {', '.join(ATOM_KINDS)}")
    grammar = grammar_for(pack, anchor is not None, min(min_number_digits, 4))
    atoms = Scan(text, pack, grammar, min_number_digits, anchor).run()
    if len(wanted) < len(ATOM_KINDS):
        atoms = [atom for atom in atoms if atom.kind in wanted]
    return atoms
