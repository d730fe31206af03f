"""Differential cases for the native word, digit and derivation-cue leaves: each check runs the
Python function (the oracle) and its native port on the same input and returns a description of
the first disagreement, or None.

Inputs come from the dev sets (every answer, question and evidence text, sliced at every
figure-like position; every JSON key and number) and from seeded random text over adversarial
alphabets. ``python -m tests.native.words_cases --cases N --seed S`` runs N random cases.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import struct
import sys
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from otel_groundedness import _native
from otel_groundedness.scoring import derivation_cues, digits, label_words, table_text, tables, units

ROOT = Path(__file__).resolve().parents[2]
DEVSET_FILES = (
    *sorted((ROOT / "tests" / "data" / "devset").glob("*.jsonl")),
    ROOT / "tests" / "scoring" / "devset" / "tables.jsonl",
)
_FIGURE = re.compile(r"[-−(]?[$€£¥]?\d[\d,.]*(?:%|[kKmMbB]n?\b)?\)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")

Check = Callable[..., "str | None"]


def _exact(value: Any) -> Any:
    """``value`` with each float as its bits: NaN equals NaN, -0.0 differs from 0.0."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value).hex())
    if isinstance(value, tuple | list):
        return type(value)(_exact(item) for item in value)
    return value


def _differs(name: str, args: tuple[Any, ...], python: Any, native: Any) -> str | None:
    if _exact(python) == _exact(native):
        return None
    return f"{name}{args!r}: python {python!r} != native {native!r}"


# ---------------------------------------------------------------------------------------- checks


def check_words(text: str) -> str | None:
    return _differs("words", (text,), label_words.words(text), _native.words(text))


def check_singular(word: str) -> str | None:
    return _differs("_singular", (word,), label_words._singular(word), _native.singular(word))


def check_window_words(text: str, start: int, end: int, lower: int, upper: int | None) -> str | None:
    args = (text, start, end, lower, upper)
    return _differs("window_words", args, label_words.window_words(*args), _native.window_words(*args))


def check_json_words(keys: list[str], siblings: dict[str, Any] | None) -> str | None:
    pairs = None if siblings is None else [(k, v) for k, v in siblings.items() if isinstance(v, str)]
    python = label_words.json_words(keys, siblings)
    return _differs("json_words", (keys, siblings), python, _native.json_words(keys, pairs))


def check_atom_context(
    text: str,
    start: int,
    end: int,
    sentence: tuple[int, int],
    neighbours: tuple[int, int],
    previous: tuple[int, int] | None,
) -> str | None:
    args = (text, start, end, sentence, neighbours, previous)
    context = label_words.AtomContext(*args)
    python = (
        context.sentence_text(),
        context.beyond_window(),
        context.previous_text(),
        context.previous_question(),
        context.words(),
        context.window_text(True),
        context.window_text(False),
        context.states_decrease(),
        context.names_decrease(),
    )
    return _differs("AtomContext", args, python, _native.atom_context(*args))


def _outcome(call: Callable[[], Any]) -> Any:
    """A call's value, or the type of the error it raised (the port raises the same)."""
    try:
        return call()
    except (OverflowError, ValueError, KeyError) as error:
        return type(error).__name__


def _centers(run: tuple[Any, float, float]) -> tuple[Any, float, float]:
    centers, unit, reach = run
    return (
        (centers.start, centers.stop, centers.step) if isinstance(centers, range) else centers,
        unit,
        reach,
    )


def check_units(key: str, value: float, unit: str, target: str) -> str | None:
    return (
        _differs("dimension", (unit,), units.dimension(unit), _native.unit_dimension(unit))
        or _differs("key_unit", (key,), units.key_unit(key), _native.key_unit(key))
        or _differs("key_magnitude", (key,), units.key_magnitude(key), _native.key_magnitude(key))
        or _differs(
            "in_unit",
            (value, unit, target),
            units.in_unit(value, unit, target),
            tuple(_native.in_unit(value, unit, target)),
        )
    )


def check_mantissa(value: float) -> str | None:
    python = digits.mantissa(value)
    return _differs("mantissa", (value,), None if python is None else tuple(python), _native.mantissa(value))


def check_digit_edits(mantissa: tuple[str, int], other: float) -> str | None:
    """variants, variant_windows, value_of and half_unit of a mantissa, relation to ``other``."""
    reduced = digits.Mantissa(*mantissa)
    python_variants = [(v.digits, v.reason, list(v.exponents)) for v in digits.variants(reduced)]
    python_windows = _outcome(lambda: digits.variant_windows(reduced))
    if not isinstance(python_windows, str):
        python_windows = (
            [_centers(run) for run in python_windows.runs],
            python_windows.firsts,
            python_windows.lasts,
        )
    mismatch = (
        _differs("variants", mantissa, python_variants, _native.digit_variants(*mantissa))
        or _differs(
            "variant_windows", mantissa, python_windows, _outcome(lambda: _native.variant_windows(*mantissa))
        )
        or _differs(
            "relation",
            (mantissa, other),
            digits.relation(reduced, other),
            _native.digit_relation(*mantissa, other),
        )
    )
    for negative in (False, True):
        mismatch = (
            mismatch
            or _differs(
                "value_of",
                (*mantissa, negative),
                _outcome(lambda: digits.value_of(*mantissa, negative)),  # noqa: B023
                _outcome(lambda: _native.value_of(*mantissa, negative)),  # noqa: B023
            )
            or _differs(
                "half_unit",
                mantissa,
                _outcome(lambda: digits.half_unit(*mantissa)),
                _outcome(lambda: _native.half_unit(*mantissa)),
            )
        )
    return mismatch


def check_number(value: float, other: float) -> str | None:
    """Every digit check of ``value`` (as an answer figure) against ``other``."""
    found = digits.mantissa(value)
    return check_mantissa(value) or (check_digit_edits(tuple(found), other) if found else None)


def check_operations_in(text: str) -> str | None:
    return _differs(
        "operations_in",
        (text, False),
        set(derivation_cues.operations_in(text, False)),
        _native.operations_in(text, False),
    ) or _differs(
        "operations_in",
        (text, True),
        set(derivation_cues.operations_in(text, True)),
        _native.operations_in(text, True),
    )


def check_cues(
    text: str,
    start: int,
    end: int,
    sentence: tuple[int, int],
    neighbours: tuple[int, int],
    previous: tuple[int, int] | None,
    operations: frozenset[str],
) -> str | None:
    """cued_operations and table_operations (``operations`` and the sentence's) around one atom."""
    args = (text, start, end, sentence, neighbours, previous)
    around = label_words.AtomContext(*args)
    mismatch = None
    for percent in (False, True):
        cued = derivation_cues.cued_operations(around, percent)
        table = derivation_cues.table_operations(operations, around, percent)  # type: ignore[arg-type]
        mismatch = (
            mismatch
            or _differs(
                "cued_operations", (*args, percent), set(cued), _native.cued_operations(*args, percent)
            )
            or _differs(
                "table_operations",
                (operations, *args, percent),
                set(table),
                _native.table_operations(sorted(operations), *args, percent),
            )
        )
    return mismatch


def check_table_text(text: str) -> str | None:
    """The readings of one cell, caption or label: figure, header text, scale note, tokens,
    acronyms, total."""
    return (
        _differs("figure", (text,), tables.figure(text), _native.table_figure(text))
        or _differs("_is_header_text", (text,), tables._is_header_text(text), _native.is_header_text(text))
        or _differs(
            "scale_note",
            (text,),
            _outcome(lambda: tables.scale_note(text)),
            _outcome(lambda: _native.scale_note(text)),
        )
        or _differs("tokens", (text,), set(tables.tokens(text)), _native.table_tokens(text))
        or _differs("acronyms", (text,), set(tables.acronyms(text)), _native.acronyms(text))
        or _differs("_total", (text,), tables._total(text), _native.is_total(text))
    )


def check_table_row(cells: list[str], width: int) -> str | None:
    """A row's header span and label (its cells stripped, as ``make_table`` reads them)."""
    texts = [cell.strip() for cell in cells]
    return _differs(
        "_spanned", (texts, width), tables._spanned(texts, width), _native.spanned(texts, width)
    ) or _differs("_label", (texts,), tables._label(texts), _native.row_label(texts))


def check_table_lines(text: str) -> str | None:
    """Table readings over a whole text (a caption, question or answer), each of its lines, and
    the cells and rows of each line split at pipes, tabs and commas."""
    mismatch = check_table_text(text)
    for line in text.splitlines():
        mismatch = mismatch or check_table_text(line)
        for delimiter in "|\t,":
            cells = line.split(delimiter)
            mismatch = mismatch or check_table_row(cells, len(cells) + 1)
            for cell in cells:
                mismatch = mismatch or check_table_text(cell)
        if mismatch:
            break
    return mismatch


def check_text_tables(text: str) -> str | None:
    """may_hold_table, and every table text_tables reads: cells (text, start, end) and caption."""

    def python() -> list[tuple[list[list[tuple[str, int | None, int | None]]], str]]:
        found = table_text.text_tables(text, ("evidence",))
        return [
            ([[(c.text, c.start, c.end) for c in row] for row in grid], caption) for grid, caption in found
        ]

    return _differs(
        "may_hold_table", (text,), table_text.may_hold_table(text), _native.may_hold_table(text)
    ) or _differs("text_tables", (text,), _outcome(python), _outcome(lambda: _native.text_tables(text)))


# ----------------------------------------------------------------------------- atoms of a text


def atom_spans(text: str) -> list[tuple[int, int]]:
    """Figure-like spans of ``text`` (where the engine would find atoms)."""
    return [match.span() for match in _FIGURE.finditer(text)]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


Span = tuple[int, int]


def contexts(text: str) -> Iterator[tuple[int, int, Span, Span, Span | None]]:
    """(start, end, sentence, neighbours, previous sentence) of every figure-like span, as the
    scorer builds an ``AtomContext``."""
    atoms = atom_spans(text)
    sentences = sentence_spans(text)
    for index, (start, end) in enumerate(atoms):
        number = next((i for i, (low, high) in enumerate(sentences) if low <= start <= high), 0)
        sentence = sentences[number] if sentences else (0, len(text))
        before = atoms[index - 1][1] if index else 0
        after = atoms[index + 1][0] if index + 1 < len(atoms) else len(text)
        previous = sentences[number - 1] if number > 0 else None
        yield start, end, sentence, (before, after), previous


def check_text(text: str) -> str | None:
    """Every word check over ``text``: words and operations named, and the windows, contexts and
    cued operations of its figures."""
    mismatch = check_words(text) or check_operations_in(text)
    for start, end, sentence, neighbours, previous in contexts(text):
        mismatch = (
            mismatch
            or check_window_words(text, start, end, 0, None)
            or check_window_words(text, start, end, sentence[0], sentence[1])
            or check_window_words(text, start, end, *neighbours)
            or check_atom_context(text, start, end, sentence, neighbours, previous)
            or check_cues(text, start, end, sentence, neighbours, previous, frozenset({"sum"}))
        )
        if mismatch:
            break
    return mismatch


# ------------------------------------------------------------------------------- dev-set corpus


def _walk(value: Any, keys: tuple[str, ...], out: dict[str, list[Any]]) -> None:
    stack: list[tuple[Any, tuple[str, ...], Any]] = [(value, keys, None)]
    while stack:
        node, path, record = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                out["keys"].append(key)
                stack.append((child, (*path, key), node))
        elif isinstance(node, list):
            stack.extend((child, path, record) for child in node)
        elif isinstance(node, str):
            out["texts"].append(node)
            with contextlib.suppress(ValueError):
                stack.append((json.loads(node), path, record))
        elif isinstance(node, int | float) and not isinstance(node, bool):
            out["numbers"].append(float(node))
            if path:
                out["json_values"].append((list(path), record))


@cache
def devset() -> dict[str, list[Any]]:
    """Texts (answers, questions, evidence strings), JSON keys, numbers and (keys, record) pairs
    of every dev-set case."""
    out: dict[str, list[Any]] = {"texts": [], "keys": [], "numbers": [], "json_values": []}
    for path in DEVSET_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            for field in ("answer", "corrupted_answer", "user_prompt", "figure", "corrupted_figure"):
                if isinstance(case.get(field), str):
                    out["texts"].append(case[field])
            _walk(case.get("evidence"), (), out)
    for text in list(out["texts"]):
        out["numbers"].extend(float(m.replace(",", "")) for m in re.findall(r"\d[\d,]*(?:\.\d+)?", text)[:50])
    return out


# --------------------------------------------------------------------------------- random text

# Pieces an adversarial text is drawn from: label words, camelCase, plurals, stopwords, decrease and
# change words, non-ASCII letters and digits, case-changing characters, spaces and table fragments.
PIECES = (
    "revenue", "Revenue", "totalRevenue", "grossMarginPct", "HTTPServerError", "XMLHttpRequest",
    "companies", "classes", "watches", "wishes", "boxes", "movies", "caches", "status", "analysis",
    "bus", "gas", "ies", "sses", "che", "niche", "the", "and", "per", "dollars", "Millions",
    "down", "fell", "refund", "decrease", "grew", "to", "rose sharply to", "year over year",
    "year on", "month over", "quarter over", "comes to", "adds up", "account for", "add up to",
    "accounts for",
    "in all", "total", "average", "each", "times", "of", "ratio",
    "=", "+", "/", "÷", "×", "*", "**", "3x", "3 x", "2×", "x", "X",
    "é", "Ü", "straße", "ß", "ẞ", "İstanbul", "İ", "ı", "ǅ", "ΣΟΦΙΑ", "ΟΔΟΣ", "Σ", "ς", "ʰ", "ᾼ",
    "e\u0301", "\u0301", "\u0345", "ﬁnance", "Ⅻ", "²", "½", "٣", "١٢٣", "１２３", "１", "日本語", "収益",
    "\u00a0", "\u2009", "\u3000", "\u200b", "\x1c", "\t", "\n", "\r\n", " ", "  ", "—", "–", "−",
    "$1,234.56", "(1,234)", "€3.2m", "12%", "1.5M", "2024", "FY24", "Q3", "$000s", "(In millions)",
    "1)", "(1)", "[a]", "*", "†", "|", " | ", "|---|", ",", '"', '""', "<td>", "</tr>", "&amp;",
    "?", ".", "!", ":", "-", "_", "'", "`", "0", "7", "42", "3.85", "-89.5", "1e6",
)  # fmt: skip


def random_text(rng: random.Random, max_pieces: int = 24) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, max_pieces)))


def random_offsets(rng: random.Random, text: str) -> tuple[int, int, int, int]:
    """lower <= start <= end <= upper, inside the text."""
    cuts = sorted(rng.randint(0, len(text)) for _ in range(4))
    return cuts[1], cuts[2], cuts[0], cuts[3]


UNITS = (
    "ns", "µs", "μs", "us", "ms", "s", "sec", "min", "h", "d", "mg", "g", "kg", "lb", "oz", "mm",
    "cm", "m", "km", "ft", "mi", "B", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB",
    "TiB", "bps", "kbps", "Kbps", "Mbps", "Gbps", "Hz", "kHz", "MHz", "GHz", "W", "kW", "MW", "GW",
    "Wh", "kWh", "MWh", "GWh", "x", "Ms",
)  # fmt: skip
KEY_PARTS = (
    "weight", "_g", "G", "duration", "Ms", "ms", "size", "MB", "_bytes", "Bytes", "revenue", "_usd",
    "_millions", "InThousands", "HTTPServer", "Http", "P99", "_", "-", "1", "Kbps", "_KiB", "Tn", "bn",
    "é", "İ", "x",
)  # fmt: skip


OPERATIONS = ("sum", "difference", "pct_change", "ratio", "average", "product", "pp_difference")


def random_number(rng: random.Random) -> float:
    """A figure as answers and evidence hold them, with the float edge cases of the digit code."""
    shape = rng.randrange(8)
    if shape == 0:
        return float(rng.randint(0, 10 ** rng.randint(1, 17)))
    if shape == 1:  # a tie at 12 or at 1..15 significant digits
        return float(int(rng.choice("123456789") + "0" * rng.randint(0, 12) + "5") * 10 ** rng.randint(0, 3))
    if shape == 2:
        return rng.choice(
            (0.0, -0.0, 5e-324, 1e-310, 2.2250738585072014e-308, 1e308, 1.7976931348623157e308, 1e307)
        )
    if shape == 3:
        return rng.uniform(-1, 1) * 10.0 ** rng.randint(-330, 308)
    if shape == 4:  # decimal text read as a float ("1243.50", "0.0125")
        text = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 18)))
        point = rng.randint(0, len(text))
        return float((text[:point] or "0") + "." + text[point:]) * rng.choice((1, -1))
    if shape == 5:
        return float(rng.choice(("nan", "inf", "-inf")))
    return round(rng.uniform(0, 10**6), rng.randint(0, 4))


def related_number(rng: random.Random, value: float) -> float:
    """A figure one digit edit from ``value``, scaled, or unrelated."""
    found = digits.mantissa(value)
    if found is None or rng.random() < 0.2:
        return random_number(rng)
    edits = digits.variants(found)
    if not edits:
        return value
    edit = rng.choice(edits)
    try:
        return digits.value_of(edit.digits, rng.choice(edit.exponents), value < 0) * rng.choice(
            (1, 1, 1.0000001, 10)
        )
    except OverflowError:
        return value


CELL_PIECES = (
    "(", ")", "-", "−", "–", "$", "US$", "USD", "usd", "€", "£", "¥", "CHF", "1,234", "1,23", "12,345,678",
    "12.5", ".5", "5.", "0", "7", "%", " ", "  ", "\u00a0", "\x1f", "*", "**", "†", "‡", "(1)", "[a]", "(A)",
    "(ſ)", "[K]", "FY", "fy'", "FY24", "cy", "Q3", "q5", "2024", "1999", "20٢٤", "١٢٣", "１２", "'", "n/a",
    "N/A", "nm", "n.m.", "—", "in", "In ", "millions", "MİLLİONS", "thouſands", "bn", "mn", "m", "k", "K",
    "(in thousands, except per share)", "(In millions)", "('000)", "(000s)", "$000s", "€m", "USD bn",
    "in € millions", "(CHF millions)", "Week 18", "wk 3", "wK 4", "H1", "h 2", "day 12", "month 123",
    "Period 7", "2025-02", "2024-13", "12024-01", "Feb", "Sept", "may", "total", "Total ", "İ", "_",
    "x", "Revenue", "average revenue per account", "a", "b", ".", ",", "\n",
)  # fmt: skip


def random_cell(rng: random.Random, max_pieces: int = 6) -> str:
    return "".join(rng.choice(CELL_PIECES) for _ in range(rng.randint(0, max_pieces)))


TABLE_PIECES = (
    "|", " | ", "||", "|---|", "| --- | :---: |", "|:--|", "-|-", "---", " :-- ", "\t", "\t\t", ",",
    ", ", '"', '""', '"a,b"', '"1,234"', '"x""y"', "\n", "\r\n", "\n\n", "  ", "<table>",
    "<TABLE border=1>", "<table", "</table>", "</TABLE>", "<tr>", "<TR class=x>", "</tr>", "<td>",
    "<TD>", "<th>", "<th colspan=3>", "<td colspan='2'>", "<td colspan=99>",
    '<th colspan="16">', "<td colspan=17>", '<td COLſPAN = "١٢">', "</td>", "</th>",
    "<thead>", "<tbody>", "<caption>", "<caption>(In millions)</caption>", "</caption>", "<b>", "</b>",
    "<br/>", "<", ">", "&amp;", "&nbsp;", "&lt", "&#8212;", "&#x2014;", "&#0;", "&#128;", "&#xD800;",
    "&notit;", "&ampx", "&", "\u00a0",
)  # fmt: skip


def random_table_text(rng: random.Random) -> str:
    """A fragment of markdown, CSV, TSV or HTML tables with cells from ``CELL_PIECES``."""
    pieces = []
    for _ in range(rng.randint(0, 40)):
        pool = TABLE_PIECES if rng.random() < 0.5 else CELL_PIECES
        pieces.append(rng.choice(pool))
    return "".join(pieces)


def random_grid_text(rng: random.Random) -> str:
    """A well-formed table of one form, ragged rows and all, with a caption above it."""
    rows = [[random_cell(rng, 3) for _ in range(rng.randint(1, 5))] for _ in range(rng.randint(1, 6))]
    caption = random_cell(rng, 3) + rng.choice(("\n", "\n\n", ""))
    form = rng.choice(("markdown", "csv", "tsv", "html"))
    if form == "html":
        cells = ("<td>{}</td>", "<td>{}", "<th>{}</th>", "<td colspan=2>{}</td>", "<th colspan=99>{}")
        cell = rng.choice(cells)
        body = "".join(
            "<tr>" + "".join(cell.format(c) for c in row) + rng.choice(("</tr>", "")) for row in rows
        )
        return caption + "<table>" + body + rng.choice(("</table>", "")) + random_cell(rng, 2)
    delimiter = {"markdown": " | ", "csv": ",", "tsv": "\t"}[form]
    lines = [delimiter.join(row) for row in rows]
    if form == "markdown":
        lines = ["| " + line + " |" for line in lines]
        lines.insert(min(1, len(lines)), "|---|---|")
    return caption + rng.choice(("\n", "\r\n")).join(lines)


def random_case(rng: random.Random) -> str | None:
    """One random case of one check family."""
    family = rng.randrange(14)
    if family == 12:
        return check_text_tables(random_table_text(rng))
    if family == 13:
        return check_text_tables(random_grid_text(rng))
    if family == 10:
        return check_table_text(random_cell(rng))
    if family == 11:
        cells = [random_cell(rng, 3) for _ in range(rng.randint(0, 6))]
        return check_table_row(cells, rng.randint(0, 8))
    if family == 5:
        key = "".join(rng.choice(KEY_PARTS) for _ in range(rng.randint(0, 5)))
        return check_units(key, random_number(rng), rng.choice(UNITS), rng.choice(UNITS))
    if family == 6:
        value = random_number(rng)
        return check_number(value, related_number(rng, value))
    if family == 7:
        mantissa = (
            "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 17))),
            rng.randint(-330, 330),
        )
        return check_mantissa(random_number(rng)) or check_digit_edits(mantissa, random_number(rng))
    text = random_text(rng)
    if family == 0:
        return check_words(text)
    if family == 1:
        return check_singular(label_words._CAMEL_BOUNDARY.sub("", text).lower()[: rng.randint(0, 12)])
    start, end, lower, upper = random_offsets(rng, text)
    if family == 2:
        return check_window_words(text, start, end, lower, rng.choice((upper, None)))
    if family == 3:
        keys = [random_text(rng, 4) for _ in range(rng.randint(0, 3))]
        siblings = {rng.choice(("name", "label", "type", "description", "value")): random_text(rng, 6)}
        return check_json_words(keys, rng.choice((siblings, None)))
    if family == 8:
        return check_operations_in(text)
    near = sorted(rng.randint(0, len(text)) for _ in range(2))
    previous = sorted(rng.randint(0, lower) for _ in range(2)) if rng.random() < 0.7 else None
    args = (text, start, end, (lower, upper), (near[0], near[1]), tuple(previous) if previous else None)
    if family == 9:
        operations = frozenset(rng.sample(OPERATIONS, rng.randint(0, 3)))
        return check_cues(*args, operations)  # type: ignore[arg-type]
    return check_atom_context(*args)  # type: ignore[arg-type]


def run(cases: int, seed: int) -> int:
    """Run ``cases`` random cases; print cases/sec and the first mismatch; return the mismatches."""
    rng = random.Random(seed)
    mismatches = 0
    first = None
    began = time.perf_counter()
    for _ in range(cases):
        found = random_case(rng)
        if found:
            mismatches += 1
            first = first or found
    elapsed = time.perf_counter() - began
    print(f"{cases} cases, {mismatches} mismatches, {cases / elapsed:,.0f} cases/s (seed {seed})")
    if first:
        print("first mismatch:", first)
    return mismatches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    sys.exit(1 if run(arguments.cases, arguments.seed) else 0)


if __name__ == "__main__":
    main()
