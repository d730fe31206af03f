"""Bare years and year ranges (docs/scoring.md, "Years").

A bare year is supported by the same year inside a full evidence date, a changed year that shares
label words with the evidence is contradicted, a range is two years, and ordinary quantities such
as "1500 units" stay numbers.
"""

from __future__ import annotations

from typing import Any

import pytest

from otel_groundedness._native import slipped_years
from otel_groundedness.scoring import score
from tests.scoring.native_parts import CalendarDate, extract_atoms
from tests.scoring.verdict_lookup import verdict_of, verdicts_of

# --- hedged years ---------------------------------------------------------------------------

FOUNDING = ["Acme Corporation was founded on 3 May 1912 in Dayton, Ohio."]


def test_a_hedged_year_is_compared_exactly() -> None:
    assert verdict_of("Acme was founded around 1911.", FOUNDING, "1911") == (
        "contradicted",
        "date_component_changed",
    )
    assert verdict_of("Acme was founded in about 1912.", FOUNDING, "1912")[0] == "supported"


# --- years: extraction --------------------------------------------------------------------------


def dates_in(text: str) -> list[tuple[str, tuple[Any, ...]]]:
    return [(a.text, a.value.readings) for a in extract_atoms(text) if isinstance(a.value, CalendarDate)]


def kinds_in(text: str) -> list[tuple[str, str]]:
    return [(a.kind, a.text) for a in extract_atoms(text)]


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("Chopin (1810–1849) wrote for the piano.", [1810, 1849]),
        ("Chopin (1810-1849) wrote for the piano.", [1810, 1849]),
        ("Chopin ( 1810 -- 1849 ) wrote for the piano.", [1810, 1849]),
        ("Lincoln, 1809 -- 1865, led the Union.", [1809, 1865]),
        ("the 2007 -- 08 season", [2007, 2008]),
        ("the 2007-08 season", [2007, 2008]),
        ("the 2007–08 season", [2007, 2008]),
        ("fiscal 2024-25 results", [2024, 2025]),
        ("served 2019–2021 as CFO", [2019, 2021]),
        ("served 2019–21 as CFO", [2019, 2021]),
        ("the war of 1812–15", [1812, 1815]),
        ("the 1999–00 season", [1999, 2000]),
    ],
)
def test_year_ranges_are_two_years(text: str, years: list[int]) -> None:
    found = dates_in(text)
    assert [readings for _, readings in found] == [((year, None, None),) for year in years]
    assert all(kind == "date" for kind, _ in kinds_in(text))


@pytest.mark.parametrize(
    ("text", "span", "reading"),
    [
        ("Usage for 2025-02 came to 18,400 calls.", "2025-02", (2025, 2, None)),  # ISO month stays
        ("billing period 2011-06", "2011-06", (2011, 6, None)),
        ("due 2007-08-15", "2007-08-15", (2007, 8, 15)),
    ],
)
def test_iso_months_and_dates_are_not_year_ranges(text: str, span: str, reading: tuple[Any, ...]) -> None:
    assert dates_in(text) == [(span, (reading,))]


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("Chopin was born in 1810.", 1810),
        ("The firm has traded since 1852.", 1852),
        ("The abbey was built circa 1150.", 1150),
        ("The abbey was built c. 1150.", 1150),
        ("Mozart (1756) and Haydn", 1756),
        ("Mozart, born 1756, and Haydn", 1756),
        ("Mozart died in 1791 in Vienna", 1791),
        ("the storm of 1911 hit the coast", 1911),  # 1900-2099: a year everywhere, as before
    ],
)
def test_bare_years_in_year_contexts(text: str, year: int) -> None:
    assert [readings for _, readings in dates_in(text)] == [((year, None, None),)]


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("We sold 1500 units last week.", "1500"),
        ("We sold 1,500 units last week.", "1,500"),
        ("from 1200 to 1500 seats", "1200"),
        ("between 1200-1500 words", "1200"),  # a round quantity range, not a period of years
        ("The cable is 1810 ft long.", "1810 ft"),
    ],
)
def test_ordinary_quantities_stay_numbers(text: str, span: str) -> None:
    assert ("number", span) in kinds_in(text)
    assert dates_in(text) == []


# --- years: end to end --------------------------------------------------------------------------

CHOPIN = ["Frédéric Chopin was born on 1 March 1810 in Żelazowa Wola and died on 17 October 1849 in Paris."]


@pytest.mark.parametrize(
    "answer",
    [
        "Chopin was born in 1810 and died in 1849.",
        "Frédéric Chopin (1810–1849) was a Polish composer.",
        "Frédéric Chopin (1810 -- 1849) was a Polish composer.",
        "Chopin lived from 1810 to 1849.",
        "Chopin died in Paris, 1849.",
    ],
)
def test_bare_years_are_supported_by_full_evidence_dates(answer: str) -> None:
    report = score(answer, CHOPIN)
    assert [v.verdict for v in report.verdicts] == ["supported"] * len(report.verdicts)
    assert report.total_atoms >= 1


@pytest.mark.parametrize(
    ("answer", "text"),
    [
        ("Chopin was born in 1811.", "1811"),
        ("Chopin was born in 1801.", "1801"),  # transposed digits
        ("Frédéric Chopin (1810–1848) died in Paris.", "1848"),
    ],
)
def test_a_changed_year_sharing_label_words_is_contradicted(answer: str, text: str) -> None:
    assert verdict_of(answer, CHOPIN, text) == ("contradicted", "date_component_changed")


def test_a_changed_year_without_shared_words_is_unsupported() -> None:
    assert verdict_of("The bridge opened in 1811.", CHOPIN, "1811") == ("unsupported", "not_found")


def test_a_season_range_is_checked_year_by_year() -> None:
    evidence = ["The 2007–08 Premier League season ran from 11 August 2007 to 11 May 2008."]
    answer = "Manchester United won the league in the 2007-08 season."
    assert [(text, verdict) for text, verdict, _ in verdicts_of(answer, evidence)] == [
        ("2007", "supported"),
        ("08", "supported"),
    ]
    shifted = "Manchester United won the league in the 2008-09 season."
    assert [verdict for _, verdict, _ in verdicts_of(shifted, evidence)][1] != "supported"


def test_raw_json_years_before_1900_count_as_years() -> None:
    record = [{"name": "Frédéric Chopin", "born": 1810, "died": 1849}]
    assert verdict_of("Chopin was born in 1810.", record, "1810")[0] == "supported"
    assert verdict_of("Chopin was born in 1811.", record, "1811") == (
        "contradicted",
        "date_component_changed",
    )


def test_a_context_year_that_is_really_a_count_is_still_supported_by_the_count() -> None:
    # "in 1500 stores" reads as a year; the same figure as a plain evidence number supports it.
    assert verdict_of("The product is now sold in 1500 stores.", [{"stores": 1500}], "1500")[0] == "supported"
    assert verdict_of("The product is now sold in 1500 stores.", ["Stocked by 1,500 stores."], "1500")[0] == (
        "supported"
    )


def test_a_year_written_as_a_plain_number_is_supported_by_an_evidence_date() -> None:
    # No year word before "1849": a number, which the evidence states only inside a date.
    assert verdict_of("Chopin's last year, 1849, was spent in Paris.", CHOPIN, "1849")[0] == "supported"


def test_quantities_near_years_are_unaffected() -> None:
    evidence = [{"units_sold": 1500, "launch": "2019-04-02"}]
    assert verdict_of("We sold 1,500 units.", evidence, "1,500")[0] == "supported"
    assert verdict_of("We sold 1,510 units.", evidence, "1,510") == ("contradicted", "digit_changed")


# --- years: the grammar's year rules, one at a time ------------------------------------------------


@pytest.mark.parametrize(
    ("first", "written", "last"),
    [
        (1810, "1849", 1849),
        (2019, "21", 2021),
        (1812, "15", 1815),
        (1999, "00", 2000),
        (2007, "08", 2008),
        (1850, "1820", None),  # backwards: no period
        (2019, "15", None),  # "2019-15" is no range
        (2024, "2020", 2020),  # two 19xx/20xx years were always read as two years
    ],
)
def test_range_end(first: int, written: str, last: int | None) -> None:
    """A range ``(first–written)`` is two years, the second ending the period; no range: one year."""
    years = [first] if last is None else [first, last]
    assert [readings for _, readings in dates_in(f"({first}–{written})")] == [
        ((year, None, None),) for year in years
    ]


@pytest.mark.parametrize(
    ("first", "separator", "written", "month"),
    [
        (2025, "-", "01", 1),
        (2007, "-", "12", 12),
        (2007, "-", "08", None),  # the next year's digits: a season
        (2007, "–", "06", None),  # an en dash never writes an ISO month
        (2007, " - ", "06", None),
        (1810, "-", "06", None),
        (2025, "-", "13", None),
    ],
)
def test_iso_month(first: int, separator: str, written: str, month: int | None) -> None:
    """``YYYY-MM`` is one month-of-year date exactly when it reads as an ISO month."""
    found = dates_in(f"period {first}{separator}{written}.")
    if month is None:
        assert found and all(reading[1] is None for _, readings in found for reading in readings)
    else:
        assert found == [(f"{first}{separator}{written}", ((first, month, None),))]


@pytest.mark.parametrize(
    ("text", "context"),
    [
        ("born in 1810", True),
        ("In 1810", True),
        ("(1810", True),
        ("(b. 1810", True),
        ("within 1810", False),  # "in" must be a whole word
        ("sold 1810", False),
        ("of 1810", False),
    ],
)
def test_year_context(text: str, context: bool) -> None:
    """1810 (outside 1900-2099) is a year only after "(" or a year word; otherwise a number."""
    if context:
        assert dates_in(f"{text} x") == [("1810", ((1810, None, None),))]
    else:
        assert dates_in(f"{text} x") == [] and ("number", "1810") in kinds_in(f"{text} x")


def test_slipped_years_come_nearest_first_and_stay_four_digits() -> None:
    slipped = slipped_years(1810)
    assert slipped[:2] == [1809, 1811]
    assert {1801, 1910, 1850, 1815} <= set(slipped)
    assert 1810 not in slipped and all(1000 <= year <= 9999 for year in slipped)
    assert len(slipped) == len(set(slipped)) <= 2 + 4 * 9 + 3
