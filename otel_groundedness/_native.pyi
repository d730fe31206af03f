# Type stub of the native scoring engine (native/python/src), built by maturin.

import datetime
from collections.abc import Iterable
from typing import Any

def engine_version() -> str: ...
def vocabularies() -> list[tuple[str, list[str]]]: ...

# rules.rs: (atom ratio, sentence score, strict pass, label) of one answer's verdicts.
def rule_figures(
    rule: str, verdicts: list[str], sentence_of: list[int], min_alert_score: float
) -> tuple[float, float, bool, str]: ...

# policy.rs: a policy as the engine reads it, and the engine's defaults, in to_dict() form.
def policy_as_read(policy: object) -> dict[str, object]: ...
def default_policy() -> dict[str, object]: ...

# derivations.rs: math.fsum, and the pair search and candidate count of scoring/derivations.py.
def fsum(values: list[float]) -> float: ...
def derivation_pairs(
    name: str,
    ordered: list[int],
    values: list[float],
    currencies: list[str | None],
    value: float,
    change: float,
    reach: float,
    percent: bool,
) -> tuple[float, str | None, list[int], float]: ...
def derivation_candidates(size: int, operations: list[str], whole: bool) -> int: ...

# boundary.rs: engine work runs without the GIL; a panic surfaces as this error, never further.
class NativeEngineError(RuntimeError): ...

def boundary_check(value: int, panic: bool, hold_ms: int) -> int: ...

# numeric_group.rs: range queries of one sorted group; per query, positions read and budget left.
def numeric_group_queries(
    values: list[float], queries: list[tuple[object, ...]], units: int
) -> list[tuple[list[int], int]]: ...

# identifiers.rs: the identifier index (exact, one edit away, extending) and one-edit relations.
def identifier_queries(
    identifiers: list[tuple[str, str]], queries: list[tuple[str, str, str]], units: int
) -> list[tuple[list[int], int]]: ...
def one_edit_apart(first: str, second: str) -> bool: ...
def one_edit_numbers(digits: str) -> list[float]: ...

# dates.rs: the date index; per query, (("atom" | "scalar", position), matched reading)s and budget left.
_Reading = tuple[int | None, int | None, int | None]

def date_queries(
    atoms: list[list[_Reading]],
    scalars: list[tuple[float, bool]],
    queries: list[tuple[int, _Reading]],
    units: int,
) -> list[tuple[list[tuple[tuple[str, int], _Reading]], int]]: ...

# Word, digit and derivation-cue leaves (native/python/src/words.rs): offsets are code points.
def unicode_classes(text: str) -> list[int]: ...
def unicode_version() -> str: ...
def unicode_lower(text: str) -> str: ...
def unicode_digit_values(text: str) -> list[int | None]: ...
def unicode_ignorecase(text: str, literal: str) -> list[bool]: ...
def words(text: str) -> set[str]: ...
def singular(word: str) -> str: ...
def window_words(text: str, start: int, end: int, lower: int = 0, upper: int | None = None) -> set[str]: ...
def json_words(keys: list[str], siblings: list[tuple[str, str]] | None = None) -> set[str]: ...
def atom_context(
    text: str,
    start: int,
    end: int,
    sentence: tuple[int, int],
    neighbours: tuple[int, int],
    previous: tuple[int, int] | None = None,
) -> tuple[str, bool, str, str, set[str], tuple[str, str], tuple[str, str], bool, bool]: ...
def unit_dimension(unit: str | None) -> str | None: ...
def key_unit(key: str) -> str | None: ...
def key_magnitude(key: str) -> int | None: ...
def in_unit(value: float, unit: str, target: str) -> list[float]: ...
def mantissa(value: float) -> tuple[str, int] | None: ...
def digit_variants(digits: str, exponent: int) -> list[tuple[str, str, list[int]]]: ...
def variant_windows(
    digits: str, exponent: int
) -> tuple[list[tuple[tuple[int, int, int] | list[int], float, float]], list[float], list[float]]: ...
def value_of(digits: str, exponent: int, negative: bool) -> float: ...
def half_unit(digits: str, exponent: int) -> float: ...
def digit_relation(digits: str, exponent: int, other: float) -> str | None: ...
def operations_in(text: str, percent: bool) -> set[str]: ...
def is_change_word(word: str) -> bool: ...
def cued_operations(
    text: str,
    start: int,
    end: int,
    sentence: tuple[int, int],
    neighbours: tuple[int, int],
    previous: tuple[int, int] | None,
    percent: bool,
) -> set[str]: ...
def table_operations(
    operations: list[str],
    text: str,
    start: int,
    end: int,
    sentence: tuple[int, int],
    neighbours: tuple[int, int],
    previous: tuple[int, int] | None,
    percent: bool,
) -> set[str]: ...

# Text-table leaves (native/python/src/tables.rs): offsets are code points.
def table_figure(text: str) -> tuple[float, bool, str | None] | None: ...
def scale_note(text: str) -> tuple[int, str | None] | None: ...
def table_tokens(text: str) -> set[str]: ...
def acronyms(text: str) -> set[str]: ...
def is_header_text(text: str) -> bool: ...
def spanned(texts: list[str], width: int) -> list[str]: ...
def row_label(texts: list[str]) -> tuple[str | None, int]: ...
def is_total(label: str) -> bool: ...
def may_hold_table(text: str) -> bool: ...
def text_tables(text: str) -> list[tuple[list[list[tuple[str, int, int]]], str]]: ...

# The table model, JSON tables and table derivations (native/python/src/table_model.rs), for
# tests/native/test_table_model_differential.py. A table is (cells, row words, column words); a
# cell is ((value, power, percent, currency, row, column, label, columns, year, source, cited),
# (text, path, start, end, (number, currency, record position))); offsets are code points.
_PlainCell = tuple[
    tuple[float, int, bool, str | None, int, int, str, list[str], int | None, int, str],
    tuple[str, str | None, int | None, int | None, tuple[float | None, str | None, int | None]],
]
_PlainTable = tuple[list[_PlainCell], list[tuple[int, list[str]]], list[tuple[int, list[str]]]]

def text_table_models(text: str, source: int) -> list[_PlainTable | None]: ...
def json_table_models(
    document: str, caption: str, max_bytes: int
) -> list[tuple[str | None, bool | str, bool, _PlainTable | str | None]]: ...
def table_derivation(
    tables: list[
        tuple[
            list[tuple[float, int, bool, str | None, int, int, str, int | None]],
            list[tuple[int, list[str]]],
            list[tuple[int, list[str]]],
        ]
    ],
    target: tuple[float, float, float, str, bool, bool, list[str], str | None],
    asked: set[str] | frozenset[str],
    cited: list[float],
    budget: int,
) -> tuple[tuple[str, list[tuple[int, int]], float, bool] | str | None, int]: ...

# The evidence walk (native/engine/src/corpus.rs), in plain data for the differential tests
# (tests/native/test_evidence_differential.py): (fragments, scalar_values, scalar_rows,
# has_tool_evidence, reasons, arrays).
def collect(
    items: object, prompt: str | None, max_evidence_bytes: int, every_string: bool
) -> tuple[
    list[tuple[object, ...]], list[float], list[tuple[object, ...]], bool, list[str], list[tuple[object, ...]]
]: ...

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

# index.rs: the evidence index of `items` (walked; extracted with (locale, min_number_digits,
# kinds, anchor), then stated figures as `score` reads them when the last flag is set; indexing
# `needs` = (kinds, shapes | None) or everything) answering `lookups` on one budget of `units`: per
# lookup, its answer (hits as (kind, text, number, tolerance, currency, unit, key_unit, sorted
# words, citation), or ("error", name)) and the budget left after it.
def index_lookups(
    items: object,
    prompt: str | None,
    max_evidence_bytes: int,
    every_string: bool,
    extract: tuple[str, int, tuple[str, ...] | list[str], datetime.date | None, bool],
    needs: tuple[list[str], list[str] | None] | None,
    units: int,
    lookups: list[tuple[Any, ...]],
) -> list[tuple[Any, int]]: ...

# The table book (tests/native/test_table_book_differential.py): lookups ("within", low, high,
# percent) or ("tables",) on the table book of Python evidence; per lookup, its cells ((value,
# power, percent, currency, row, column, label, columns, year, evidence index, cited), (text,
# path, start, end, number, record's currency, has a record)) or the error word ("BudgetSpent",
# "ValueError"), and the budget left after it.
def table_book_lookups(
    items: object,
    prompt: str | None,
    max_evidence_bytes: int,
    every_string: bool,
    units: int,
    lookups: list[tuple[Any, ...]],
) -> list[tuple[list[Any] | str, int]]: ...

# Operand families (scoring/operand_families.py): the `Operands` of Python evidence indexed as
# `index_lookups` indexes it, built on a budget of `units`: ("BudgetSpent", left), or (members,
# families, plain, sorted family words, sorted (word, operands) by key word, sorted (word,
# families) by word, answers, left); a member is (value, kind, unit, currency, sorted key words,
# hit as `index_lookups` renders hits); a query (answer words, cited as ("operand", i) or
# (kind, i) of the index's text atoms) is answered (tied_families, anchored). With `render`
# False: (operands, families, left) only.
def operand_families(
    items: object,
    prompt: str | None,
    max_evidence_bytes: int,
    every_string: bool,
    extract: tuple[str, int, tuple[str, ...] | list[str], datetime.date | None, bool],
    units: int,
    queries: list[tuple[list[str], list[tuple[str, int]]]],
    render: bool = True,
) -> Any: ...

# (evidence_index, source_id, source_kind, name, path, start, end, text, cell)
_Cited = tuple[int | None, Any, Any, Any, str | None, int | None, int | None, str, str | None]

# With `types` = (AtomVerdict, Citation), each verdict but a derived figure's is an AtomVerdict.
def score(
    answer: str,
    items: Iterable[Any],
    user_prompt: str | None,
    policy: Any,
    types: tuple[type, type] | None = None,
) -> tuple[
    list[Any | tuple[str, int, int, float | str | None, str, str, _Cited | None, str | None, list[_Cited]]],
    bool,
    list[str],
    bool,
    int,
    tuple[float, float, bool] | None,
    str,
]: ...
