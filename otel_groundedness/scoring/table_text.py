"""Table readers for text: markdown pipe tables, CSV and TSV blocks, HTML ``<table>`` fragments.

Each gives grids of ``RawCell`` with the cell's offsets in the text, and the text just above the
table (its caption, read for a scale note). One linear pass over the lines (HTML: over the
``<table>`` matches), no recursion; at most ``MAX_TABLES`` grids and ``MAX_TABLE_CELLS`` cells each.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from otel_groundedness.scoring.corpus import Path
from otel_groundedness.scoring.tables import MAX_TABLE_CELLS, MAX_TABLES, RawCell

Grid = list[list[RawCell]]
_CAPTION_CHARS = 200
_SEPARATOR_ROW = re.compile(r"\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*")
_HTML_TABLE = re.compile(r"<table\b.{0,200000}?</table>", re.IGNORECASE | re.DOTALL)
_HTML_ROW = re.compile(r"<tr\b[^>]*>(.*?)(?=<tr\b|</table>|$)", re.IGNORECASE | re.DOTALL)
_HTML_CELL = re.compile(r"<t([hd])\b([^>]*)>(.*?)(?=<t[hd]\b|</tr>|$)", re.IGNORECASE | re.DOTALL)
_COLSPAN = re.compile(r"colspan\s*=\s*[\"']?(\d{1,2})", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_CAPTION = re.compile(r"<caption\b[^>]*>(.*?)</caption>", re.IGNORECASE | re.DOTALL)


_HTML_OPEN = re.compile(r"<table\b", re.IGNORECASE)


def may_hold_table(text: str) -> bool:
    """A cheap test before reading: a pipe, tab or comma and two lines, or a ``<table``."""
    if "\n" in text and ("|" in text or "\t" in text or "," in text):
        return True
    return "<" in text and _HTML_OPEN.search(text) is not None


def text_tables(text: str, path: Path) -> Iterator[tuple[Grid, str]]:
    """Every table in ``text`` (the string at ``path``), with its caption."""
    found = 0
    if _HTML_OPEN.search(text):
        for grid, caption in _html_tables(text, path):
            yield grid, caption
            found += 1
            if found >= MAX_TABLES:
                return
        return
    lines = _lines(text)
    position = 0
    while position < len(lines) and found < MAX_TABLES:
        block_end = position + _run_length(text, lines, position)
        if block_end - position >= 2:
            line_start = lines[position][0]
            caption = text[max(0, line_start - _CAPTION_CHARS) : line_start]
            grid = _grid(text, lines[position:block_end], path)
            if grid:
                yield grid, caption
                found += 1
            position = block_end
        else:
            position += 1


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line."""
    spans = []
    start = 0
    for match in re.finditer(r"\r?\n", text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


def _kind(line: str) -> str | None:
    stripped = line.strip(" \r")  # not tabs: a TSV row of empty cells ends in them
    if stripped.count("|") >= 2 or (stripped.startswith("|") and "|" in stripped[1:]):
        return "|"
    if "\t" in stripped:
        return "\t"
    if "," in stripped:
        return ","
    return None


def _run_length(text: str, lines: list[tuple[int, int]], position: int) -> int:
    """How many lines from ``position`` on are rows of one table: pipe rows, or delimited rows
    with as many fields as the first (a CSV header and its records)."""
    first = text[lines[position][0] : lines[position][1]]
    kind = _kind(first)
    if kind is None:
        return 0
    count = _field_count(first, kind) if kind != "|" else 0
    length = 0
    for start, end in lines[position:]:
        line = text[start:end]
        if not line.strip() or _kind(line) != kind:
            break
        if kind != "|" and _field_count(line, kind) != count:
            break
        length += 1
    return length


def _field_count(line: str, delimiter: str) -> int:
    """``len(_split(line, delimiter, 0))`` without building the cells: a block's extent is found over
    every line of it, while only the first ``MAX_TABLE_CELLS`` cells are ever built."""
    if delimiter == "," and '"' in line:
        return len(_split(line, delimiter, 0))
    return line.count(delimiter) + 1


def _split(line: str, delimiter: str, offset: int) -> list[RawCell]:
    """Fields of a line with their offsets; a CSV field may be quoted ("1,234" is one field)."""
    cells: list[RawCell] = []
    position = 0
    length = len(line)
    while position <= length:
        if delimiter == "," and line[position : position + 1] == '"':
            close = line.find('"', position + 1)
            while close != -1 and line[close + 1 : close + 2] == '"':
                close = line.find('"', close + 2)
            if close == -1:
                close = length
            field_text = line[position + 1 : close].replace('""', '"')
            cells.append(RawCell(field_text, None, offset + position + 1, offset + close))
            following = line.find(delimiter, close)
            position = length + 1 if following == -1 else following + 1
            continue
        following = line.find(delimiter, position)
        end = length if following == -1 else following
        cells.append(RawCell(line[position:end], None, offset + position, offset + end))
        position = end + 1
    return cells


def _grid(text: str, lines: list[tuple[int, int]], path: Path) -> Grid:
    grid: Grid = []
    kind = _kind(text[lines[0][0] : lines[0][1]])
    assert kind is not None
    cells = 0
    for start, end in lines:
        line = text[start:end]
        if kind == "|" and _SEPARATOR_ROW.fullmatch(line):
            continue
        fields = _split(line, kind, start)
        if kind == "|":
            # The outer pipes open and close the row: drop the empty fields they leave.
            if fields and not fields[0].text.strip() and line.lstrip().startswith("|"):
                fields = fields[1:]
            if fields and not fields[-1].text.strip() and line.rstrip().endswith("|"):
                fields = fields[:-1]
        row = [_placed(field, path) for field in fields]
        cells += len(row)
        if cells > MAX_TABLE_CELLS:
            break
        grid.append(row)
    return grid


def _placed(cell: RawCell, path: Path) -> RawCell:
    """The field trimmed, its offsets moved to the trimmed text."""
    raw = cell.text
    lead = len(raw) - len(raw.lstrip())
    text = raw.strip()
    start = (cell.start or 0) + lead
    return RawCell(text, path, start, start + len(text))


def _html_tables(text: str, path: Path) -> Iterator[tuple[Grid, str]]:
    for table in _HTML_TABLE.finditer(text):
        body = table.group()
        offset = table.start()
        caption_match = _CAPTION.search(body)
        caption = text[max(0, offset - _CAPTION_CHARS) : offset]
        if caption_match:
            caption += " " + _TAG.sub(" ", caption_match.group(1))
        grid: Grid = []
        cells = 0
        for row_match in _HTML_ROW.finditer(body):
            row: list[RawCell] = []
            row_start = offset + row_match.start(1)
            for cell_match in _HTML_CELL.finditer(row_match.group(1)):
                content = cell_match.group(3)
                content = re.sub(r"</t[hd]>.*", "", content, flags=re.IGNORECASE | re.DOTALL)
                inner = html.unescape(_TAG.sub(" ", content)).replace("\u00a0", " ")
                clean = " ".join(inner.split())
                start = row_start + cell_match.start(3)
                row.append(RawCell(clean, path, start, start + len(content)))
                span = _COLSPAN.search(cell_match.group(2))
                for _ in range(min(int(span.group(1)), 16) - 1 if span else 0):
                    row.append(RawCell("", path, start, start))
            cells += len(row)
            if cells > MAX_TABLE_CELLS:
                break
            if row:
                grid.append(row)
        if len(grid) >= 2:
            yield grid, caption
