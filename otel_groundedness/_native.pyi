# Type stub of the native scoring engine (native/python/src), built by maturin.

import datetime
from typing import Any

def engine_version() -> str: ...
def vocabularies() -> list[tuple[str, list[str]]]: ...

# Extraction (native/python/src/extract.rs): atoms as (kind, text, start, end, fields), offsets in
# code points; fields are the value's dataclass fields in order (Quantity, CalendarDate, Identifier).
def extract_atoms(
    text: str,
    locale: str,
    min_number_digits: int,
    kinds: list[str],
    anchor: datetime.date | None,
) -> list[tuple[str, str, int, int, tuple[Any, ...]]]: ...
def sentence_spans(text: str, atom_spans: list[tuple[int, int]]) -> list[tuple[int, int]]: ...
def bare_years(
    text: str,
    locale: str,
    min_number_digits: int,
    kinds: list[str],
    anchor: datetime.date | None,
) -> list[tuple[int | None, int | None]]: ...
def slipped_years(year: int) -> list[int]: ...
def stated_figures(
    text: str, atom_spans: list[tuple[int, int]], min_number_digits: int
) -> list[tuple[str, str, int, int, tuple[Any, ...]]]: ...
