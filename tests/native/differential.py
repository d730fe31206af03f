"""Differential runs of the native engine against the Python oracle, one slice at a time.

    python -m tests.native.differential extract --cases 200000 --seed 1
    python -m tests.native.differential stated|sentences|bare_years|evidence|words --cases 50000
    python -m tests.native.differential all --cases 100000      # every slice (make fuzz-native)

Each slice registers how to generate a case from a seeded ``random.Random``, how to compare the
two engines on it (``None`` when they agree, else both results), and how to shrink a case; the
runner prints cases per second, the mismatch count and the first mismatch, minimised.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import random
import struct
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from otel_groundedness import _native
from otel_groundedness.scoring import bare_years
from otel_groundedness.scoring.atoms import ATOM_KINDS, Atom, CalendarDate, Identifier, Quantity
from otel_groundedness.scoring.extract import SUPPORTED_LOCALES, extract_atoms
from otel_groundedness.scoring.extract.locales import PACKS
from otel_groundedness.scoring.sentences import sentence_spans
from otel_groundedness.scoring.stated_figures import stated_figures

Mismatch = tuple[Any, Any]


@dataclass(frozen=True)
class Slice:
    """How one slice is compared: a case generator, a comparison and a shrinker."""

    generate: Callable[[random.Random], Any]
    compare: Callable[[Any], Mismatch | None]
    shrink: Callable[[Any], Iterator[Any]]


# Extraction ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExtractCase:
    text: str
    locale: str = "en-US"
    min_number_digits: int = 4
    kinds: tuple[str, ...] = ATOM_KINDS
    anchor: datetime.date | None = None


def _fields(atom: Atom) -> tuple[object, ...]:
    value = atom.value
    if isinstance(value, Quantity):
        return (value.value, value.tolerance, value.digits, value.currency, value.unit, value.hedged)
    if isinstance(value, CalendarDate):
        return (value.readings,)
    assert isinstance(value, Identifier)
    return (value.normalized, value.shape)


def _exact(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row with its floats as their bits (so -0.0 and 0.0, or two NaNs, are told apart)."""
    kind, text, start, end, fields = row
    bits = tuple(struct.pack("<d", f) if isinstance(f, float) else f for f in fields)
    return (kind, text, start, end, bits)


def oracle_rows(case: ExtractCase) -> list[tuple[Any, ...]] | str:
    try:
        atoms = extract_atoms(
            case.text,
            locale=case.locale,
            min_number_digits=case.min_number_digits,
            kinds=case.kinds,  # type: ignore[arg-type]
            anchor=case.anchor,
        )
    except ValueError:
        return "ValueError"
    return [_exact((a.kind, a.text, a.start, a.end, _fields(a))) for a in atoms]


def native_rows(case: ExtractCase) -> list[tuple[Any, ...]] | str:
    try:
        rows = _native.extract_atoms(
            case.text, case.locale, case.min_number_digits, list(case.kinds), case.anchor
        )
    except ValueError:
        return "ValueError"
    return [_exact(row) for row in rows]


def compare_extract(case: ExtractCase) -> Mismatch | None:
    expected, got = oracle_rows(case), native_rows(case)
    return None if expected == got else (expected, got)


def shrink_extract(case: ExtractCase) -> Iterator[ExtractCase]:
    """Shorter texts: halves, then chunks and single characters removed."""
    text = case.text
    size = len(text)
    chunk = size // 2
    while chunk >= 1:
        for start in range(0, size, chunk):
            yield ExtractCase(text[:start] + text[start + chunk :], *_options(case))
        chunk //= 2


def _options(case: ExtractCase) -> tuple[str, int, tuple[str, ...], datetime.date | None]:
    return (case.locale, case.min_number_digits, case.kinds, case.anchor)


def _any_case(words: Sequence[str]) -> list[str]:
    return [spelling for word in words for spelling in (word, word.capitalize(), word.upper())]


_MONTHS = sorted({month for pack in PACKS.values() for month in pack.months})
_WORDS = sorted(
    {
        word
        for pack in PACKS.values()
        for table in (pack.magnitudes, pack.percent_words, pack.relative_days, pack.day_units)
        for word in table
    }
    | {hedge for pack in PACKS.values() for hedge in pack.hedges}
    | {"ago", "in", "vor", "il y a", "dans", "of", "on", "by", "may", "to", "since", "born", "c.", "year"}
)
# Pieces that start, continue or break atoms; joined at random they reach the grammar's corners.
PIECES: tuple[str, ...] = (
    *"0123456789" * 6,
    *"0123456789" * 2,
    "12", "345", "2024", "1999", "1850", "1500", "0042", "1,234", "12,345.67", "1.234,5", "1 234",
    "1\u00a0234", "1\u202f234,5", ".", ",", ",", "-", "−", "+", "/", ":", "%", "#", "(", ")", "( ", " )",
    "~", "≈", "–", "—", "--", "'", "’", "@", "_", "&", "\n", " ", " ", " ", " ", "\u00a0", "\u202f", "\t",
    "$", "€", "£", "¥", "₹", "₩", "US$", "C$", "HK$", "A$", "USD", "EUR", "RMB", "GBP", "CHF",
    "k", "K", "M", "B", "bn", "mln", "m", "mm", "MM", "Mn", "b", "s", "h", "x", "ms", "µs", "kg", "°C",
    "MB", "GiB", "bps", "bp", "pp", "pts", "per cent", "basis points", "percentage points",
    "st", "nd", "rd", "th", "er", "T", "Z", "a", "rc", "v", "V", "e", "f", "A", "F", "abc", "dead",
    "INV-", "PROJ-", "ISO-", "SHA", "KX", "ABC", "FY", "COVID-", "ORD-2024-", "#45", "(555) ",
    "+1 ", "+44 20 ", "192.168.", "10.0.0.", "v1.2.", "1.2.3", "2.0b1", "3.1rc2",
    "f47ac10b-58cc-4372-a567-0e02b2c3d479", "a3f5c9d", "deadbeef12", "2025-04-15", "2025-04-15T14:05:00Z",
    "2025-01", "2007-08", "1810–1865", "03/04/2025", "15.04.25", "2019 - 21",
    "https://", "http://", "www.", "example.com", "x.org/a_(b)", "mail.", "user@", "a.b@c.de",
    "é", "ß", "İ", "ı", "ſ", "K", "Σ", "ς", "ä", "ü", "ñ", "ø", "ǅ", "Ⓐ", "²", "½", "Ⅻ", "一",
    "!", "?", "?!", "...", "e.g.", "U.S.", "etc", "Fig", "No", "vs", "Mr", "\n\n",
    "\u0301", "\u0307", "\u200b", "０", "１", "９", "٣", "۵", "߂", "𝟙", "😀", "🇫🇷", "\x1e", "\x0b",
    *_any_case(_MONTHS),
    *_any_case(_WORDS),
)  # fmt: skip
SEPARATORS: tuple[str, ...] = ("", "", "", " ", " ", "\u00a0", ", ", ". ", "-", "/", "\n", "(", ")")


def random_text(rng: random.Random, pieces: int) -> str:
    return "".join(rng.choice(PIECES) + rng.choice(SEPARATORS) for _ in range(pieces))


KIND_SUBSETS: tuple[tuple[str, ...], ...] = (
    ATOM_KINDS,
    ATOM_KINDS,
    ("money", "percent", "number"),
    ("date",),
    ("identifier", "number"),
    (),
)
ANCHORS: tuple[datetime.date | None, ...] = (
    None,
    datetime.date(2025, 4, 15),
    datetime.date(1, 1, 3),
    datetime.date(9999, 12, 30),
)


# Characters of figures, dates and identifiers, for soups where every position is a candidate.
SOUP = "0123456789" * 4 + ",.,.:/-–—%$€£#@+()kMBbmsxTZaev '\u00a0\u202f\n_&~≈²٣１İıſΣé"


def random_soup(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(SOUP) for _ in range(size))


def generate_extract(rng: random.Random) -> ExtractCase:
    """Piece joins (short or long, so windows and floors are crossed) or a character soup."""
    shape = rng.random()
    if shape < 0.6:
        text = random_text(rng, rng.randint(1, 40))
    elif shape < 0.8:
        text = random_text(rng, rng.randint(40, 200))
    else:
        text = random_soup(rng, rng.randint(1, 120))
    return ExtractCase(
        text,
        rng.choice(SUPPORTED_LOCALES),
        rng.choice((0, 1, 2, 3, 4, 4, 4, 5, 7)),
        rng.choice(KIND_SUBSETS),
        rng.choice(ANCHORS),
    )


def texts_of(value: object) -> Iterator[str]:
    """Every text a JSON value holds (strings, keys, numbers as written) and its JSON text."""
    if isinstance(value, str):
        yield value
        return
    with contextlib.suppress(RecursionError):  # nested deeper than json writes: its leaves still count
        yield json.dumps(value, ensure_ascii=False)
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield from (str(key) for key in item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif item is not None:
            yield str(item)


# Sentences and bare years (they read atoms only) --------------------------------------------


def _oracle_atoms(case: ExtractCase) -> list[Atom]:
    return extract_atoms(
        case.text,
        locale=case.locale,
        min_number_digits=case.min_number_digits,
        kinds=case.kinds,  # type: ignore[arg-type]
        anchor=case.anchor,
    )


def compare_sentences(case: ExtractCase) -> Mismatch | None:
    """Spans with the case's atoms and with none (as operand families read evidence sentences)."""
    atoms = _oracle_atoms(case)
    expected = [sentence_spans(case.text, atoms), sentence_spans(case.text)]
    got = [
        _native.sentence_spans(case.text, [(a.start, a.end) for a in atoms]),
        _native.sentence_spans(case.text, []),
    ]
    return None if expected == got else (expected, got)


def compare_bare_years(case: ExtractCase) -> Mismatch | None:
    """(written year, year of a number) of each atom, and the slips of each year found."""
    expected: list[tuple[int | None, int | None]] = []
    for atom in _oracle_atoms(case):
        number = bare_years.year_of_number(atom, atom.value) if isinstance(atom.value, Quantity) else None
        expected.append((bare_years.written_year(atom), number))
    options = (case.locale, case.min_number_digits, list(case.kinds), case.anchor)
    got = _native.bare_years(case.text, *options)
    years = sorted({year for pair in expected for year in pair if year is not None})
    expected_slips = [bare_years.slipped_years(year) for year in years]
    got_slips = [_native.slipped_years(year) for year in years]
    if expected == got and expected_slips == got_slips:
        return None
    return (expected, expected_slips), (got, got_slips)


def compare_stated(case: ExtractCase) -> Mismatch | None:
    """The figures ``stated_figures`` adds to the extracted atoms (the scorer's ``extract``)."""
    atoms = _oracle_atoms(case)
    kept = {id(atom) for atom in atoms}
    added = [a for a in stated_figures(case.text, atoms, case.min_number_digits) if id(a) not in kept]
    expected = [_exact((a.kind, a.text, a.start, a.end, _fields(a))) for a in added]
    spans = [(a.start, a.end) for a in atoms]
    got = [_exact(row) for row in _native.stated_figures(case.text, spans, case.min_number_digits)]
    return None if expected == got else (expected, got)


def generate_stated(rng: random.Random) -> ExtractCase:
    """Sentences ending in short figures after the words, marks and bold that state them."""
    words = (
        "is",
        "IS",
        "waſ",
        "Been",
        "by",
        "to",
        "equals",
        "total",
        "up",
        "down",
        "=",
        ":",
        "",
        "İs",
        "**",
        "__",
    )
    ends = (".", ". ", "!", ";", "?", "", "\n", " ", "**.", "__ ")
    points = ("", "", " points", " Points", " point", " percentage points", " pts", "pts", " PTS", " pointsx")
    parts = []
    for _ in range(rng.randint(1, 6)):
        figure = rng.choice(
            ("3.85", "87.5", "-2", "−0.5", "+7", "1234", "12.3456789", "٣.٥", "0", "00.50", "²")
        )
        space = rng.choice((" ", "  ", "\u00a0", "", "\t"))
        parts.append(random_text(rng, rng.randint(0, 4)) + rng.choice(words) + space + figure)
        parts.append(rng.choice(points) + rng.choice(ends))
    return ExtractCase(
        "".join(parts), rng.choice(SUPPORTED_LOCALES), rng.choice((1, 2, 3, 4, 5)), rng.choice(KIND_SUBSETS)
    )


SLICES: dict[str, Slice] = {
    "extract": Slice(generate_extract, compare_extract, shrink_extract),
    "sentences": Slice(generate_extract, compare_sentences, shrink_extract),
    "bare_years": Slice(generate_extract, compare_bare_years, shrink_extract),
    "stated": Slice(generate_stated, compare_stated, shrink_extract),
}


def minimise(slice_: Slice, case: Any, budget: int = 2000) -> Any:
    """The smallest case the shrinker reaches that still disagrees (greedy, bounded)."""
    improved = True
    while improved and budget > 0:
        improved = False
        for smaller in slice_.shrink(case):
            budget -= 1
            if slice_.compare(smaller) is not None:
                case, improved = smaller, True
                break
            if budget <= 0:
                break
    return case


def run(name: str, cases: int, seed: int) -> int:
    slice_ = SLICES[name]
    rng = random.Random(seed)
    mismatches, first = 0, None
    started = time.perf_counter()
    for _ in range(cases):
        case = slice_.generate(rng)
        if slice_.compare(case) is not None:
            mismatches += 1
            first = first or case
    elapsed = time.perf_counter() - started
    print(
        f"{name}: {cases} cases in {elapsed:.1f} s ({cases / elapsed:,.0f} cases/s), {mismatches} mismatches"
    )
    if first is not None:
        smallest = minimise(slice_, first)
        print(f"first mismatch, minimised: {smallest!r}")
        print(f"  oracle / native: {slice_.compare(smallest)!r}")
    return 1 if mismatches else 0


def _other_runners() -> dict[str, Callable[[int, int], int]]:
    """The slices whose generators live in their own modules: ``run(cases, seed)`` -> mismatches."""
    from tests.native import evidence_cases, words_cases

    return {"evidence": evidence_cases.run, "words": words_cases.run}


def main(argv: Sequence[str] | None = None) -> int:
    others = _other_runners()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slice", choices=[*sorted(SLICES), *sorted(others), "all"])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = [*SLICES, *others] if args.slice == "all" else [args.slice]
    failed = 0
    for name in names:
        if name in SLICES:
            failed |= run(name, args.cases, args.seed)
        else:  # prints its own summary
            failed |= 1 if others[name](args.cases, args.seed) else 0
    return failed


if __name__ == "__main__":
    sys.exit(main())
