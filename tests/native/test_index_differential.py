"""The native evidence index answers what ``EvidenceIndex`` answers: the same hits in the same
order (kind, text, number and tolerance to the bit, currency, unit, key unit, label words,
citation), the same errors, and the same budget left after every lookup.

Lookups are those ``scoring/verdicts.py`` makes for the answer's atoms, plus random ones, on the
dev sets, the benchmark shapes and generated evidence. The evidence's tables are not compared
(``tables()`` is another slice).
"""

from __future__ import annotations

import json
import math
import random
import struct
from collections.abc import Iterator, Sequence
from functools import partial
from itertools import islice
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring import bare_years
from otel_groundedness.scoring.atoms import Atom, CalendarDate, Identifier, Quantity
from otel_groundedness.scoring.budget import BudgetSpent, WorkBudget
from otel_groundedness.scoring.corpus import collect
from otel_groundedness.scoring.digits import mantissa, variant_windows
from otel_groundedness.scoring.extract import extract_atoms
from otel_groundedness.scoring.index import YEAR, EvidenceIndex, EvidenceNeeds, Hit, date_mask, unit_group
from otel_groundedness.scoring.stated_figures import stated_figures
from otel_groundedness.scoring.verdicts import NUMERIC_GROUPS, _one_edit_numbers, evidence_needs
from tests.native.test_evidence_differential import benchmark_cases, devset_cases

CAP = 262_144
UNITS = 200_000
KINDS = ("money", "percent", "number", "date", "identifier")
GROUPS = ("money", "percent", "number", "raw", "fraction", "minor", "scaled", "unit:km", "unit:ms", "unit:GB")
Extract = tuple[str, int, tuple[str, ...], Any, bool]  # locale, digit floor, kinds, anchor, stated figures
DEFAULT_EXTRACT: Extract = ("en-US", 4, KINDS, None, False)
SCORE_EXTRACT: Extract = ("en-US", 4, KINDS, None, True)  # as ``score`` extracts evidence


def _bits(value: Any) -> Any:
    """Floats as their bits, everywhere in a result (so -0.0 and 0.0 are told apart)."""
    if isinstance(value, float):
        return struct.pack("<d", value).hex()
    if isinstance(value, list | tuple):
        return type(value)(_bits(item) for item in value)
    return value


def _plain(hit: Hit) -> tuple[Any, ...]:
    cited = hit.citation()
    citation = (
        cited.evidence_index, cited.source_id, cited.source_kind, cited.name, cited.path,
        cited.start, cited.end, cited.text, cited.cell,
    )  # fmt: skip
    return (
        hit.kind, hit.text, hit.number, hit.tolerance, hit.currency, hit.unit, hit.key_unit(),
        sorted(hit.words()), citation,
    )  # fmt: skip


def _answer(index: EvidenceIndex, lookup: tuple[Any, ...]) -> Any:
    op = lookup[0]
    try:
        if op == "nearest":
            _, name, target, low, high, limit = lookup
            return [_plain(hit) for hit in index.group(name).nearest(target, low, high, limit)]
        if op in ("within", "count"):
            _, name, low, high, take = lookup
            group = index.group(name)
            if op == "count":
                return group.count(low, high)
            found = group.within(low, high)
            return [_plain(hit) for hit in islice(found, take)]
        if op == "in_windows":
            _, name, value, negative, take = lookup
            group = index.group(name)
            reduced = mantissa(value)
            assert reduced is not None
            found = group.in_windows(variant_windows(reduced), negative)
            return [_plain(hit) for hit in islice(found, take)]
        if op == "contents":
            group = index.group(lookup[1])
            left = index.budget.left
            hits = [group._hit(position) for position in range(len(group.values))]
            index.budget.left = left  # inspection: charged nothing
            return (list(group.values), [_plain(hit) for hit in hits])
        if op == "numeric_hits":
            return [_plain(hit) for hit in index.numeric_hits(lookup[1])]
        if op == "nonempty":
            return index.nonempty(tuple(lookup[1]))
        if op == "dates":
            return [(_plain(hit), matched) for hit, matched in index.dates(lookup[1], lookup[2])]
        if op == "identifiers":
            return [_plain(hit) for hit in index.identifiers(lookup[1], lookup[2])]
        if op == "near":
            return [_plain(hit) for hit in index.identifiers_near(lookup[1], lookup[2])]
        found = index.identifier_extending(lookup[1], lookup[2])
        return [] if found is None else [_plain(found)]
    except BudgetSpent:
        return ("error", "BudgetSpent")
    except KeyError:
        return ("error", "KeyError")


def python_answers(
    items: Sequence[Any],
    prompt: str | None,
    extract: Extract,
    needs: tuple[list[str], list[str] | None] | None,
    units: int,
    lookups: list[tuple[Any, ...]],
) -> list[Any]:
    locale, floor, kinds, anchor, stated = extract
    corpus = collect(items, prompt, CAP, every_string=anchor is not None)
    plain = partial(extract_atoms, locale=locale, min_number_digits=floor, kinds=kinds, anchor=anchor)

    def reader(source: str) -> list[Atom]:  # ``scorer.score``'s ``extract``
        found = plain(source)
        atoms = stated_figures(source, found, floor)
        return found if atoms is found else [atom for atom in atoms if atom.kind in kinds]

    if not stated:
        reader = plain  # type: ignore[assignment]
    wanted = None
    if needs is not None:
        wanted = EvidenceNeeds(frozenset(needs[0]), None if needs[1] is None else frozenset(needs[1]))
    budget = WorkBudget(units)
    index = EvidenceIndex(corpus, reader, wanted, budget)  # type: ignore[arg-type]
    answers = []
    for lookup in lookups:
        found = _answer(index, lookup)
        answers.append((found, budget.left))
    return answers


def both(
    items: Sequence[Any],
    prompt: str | None,
    lookups: list[tuple[Any, ...]],
    extract: Extract = DEFAULT_EXTRACT,
    needs: tuple[list[str], list[str] | None] | None = None,
    units: int = UNITS,
) -> tuple[Any, Any]:
    expected = python_answers(items, prompt, extract, needs, units, lookups)
    native = _native.index_lookups(items, prompt, CAP, extract[3] is not None, extract, needs, units, lookups)
    return _bits(expected), _bits([tuple(answer) for answer in native])


def _reach(quantity: Quantity) -> float:
    return quantity.tolerance + max(abs(quantity.value) * 1e-9, 1e-9)


def verdict_lookups(atoms: Sequence[Atom]) -> Iterator[tuple[Any, ...]]:
    """The lookups ``scoring/verdicts.py`` makes for ``atoms`` (every branch, not only the taken one)."""
    for atom in atoms:
        value = atom.value
        if isinstance(value, Quantity):
            names = list(NUMERIC_GROUPS[atom.kind])
            in_unit = unit_group(value.unit) if atom.kind == "number" else None
            yield ("nonempty", names)
            if in_unit is not None:
                yield ("nonempty", [in_unit])
                names.append(in_unit)
            number, reach = value.value, _reach(value)
            year = bare_years.year_of_number(atom, value)
            if year is not None:
                yield ("dates", YEAR, (year, None, None))
            reduced = mantissa(number)
            for name in names:
                yield ("nearest", name, number, number - reach, number + reach, 32)
                yield ("nearest", name, -number, -number - reach, -number + reach, 32)
                yield ("nearest", name, number, number * 0.5, number * 1.5, 32)
                if reduced is not None:
                    low, high = 10.0 ** (reduced.exponent - 1), 10.0 ** (reduced.exponent + 2)
                    if number < 0:
                        low, high = -high, -low
                    yield ("count", name, low, high, 0)
                    yield ("within", name, low, high, 32)
                    yield ("in_windows", name, number, number < 0, 64)
                    for scale in (10.0, 0.01, 1e3, 1e-6):
                        a, b = (number - reach) * scale, (number + reach) * scale
                        yield ("within", name, min(a, b), max(a, b), 32)
        elif isinstance(value, CalendarDate):
            for reading in value.readings:
                mask = date_mask(reading)
                yield ("dates", mask, reading)
                for component in (4, 2, 1):
                    if mask & component and mask != component:
                        yield ("dates", mask & ~component, reading)
                if reading[0] is not None:
                    yield ("dates", YEAR, (reading[0] + 1, None, None))
        elif isinstance(value, Identifier):
            yield ("identifiers", value.shape, value.normalized)
            yield ("near", value.shape, value.normalized)
            yield ("extending", "hash", value.normalized)
            digits = "".join(c for c in value.normalized if c.isdigit())[:12]
            if digits:
                yield ("within", "raw", float(digits), float(digits), 32)
                for variant in _one_edit_numbers(digits)[:6]:
                    yield ("within", "raw", variant, variant, 32)


def inspection_lookups() -> list[tuple[Any, ...]]:
    return [("contents", name) for name in GROUPS] + [
        ("numeric_hits", kind) for kind in ("money", "percent", "number")
    ]


def case_lookups(answer: str, atoms: int = 1000) -> list[tuple[Any, ...]]:
    """The verdicts' lookups for the first ``atoms`` atoms of ``answer``, then every group's contents."""
    found = extract_atoms(answer)
    return [*verdict_lookups(found[:atoms]), *inspection_lookups()]


def _needs(answer: str) -> tuple[list[str], list[str] | None]:
    needs = evidence_needs(extract_atoms(answer))
    return sorted(needs.kinds), None if needs.shapes is None else sorted(needs.shapes)


def _cases_with_answers() -> Iterator[tuple[str, list[Any], str | None, str]]:
    answers: dict[str, str] = {}
    from tests.native.test_evidence_differential import DEVSETS

    for path in DEVSETS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if line.strip():
                answers[f"{path.name}:{number}"] = json.loads(line)["answer"]
    for name, items, prompt in devset_cases():
        yield name, items, prompt, answers.get(name, "")


def test_devset_cases_agree() -> None:
    ran = 0
    for name, items, prompt, answer in _cases_with_answers():
        lookups = case_lookups(answer)
        expected, native = both(items, prompt, lookups)
        assert native == expected, name
        # As ``score`` builds it: only what the answer's atoms can look up, stated figures read.
        expected, native = both(items, prompt, lookups, SCORE_EXTRACT, needs=_needs(answer))
        assert native == expected, name
        ran += 1
    assert ran >= 580


def _large(items: list[Any]) -> bool:
    """More than 64 KB of evidence (or too deep to tell), whose whole groups the test does not list."""
    try:
        return (
            sum(len(item) if isinstance(item, str) else len(json.dumps(item)) for item in items) > 64 * 1024
        )
    except RecursionError:
        return True


def test_benchmark_shapes_agree() -> None:
    from benchmarks import scoring_bench

    answers = {f"scoring_bench {case.name}": case.answer for case in scoring_bench.cases()}
    for name, items, prompt in benchmark_cases():
        answer = answers.get(name, "Revenue was $1,243,500 on 2025-03-04, ticket INC-4521, 15.3%.")
        lookups = case_lookups(answer, atoms=24)  # a sample: the Python side is slow
        if _large(items):
            lookups = [lookup for lookup in lookups if lookup[0] not in ("contents", "numeric_hits")]
            lookups.append(("numeric_hits", "money"))  # one whole list of a large evidence
        expected, native = both(items, prompt, lookups)
        assert native == expected, name


def test_a_small_budget_refuses_unit_groups_alike() -> None:
    items = [{"distance_km": 12, "weight_g": 2500, "rows": [{"size_mb": 3}]}, "It ran 5 km in 3000 ms."]
    lookups = [
        ("nonempty", ["unit:m"]),
        ("nonempty", ["unit:kg"]),
        ("contents", "unit:m"),
        ("contents", "date"),
    ]
    for units in (0, 1, 2, 3, 5, 100):
        expected, native = both(items, None, lookups, units=units)
        assert native == expected, units


# Generated evidence ----------------------------------------------------------------------------

_KEYS = st.sampled_from([
    "total", "amount", "amount_cents", "price_minor", "revenue_usd_millions", "sizeInThousands",
    "distance_km", "weight_g", "duration_ms", "size_mb", "name", "label", "metric", "currency",
    "ccy", "year", "born", "id", "ticket", "Réf", "note",
])  # fmt: skip
_TEXT_PIECES = st.sampled_from([
    "$1,243,500", "€12.50", "15.3%", "0.153", "1,234", "12 km", "3000 ms", "2.5 GB", "2025-03-04",
    "March 4, 2025", "in 1849", "INC-4521", "INC-4512", "#4521", "a1b2c3d4e5f6", "deadbeef1234567",
    "alice@example.com", "Revenue", "Total:", "\n", " ", "é", "\U0001f600", "\ud800", "1e3", "-42",
    "JPY 1200", "USD", "12.0", "0.5", "1810", "It is 3.85.", "fell by 3.6 points.", "Answer: 2.55",
    "was 12.", "= 7;", "**42**",
])  # fmt: skip
_TEXTS = st.lists(_TEXT_PIECES, max_size=8).map(" ".join)
_SCALARS = st.one_of(
    st.integers(-3000, 3_000_000),
    st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(
        [0, 1810, 2025, 1999, 124350, 0.153, -0.0, 1e21, "12.50", "2025", "USD", "usd", "JPY", "kwd"]
    ),
    _TEXTS,
)
_RECORDS = st.dictionaries(_KEYS, _SCALARS, max_size=6)
_VALUES = st.one_of(
    _TEXTS,
    _RECORDS,
    st.lists(_RECORDS, max_size=4),
    st.dictionaries(_KEYS, st.lists(_RECORDS | _SCALARS, max_size=3), max_size=3),
    _RECORDS.map(json.dumps),
)
_ANSWERS = st.lists(_TEXT_PIECES, max_size=6).map(" ".join)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(
    st.lists(_VALUES, max_size=4),
    _ANSWERS,
    st.lists(st.floats(-1e7, 1e7, allow_nan=False), max_size=3),
    st.sampled_from([None, "needs"]),
    st.sampled_from([UNITS, 40, 3]),
    st.sampled_from([DEFAULT_EXTRACT, SCORE_EXTRACT]),
)
def test_generated_evidence_agrees(
    items: list[Any], answer: str, values: list[float], needs: str | None, units: int, extract: Extract
) -> None:
    lookups = case_lookups(answer)
    for value in values:
        lookups += [
            ("nearest", "raw", value, value - 1.0, value + 1.0, 4),
            ("within", "fraction", value - 50.0, value + 50.0, 32),
            ("nearest", "minor", value, -math.inf, math.inf, 3),
            ("within", "scaled", value - 1e6, value + 1e6, 32),
            ("nearest", "unit:m", value, -math.inf, math.inf, 5),
        ]
        if value != 0:
            lookups.append(("in_windows", "raw", value, value < 0, 16))
    expected, native = both(
        items, None, lookups, extract, needs=_needs(answer) if needs else None, units=units
    )
    assert native == expected


def test_the_differential_can_fail() -> None:
    expected, native = both(["Revenue $1,243,500"], None, [("numeric_hits", "money")])
    assert native == expected
    assert expected != _bits(
        python_answers(
            ["Revenue $1,243,501"], None, DEFAULT_EXTRACT, None, UNITS, [("numeric_hits", "money")]
        )
    )


def test_random_lookups_on_dense_json_agree() -> None:
    rng = random.Random(7)
    from benchmarks import scoring_bench

    items = [scoring_bench.dense_output(16 * 1024, rng)]
    lookups: list[tuple[Any, ...]] = [*inspection_lookups()]
    for _ in range(200):
        value = rng.choice([rng.uniform(-1e6, 1e6), float(rng.randint(0, 99999)), rng.random()])
        name = rng.choice(GROUPS)
        lookups.append(("nearest", name, value, value - 1000.0, value + 1000.0, 8))
        if value:
            lookups.append(("in_windows", name, value, False, 16))
    expected, native = both(items, None, lookups)
    assert native == expected
