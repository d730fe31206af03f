"""Tables in evidence: a grid of cells read by one of the form readers, made into rows and columns.

A reader (``table_text`` for markdown, CSV/TSV and HTML; ``table_json`` for JSON arrays of rows
and records) gives a grid: rows of ``RawCell`` (text and where it sits). ``make_table`` reads it
the way a person reads an annual-report table: leading rows without figures (years allowed) are
headers, and a later such row starts a new block with its own headers; an empty upper header cell
spans from its left neighbour ("Year Ended December 31," over three years); the first non-numeric
cell of a row is its label, and a row with a label and no values is a section heading whose words
label the rows under it; an em dash or an empty cell is no value, ``(1,234)`` is negative and
footnote markers (``(1)``, ``*``) are dropped. A scale note ("(In millions)", "$000s", "€m", "in
bn") in the caption or the header cells sets the magnitude of every figure, except in per-share
and percent rows and columns.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from otel_groundedness.scoring.corpus import Path, Source
from otel_groundedness.scoring.label_words import words

# Caps: a table reader never makes more than this many cells of one table, nor more tables per call.
MAX_TABLE_CELLS = 4096
MAX_TABLES = 64
MAX_CELL_CHARS = 80  # a longer cell is prose, never a figure or a label


@dataclass(frozen=True, slots=True)
class RawCell:
    """A cell as a reader found it: its text and where (offsets in the string at ``path``, or a
    JSON path of its own with no offsets). ``number`` is a JSON number's value."""

    text: str
    path: Path
    start: int | None = None
    end: int | None = None
    number: float | None = None
    currency: str | None = None  # a JSON number's currency, named by its record ("currency": "EUR")
    # The record of a keyed cell: its JSON path names its row and key, and cites it as before.
    record: Mapping[Any, Any] | None = None


@dataclass(frozen=True, slots=True)
class Cell:
    """A figure of a table: ``value`` as written (sign read), ``power`` the scale note's power of
    ten that applies to it (0: none), ``label`` the row label and ``columns`` the column headers,
    top first; ``where`` is where it sits in the evidence item ``source``."""

    value: float
    power: int
    percent: bool
    currency: str | None
    row: int  # row number in its table
    column: int
    label: str
    columns: tuple[str, ...]
    year: int | None  # the latest year its column headers name: orders a change
    source: Source
    where: RawCell

    def cited(self) -> str:
        """``Operating income / 2024 (Cloud)``: the row label, the lowest header, the ones above."""
        if not self.columns:
            return self.label
        head = self.columns[-1]
        above = [text for text in self.columns[:-1] if text]
        return f"{self.label} / {head}" + (f" ({', '.join(above)})" if above else "")


@dataclass(slots=True)
class Table:
    """A table's figures and the label words of its rows and columns (by number)."""

    cells: list[Cell]
    row_words: dict[int, frozenset[str]]
    column_words: dict[int, frozenset[str]]


_DASHES = frozenset({"", "-", "—", "–", "−", "n/a", "na", "nm", "n.m.", "*"})
_FOOTNOTE = re.compile(r"(?<=[\w%)\]])\s*(?:\([a-z0-9]\)|\[[a-z0-9]\]|[*†‡]+)$", re.IGNORECASE)
_FIGURE = re.compile(
    r"(?P<open>\()?\s*(?P<minus>[-−–])?\s*(?P<currency>US\$|[$€£¥]|USD|EUR|GBP|CHF|JPY)?\s*(?P<minus2>[-−])?\s*"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(?P<percent>%)?\s*(?P<close>\))?\s*"
    r"(?P<percent2>%)?"
)
_CURRENCIES = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_YEAR_CELL = re.compile(r"(?:fy|cy|q[1-4])?\s*'?(?:19|20)\d{2}[a-z]?", re.IGNORECASE)
_MONEY = r"(?:us\$|[$€£¥]|usd|eur|gbp|chf|jpy|cad|aud)"
# "(In millions)", "in € millions", "(CHF millions)", "(in CHF m)", "$000s", "€m", "USD bn".
_SCALE = re.compile(
    rf"\bin\s+(?:(?P<symbol1>{_MONEY})\s*)?(?P<word1>thousands|millions|billions|bn|mn|m|k)\b"
    rf"|(?P<symbol2>{_MONEY})\s*'?(?P<word2>000s?|thousands|millions|billions|m|mn|bn|k)\b"
    r"|\(\s*(?P<word3>thousands|millions|billions|'?000s?)(?![\w,.])[^)]{0,40}\)",
    re.IGNORECASE,
)
_POWERS = {
    "thousands": 3,
    "000": 3,
    "000s": 3,
    "k": 3,
    "millions": 6,
    "m": 6,
    "mn": 6,
    "billions": 9,
    "bn": 9,
}
_UNSCALED = re.compile(r"per[\s-]share|per\s+unit|\beps\b|%|percent|margin|ratio|\brate\b", re.IGNORECASE)
_PERCENTISH = re.compile(r"pct|percent|%|\brate\b|_rate|margin|churn|\bshare\b", re.IGNORECASE)
_TOKEN = re.compile(r"(?<![^\W_])(?:fy|cy)?'?((?:19|20)\d{2}|q[1-4])(?![\w])", re.IGNORECASE)
_NUMBERED_PERIOD = re.compile(r"\b(week|wk|month|period|day|h)\s*(\d{1,2})\b", re.IGNORECASE)  # "Week 18"
_SHORT_FISCAL = re.compile(r"\bfy'?(\d{2})\b", re.IGNORECASE)  # "FY24": 2024


def figure(text: str) -> tuple[float, bool, str | None] | None:
    """(value, percent, currency) of a cell's text, or None when it states no figure."""
    cleaned = text.strip()
    if len(cleaned) > MAX_CELL_CHARS or cleaned.lower() in _DASHES:
        return None
    cleaned = _FOOTNOTE.sub("", cleaned)
    match = _FIGURE.fullmatch(cleaned)
    if match is None:
        return None
    value = float(match["digits"].replace(",", ""))
    if (match["open"] and match["close"]) or match["minus"] or match["minus2"]:
        value = -value
    elif match["open"] or match["close"]:
        return None
    code = match["currency"]
    currency = None if code is None else _CURRENCIES.get(code.upper(), code.upper())
    return value, bool(match["percent"] or match["percent2"]), currency


@functools.lru_cache(maxsize=4096)  # headers and keys repeat call after call
def scale_note(text: str) -> tuple[int, str | None] | None:
    """(power of ten, currency) a scale note in ``text`` sets: "(In millions)" (6), "$000s" (3),
    "€m" (6, EUR); None without one."""
    match = _SCALE.search(text)
    if match is None:
        return None
    word = match["word1"] or match["word2"] or match["word3"]
    # "('000)" writes thousands with an apostrophe; a word matched only through a non-ASCII case
    # fold ("MİLLİONS") is no scale word, so no note.
    power = _POWERS.get(word.lower().lstrip("'"))
    if power is None:
        return None
    currency = match["symbol1"] or match["symbol2"]
    return power, _CURRENCIES.get(currency.upper(), currency.upper()) if currency else None


_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_MONTH_WORDS = {name[:3]: name for name in _MONTHS} | {"sept": "september"}
_ISO_MONTH = re.compile(r"(?<!\d)((?:19|20)\d{2})-(0[1-9]|1[0-2])(?!\d)")


def tokens(text: str) -> frozenset[str]:
    """Label words of a label or a question, with the years, quarters and months it names
    ("2025-02" and "Feb" name February)."""
    found = {_MONTH_WORDS.get(word, word) for word in words(text)}
    found.update(token.lower() for token in _TOKEN.findall(text))
    found.update("20" + digits for digits in _SHORT_FISCAL.findall(text))
    found.update(name.lower()[0] + number for name, number in _NUMBERED_PERIOD.findall(text))
    found.update(_MONTHS[int(month) - 1] for _, month in _ISO_MONTH.findall(text))
    return frozenset(found)


def acronyms(text: str) -> frozenset[str]:
    """Initials of runs of three to five words ("average revenue per account": ``arpa``): a key
    abbreviates what a question spells out."""
    initials = [word[0].lower() for word in re.findall(r"[^\W\d_]+", text)]
    return frozenset(
        "".join(initials[start : start + size])
        for size in range(3, 6)
        for start in range(len(initials) - size + 1)
    )


def _is_header_text(text: str) -> bool:
    return figure(text) is None or _YEAR_CELL.fullmatch(text.strip()) is not None


def make_table(grid: list[list[RawCell]], source: Source, caption: str) -> Table | None:
    """The table a grid holds (``caption``: text just above it, read for a scale note), or None
    when it holds no figure under a header."""
    if len(grid) < 2:
        return None
    note = scale_note(caption)
    width = max(len(row) for row in grid)
    headers: list[list[str]] = []
    in_header = True
    section = ""
    cells: list[Cell] = []
    row_words: dict[int, frozenset[str]] = {}
    column_words: dict[int, frozenset[str]] = {}
    columns: list[tuple[str, ...]] = [() for _ in range(width)]
    for number, row in enumerate(grid):
        texts = [cell.text.strip() for cell in row]
        if note is None:
            note = next((found for text in texts if (found := scale_note(text)) is not None), None)
        values = texts[1:]
        header_row = any(values) and all(_is_header_text(text) for text in values)
        if header_row and (in_header or not cells or any(_YEAR.search(text) for text in values)):
            if not in_header:  # a new block repeats its header: its headers replace the old ones
                headers = []
            headers.append(_spanned(texts, width))
            in_header = True
            columns = [tuple(h[c] for h in headers if h[c]) for c in range(width)]
            for column in range(width):
                column_words[column] = tokens(" ".join(columns[column]))
            continue
        in_header = False
        label, first = _label(texts)
        if label is None:
            continue
        if all(not text for text in texts[first + 1 :]):
            if scale_note(label) is None:
                section = label  # a section heading: labels the rows under it
            continue
        own = tokens(label)
        row_words[number] = own | (tokens(section) if section and not _total(label) else frozenset())
        unscaled_row = _UNSCALED.search(label) is not None
        for column in range(first + 1, len(row)):
            cell = row[column]
            heads = columns[column] if column < width else ()
            if cell.number is not None:  # a JSON number: a percent when its labels say so
                named = _PERCENTISH.search(label) or any(_PERCENTISH.search(text) for text in heads)
                read: tuple[float, bool, str | None] | None = (cell.number, bool(named), cell.currency)
            else:
                read = figure(cell.text)
            if read is None:
                continue
            value, percent, currency = read
            unscaled = unscaled_row or percent or any(_UNSCALED.search(text) for text in heads)
            power = 0 if note is None or unscaled else note[0]
            if currency is None and note is not None and not unscaled:
                currency = note[1]
            # The period: named by the column, else by the row or the section above it ("Fiscal 2024").
            years = [int(y) for text in heads for y in _YEAR.findall(text)] or [
                int(y) for y in _YEAR.findall(label) or _YEAR.findall(section)
            ]
            cells.append(
                Cell(
                    value, power, percent, currency, number, column, label, heads,
                    max(years) if years else None, source, cell,
                )
            )  # fmt: skip
            if len(cells) >= MAX_TABLE_CELLS:
                break
        if len(cells) >= MAX_TABLE_CELLS:
            break
    if not cells:
        return None
    return Table(cells, row_words, column_words)


def _spanned(texts: list[str], width: int) -> list[str]:
    """A header row with each empty cell after a filled one taking its text (a spanning header)."""
    filled = texts + [""] * (width - len(texts))
    spanned = list(filled)
    for column in range(2, width):
        if not spanned[column] and spanned[column - 1] and not _YEAR.search(spanned[column - 1]):
            spanned[column] = spanned[column - 1]
    return spanned


def _label(texts: list[str]) -> tuple[str | None, int]:
    """The row's label (its first non-numeric cell) and its column."""
    for column, text in enumerate(texts):
        if text and _is_header_text(text):  # a word, or a period ("2024", "Q1 2025", "2025-02")
            return _FOOTNOTE.sub("", text).strip(), column
        if text:
            return None, 0  # a figure before any label: a row of bare numbers
    return None, 0


def _total(label: str) -> bool:
    return label.lower().startswith("total")
