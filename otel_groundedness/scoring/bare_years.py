"""Bare years when judging: a figure written as four digits can be a year and a number at once.

The extractor decides one kind per figure (``scoring/extract/years.py``), but the evidence may
state the same figure in the other form: "1849" in an answer against a death date of
"17 October 1849", or "in 1500 stores" (read as a year) against ``{"stores": 1500}``. Each form is
therefore also looked up as the other, for support only and by exact value. A changed year is
searched among the years one slip away.
"""

from __future__ import annotations

from otel_groundedness.scoring.atoms import Atom, CalendarDate, Quantity

_FIRST_YEAR, _LAST_YEAR = 1000, 2099


def _four_digits(text: str) -> int | None:
    return int(text) if len(text) == 4 and text.isascii() and text.isdigit() else None


def written_year(atom: Atom) -> int | None:
    """The year of a date atom written as four bare digits ("in 1810"), else ``None``."""
    year = _four_digits(atom.text)
    value = atom.value
    if year is None or not isinstance(value, CalendarDate) or value.readings != ((year, None, None),):
        return None
    return year


def year_of_number(atom: Atom, quantity: Quantity) -> int | None:
    """The year a plain four-digit number may also be ("Paris, 1849"), else ``None``."""
    year = _four_digits(atom.text)
    if year is None or atom.kind != "number" or quantity.unit is not None:
        return None
    return year if _FIRST_YEAR <= year <= _LAST_YEAR else None


def slipped_years(year: int) -> list[int]:
    """Years one slip from ``year``, nearest first: one more or less, then one changed digit or
    two adjacent digits swapped (``1810``: 1809, 1811, then 1010...1910, 1800...1890, 1801...)."""
    found: dict[int, None] = {year - 1: None, year + 1: None}
    digits = str(year)
    for i, current in enumerate(digits):
        for digit in "0123456789":
            if digit != current and (i or digit != "0"):
                found[int(digits[:i] + digit + digits[i + 1 :])] = None
        if i + 1 < len(digits) and (i or digits[1] != "0") and digits[i] != digits[i + 1]:
            found[int(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :])] = None
    found.pop(year, None)
    return list(found)
