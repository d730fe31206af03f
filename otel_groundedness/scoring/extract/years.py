"""Bare years and year ranges: when a four-digit figure is a year, and what a range's second half is.

A bare four-digit figure from 1900 to 2099 is a year wherever it stands (the scanner's rule). From
1000 to 1899 it is a year only in a year context: right after an opening parenthesis (``(1810)``),
after a year word (``in``, ``since``, ``born``, ``circa``...), or inside a range with another year;
elsewhere it is a number, so ``1500 units`` stays a quantity. A range (``1810–1865``, ``1810 --
1865``, ``2007-08``, ``2019–21``) is two years. A hyphenated ``YYYY-MM`` with a month number is an
ISO year-month, except when the two digits are the next year (``2007-08``, a season or fiscal year).
"""

from __future__ import annotations

import re

# Words after which a four-digit figure from 1000 to 1899 is a year ("in 1810", "(b. 1810)").
_YEAR_WORD = re.compile(
    r"(?<![\w.])(?:in|since|until|till|circa|c\.|ca\.|born|died|b\.|d\.|year)[ \u00a0]\Z", re.IGNORECASE
)
_YEAR_WORD_REACH = 7  # the longest year word and its space


def in_year_context(text: str, start: int, floor: int) -> bool:
    """Whether the figure at ``text[start:]`` follows "(" or a year word (nothing before ``floor``)."""
    if start <= floor:
        return False
    if text[start - 1] == "(":
        return True
    return _YEAR_WORD.search(text, max(floor, start - _YEAR_WORD_REACH), start) is not None


def range_end(first: int, written: str) -> int | None:
    """The year a range from ``first`` ends in, written ``written`` (two or four digits); ``None``
    when the pair is no range of years. (Round pairs before 1900, "1200-1500 words", never get
    here: the grammar reads them as quantities.)"""
    if len(written) == 4:
        last = int(written)
        if first >= 1900 and last >= 1900:
            return last  # "2024-2020" was read as two years before ranges were checked: kept
        return last if last > first else None
    tail = int(written)
    century, within = divmod(first, 100)
    if tail > within:
        return century * 100 + tail  # "2019–21", "1812–15"
    if within == 99 and tail == 0:
        return (century + 1) * 100  # "1999–00"
    return None


def iso_month(first: int, separator: str, written: str) -> int | None:
    """The month of ``YYYY-MM`` read as an ISO year-month (``separator``: exactly what stands between
    the two, so a spaced or dashed pair is never one), or ``None``."""
    if separator != "-" or len(written) != 2 or not 1900 <= first <= 2099:
        return None
    month = int(written)
    if not 1 <= month <= 12 or month == (first + 1) % 100:
        return None  # "2007-08": the next year's two digits, a season or fiscal year
    return month
