"""The native extraction agrees with the Python oracle atom for atom: kind, text, code-point span
and every value field, floats to the bit, on the dev sets, the benchmark shapes, the adversarial
generators and hypothesis-generated hostile text, in every locale and option combination."""

from __future__ import annotations

import datetime
import json
import random
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import adversarial_bench, scoring_bench
from otel_groundedness import _native
from otel_groundedness.scoring.bare_years import slipped_years
from otel_groundedness.scoring.extract import SUPPORTED_LOCALES
from tests.native.differential import (
    ANCHORS,
    KIND_SUBSETS,
    PIECES,
    ExtractCase,
    Mismatch,
    compare_bare_years,
    compare_extract,
    compare_sentences,
    compare_stated,
    generate_stated,
    native_rows,
    oracle_rows,
    texts_of,
)

Compare = Callable[[ExtractCase], Mismatch | None]
ROOT = Path(__file__).resolve().parents[2]
DEVSETS = [
    *sorted((ROOT / "tests" / "data" / "devset").glob("*.jsonl")),
    ROOT / "tests/scoring/devset/tables.jsonl",
]
BENCH_SHAPES = ROOT / "benchmarks" / "data" / "bench_shapes.json"
TABLES = ROOT / "native" / "engine" / "src" / "extract" / "chars" / "unicode_tables.rs"
OPTIONS = [
    (locale, digits, kinds, anchor)
    for locale in SUPPORTED_LOCALES
    for digits, kinds, anchor in (
        (4, KIND_SUBSETS[0], None),
        (0, KIND_SUBSETS[0], ANCHORS[1]),
        (2, KIND_SUBSETS[2], ANCHORS[1]),
        (5, KIND_SUBSETS[4], None),
    )
]


def _devset_texts() -> Iterator[str]:
    for path in DEVSETS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            for field in ("answer", "corrupted_answer", "user_prompt"):
                if isinstance(case.get(field), str):
                    yield case[field]
            for item in case.get("evidence") or []:
                yield from texts_of(item)


def _bench_texts() -> Iterator[str]:
    for case in json.loads(BENCH_SHAPES.read_text(encoding="utf-8")):
        yield case["answer"]
        for item in case["evidence"]:
            yield from texts_of(item)


def _generator_texts() -> Iterator[str]:
    for shape in adversarial_bench.shapes():
        yield shape.answer
        for item in shape.evidence:
            yield from texts_of(item)
    for case in scoring_bench.cases():
        yield case.answer
        for item in case.evidence:
            yield from texts_of(item)
    for seed in range(20):
        yield scoring_bench.adversarial(4096, seed)


# Texts at the evidence cap (the adversarial shapes) cost the oracle ~0.1 s a run: each locale
# with and without an anchor, at two digit floors.
LARGE_TEXT = 32 * 1024
LARGE_OPTIONS = [option for option in OPTIONS if option[1] in (4, 0)]


def _disagreements(texts: Iterator[str], compare: Compare = compare_extract) -> tuple[int, list[ExtractCase]]:
    compared, failed = 0, []
    for text in dict.fromkeys(texts):
        for locale, digits, kinds, anchor in LARGE_OPTIONS if len(text) > LARGE_TEXT else OPTIONS:
            case = ExtractCase(text, locale, digits, kinds, anchor)
            compared += 1
            if compare(case) is not None:
                failed.append(case)
    return compared, failed


def test_dev_sets_agree() -> None:
    compared, failed = _disagreements(_devset_texts())
    assert compared > 5_000
    assert failed == [], failed[:3]


def test_bench_shapes_agree() -> None:
    if not BENCH_SHAPES.exists():
        pytest.fail(f"{BENCH_SHAPES} is missing: the benchmark shapes are part of the comparison")
    compared, failed = _disagreements(_bench_texts())
    assert compared > 0
    assert failed == [], [case.text[:200] for case in failed[:3]]


@pytest.mark.timeout(600)
def test_benchmark_generators_agree() -> None:
    compared, failed = _disagreements(_generator_texts())
    assert compared > 100
    assert failed == [], [case.text[:200] for case in failed[:3]]


def test_the_comparison_sees_atoms() -> None:
    # Guards the comparison itself: both engines find the same non-empty atoms here.
    text = "Revenue $1.24 million (+15.3%) on March 3, 2025; INV-2210 at https://x.example/a."
    rows = oracle_rows(ExtractCase(text))
    assert isinstance(rows, list) and len(rows) == 5
    assert native_rows(ExtractCase(text)) == rows
    assert native_rows(ExtractCase(text + " 1999")) != rows


@pytest.mark.parametrize(
    ("locale", "digits", "kinds"),
    [
        ("xx-XX", 4, ["date"]),
        ("en-US", -1, ["date"]),
        ("en-US", 4, ["date", "time"]),
        ("en-US", -(10**30), []),
    ],
)
def test_refuses_the_options_the_oracle_refuses(locale: str, digits: int, kinds: list[str]) -> None:
    case = ExtractCase("1,234", locale, digits, tuple(kinds))
    assert oracle_rows(case) == "ValueError"
    with pytest.raises(ValueError):
        _native.extract_atoms("1,234", locale, digits, kinds, None)


def test_a_huge_digit_floor_drops_bare_numbers_alike() -> None:
    assert compare_extract(ExtractCase("12,345 and $5 and 2024", "en-US", 10**30)) is None


def unicode_tables_source() -> str:
    """The engine's character classes, generated from this Python (the oracle's Unicode)."""

    def ranges(flags: list[bool]) -> list[tuple[int, int]]:
        out, start = [], None
        for code, flag in enumerate([*flags, False]):
            if flag and start is None:
                start = code
            elif not flag and start is not None:
                out.append((start, code - 1))
                start = None
        return out

    chars = [chr(code) for code in range(sys.maxunicode + 1)]
    cased = [c.islower() or c.isupper() or c.istitle() for c in chars]
    # Case-ignorable, probed through str.lower's final-sigma rule: "AxΣ" lowers Σ to ς when x is
    # cased or case-ignorable; "AΣx" when x is case-ignorable or not cased.
    ignorable = [
        ("AΣ" + c).lower()[1] == "ς" if is_cased else ("A" + c + "Σ").lower()[-1] == "ς"
        for c, is_cased in zip(chars, cased, strict=True)
    ]
    tables = {
        "ALNUM": [c.isalnum() for c in chars],
        "DECIMAL": [c.isdecimal() for c in chars],
        "DIGIT": [c.isdigit() for c in chars],
        "SPACE": [c.isspace() for c in chars],
        "ALPHA": [c.isalpha() for c in chars],
        "UPPER": [c.isupper() for c in chars],
        "CASED": cased,
        "CASE_IGNORABLE": ignorable,
    }
    version = (
        f"Python {sys.version_info.major}.{sys.version_info.minor}, Unicode {unicodedata.unidata_version}"
    )
    lines = [
        "// @generated by tests/native/test_extract_differential.py (unicode_tables_source) from",
        f"// {version}: the oracle's character classes. Do not edit.",
        "",
    ]
    for name, flags in tables.items():
        spans = ranges(flags)
        lines.append(f"pub(super) static {name}: [(u32, u32); {len(spans)}] = [")
        lines.extend(f"    (0x{low:X}, 0x{high:X})," for low, high in spans)
        lines.append("];")
    for name, method in (("LOWER", str.lower), ("CASEFOLD", str.casefold)):
        pairs = [(ord(c), method(c)) for c in chars if method(c) != c]
        lines.append(f"pub(super) static {name}: [(u32, &str); {len(pairs)}] = [")
        for code, mapped in pairs:
            escaped = "".join(f"\\u{{{ord(m):X}}}" for m in mapped)
            lines.append(f'    (0x{code:X}, "{escaped}"),')
        lines.append("];")
    return "\n".join(lines) + "\n"


def test_unicode_tables_are_the_oracles() -> None:
    # Regenerate with: python -c "from tests.native.test_extract_differential import *;
    #   print(unicode_tables_source(), end='')" > native/engine/src/extract/chars/unicode_tables.rs
    assert TABLES.read_text(encoding="utf-8") == unicode_tables_source()


_HOSTILE = st.lists(
    st.one_of(
        st.sampled_from(PIECES),
        st.text(alphabet="0123456789.,-/:% $€()#+'\u00a0\u202fkMBx", max_size=12),
        st.characters(codec="utf-8"),
    ),
    max_size=30,
).map("".join)


@settings(
    max_examples=5_000,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    text=_HOSTILE,
    locale=st.sampled_from(SUPPORTED_LOCALES),
    digits=st.sampled_from((0, 1, 2, 3, 4, 5, 8)),
    kinds=st.sampled_from(KIND_SUBSETS),
    anchor=st.sampled_from(ANCHORS),
)
def test_hostile_text_agrees(
    text: str, locale: str, digits: int, kinds: tuple[str, ...], anchor: datetime.date | None
) -> None:
    case = ExtractCase(text, locale, digits, kinds, anchor)
    assert compare_extract(case) is None


def test_random_soup_agrees() -> None:
    rng = random.Random(18)
    alphabet = [*"0123456789" * 3, *",.,.$%@-/#: -€()kMB", "\u00a0", "\u202f"]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 300)))
        for locale in SUPPORTED_LOCALES:
            assert compare_extract(ExtractCase(text, locale)) is None, text


def test_hex_runs_read_from_inside_stay_linear() -> None:
    # The oracle rescans the rest of a hex run from every digit after a hex letter when the run
    # ends in a word character ("a1a1...a1x": quadratic); the engine remembers the failed run.
    assert compare_extract(ExtractCase("a1" * 500 + "x")) is None
    timings = []
    for repeat in (32_768, 131_072):
        text = "a1" * repeat + "x"
        started = time.perf_counter()
        _native.extract_atoms(text, "en-US", 4, list(KIND_SUBSETS[0]), None)
        timings.append(time.perf_counter() - started)
    assert timings[1] < 0.5
    assert timings[1] < 10 * max(timings[0], 1e-3)  # four times the text: linear, not sixteen


# Sentences and bare years: engine modules that read atoms only -------------------------------


@pytest.mark.parametrize("compare", [compare_sentences, compare_bare_years, compare_stated])
def test_atom_readers_agree_on_the_dev_sets_and_bench_shapes(compare: Compare) -> None:
    texts = [*_devset_texts(), *(_bench_texts() if BENCH_SHAPES.exists() else [])]
    compared, failed = _disagreements(iter(texts), compare)
    assert compared > 5_000
    assert failed == [], failed[:3]


def test_every_year_slips_alike() -> None:
    assert all(_native.slipped_years(year) == slipped_years(year) for year in range(10_000))


@settings(max_examples=2_000, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_HOSTILE, locale=st.sampled_from(SUPPORTED_LOCALES), kinds=st.sampled_from(KIND_SUBSETS))
def test_hostile_text_splits_and_reads_years_alike(text: str, locale: str, kinds: tuple[str, ...]) -> None:
    case = ExtractCase(text, locale, 4, kinds, ANCHORS[1])
    assert compare_sentences(case) is None
    assert compare_bare_years(case) is None


def test_stated_figures_agree_on_stating_sentences() -> None:
    rng = random.Random(2026)
    cases = [generate_stated(rng) for _ in range(3_000)]
    assert [case for case in cases if compare_stated(case) is not None] == []
    # Guards the comparison: these cases do state figures the extractor leaves out.
    stated = sum(len(_native.stated_figures(case.text, [], case.min_number_digits)) for case in cases[:200])
    assert stated > 20


@settings(max_examples=2_000, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.lists(
        st.sampled_from([*PIECES, " is ", " by ", ": ", " = ", " points", " pts", "**", ". "]), max_size=30
    ).map("".join),
    digits=st.sampled_from((1, 2, 4)),
)
def test_hostile_text_states_figures_alike(text: str, digits: int) -> None:
    assert compare_stated(ExtractCase(text, "en-US", digits)) is None


@pytest.mark.parametrize(
    "text",
    [
        "see www.x.com/?u=http://y.org",  # the scheme is removed wherever it first appears
        "İn 1810 and ın 1810 and waſ 5.",  # re.IGNORECASE's Unicode equivalents read as year words
        "İn 3 days",  # the prefix matches in any case, but lower() of "İ" keeps it out of the atom
        ".abc@x.com",  # a local part after a dot is no address
        "ABC1234 and a1a1a1x",  # a glued code is a ticket; a hex run read from inside is none
        "see etc\n. Next",  # "$" before a final newline: the period after "etc" ends no sentence
    ],
)
def test_oracle_oddities_are_replicated(text: str) -> None:
    case = ExtractCase(text, "en-US", 4, KIND_SUBSETS[0], ANCHORS[1])
    assert compare_extract(case) is None
    assert compare_sentences(case) is None
    assert compare_stated(case) is None
