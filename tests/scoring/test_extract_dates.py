"""Date atoms: formats, locale orders and month names, year ranges, bare years, relative dates."""

from __future__ import annotations

import datetime

import pytest

from tests.scoring.native_parts import CalendarDate, extract_atoms

Reading = tuple[int | None, int | None, int | None]
ANCHOR = datetime.date(2025, 3, 10)


def dates_in(text: str, **options: object) -> list[tuple[str, tuple[Reading, ...]]]:
    found = []
    for atom in extract_atoms(text, **options):  # type: ignore[arg-type]
        assert text[atom.start : atom.end] == atom.text
        if atom.kind == "date":
            assert isinstance(atom.value, CalendarDate)
            found.append((atom.text, atom.value.readings))
    return found


@pytest.mark.parametrize(
    ("text", "span", "reading"),
    [
        ("on 2025-03-03.", "2025-03-03", (2025, 3, 3)),
        ("at 2025-03-03T10:15:00Z", "2025-03-03T10:15:00Z", (2025, 3, 3)),
        ("at 2025-03-03 10:15:00+01:00", "2025-03-03 10:15:00+01:00", (2025, 3, 3)),
        ("on 03/03/2025", "03/03/2025", (2025, 3, 3)),
        ("on 3/3/25", "3/3/25", (2025, 3, 3)),
        ("on March 3, 2025.", "March 3, 2025", (2025, 3, 3)),
        ("on Mar 3, 2025", "Mar 3, 2025", (2025, 3, 3)),
        ("on Mar. 3 2025", "Mar. 3 2025", (2025, 3, 3)),
        ("on 3 March 2025", "3 March 2025", (2025, 3, 3)),
        ("on 28 June 2026", "28 June 2026", (2026, 6, 28)),
        ("on the 3rd of March", "3rd of March", (None, 3, 3)),
        ("on March 3rd", "March 3rd", (None, 3, 3)),
        ("since Mar 3", "Mar 3", (None, 3, 3)),
        ("in March 2025", "March 2025", (2025, 3, None)),
        ('"period": "2025-01"', "2025-01", (2025, 1, None)),
        ("usage for 2024-12.", "2024-12", (2024, 12, None)),
        ("in 2024 we grew", "2024", (2024, None, None)),
        ("by mid-2025", "2025", (2025, None, None)),
        ("due Feb 29, 2024", "Feb 29, 2024", (2024, 2, 29)),
        ("on 1/2/69", "1/2/69", (1969, 1, 2)),
        ("on 1/2/68", "1/2/68", (2068, 1, 2)),
    ],
)
def test_english_formats(text: str, span: str, reading: Reading) -> None:
    assert dates_in(text) == [(span, (reading,))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2025-13", [("2025", ((2025, None, None),))]),  # no month 13: a bare year
        # A two-digit year range is not a month: it is two years (the second written "25").
        ("FY 2024-25", [("2024", ((2024, None, None),)), ("25", ((2025, None, None),))]),
        ("2019-2020", [("2019", ((2019, None, None),)), ("2020", ((2020, None, None),))]),
        ("on 2025-01-15", [("2025-01-15", ((2025, 1, 15),))]),
    ],
)
def test_iso_year_month_only_with_a_month_number(text: str, expected: list[object]) -> None:
    assert dates_in(text) == expected


@pytest.mark.parametrize(
    ("text", "locale", "reading"),
    [
        ("03/04/2025", "en-US", (2025, 3, 4)),
        ("03/04/2025", "en-GB", (2025, 4, 3)),
        ("03/04/2025", "fr-FR", (2025, 4, 3)),
        ("03.04.2025", "de-DE", (2025, 4, 3)),
        ("3.3.2025", "de-DE", (2025, 3, 3)),
        ("3. März 2025", "de-DE", (2025, 3, 3)),
        ("3. Mär 2025", "de-DE", (2025, 3, 3)),
        ("3. Mrz. 2025", "de-DE", (2025, 3, 3)),
        ("1. Januar 2025", "de-DE", (2025, 1, 1)),
        ("März 2025", "de-DE", (2025, 3, None)),
        ("3 mars 2025", "fr-FR", (2025, 3, 3)),
        ("1er mars 2025", "fr-FR", (2025, 3, 1)),
        ("3 février 2025", "fr-FR", (2025, 2, 3)),
        ("3 fevrier 2025", "fr-FR", (2025, 2, 3)),
        ("15 août 2025", "fr-FR", (2025, 8, 15)),
        ("15 aout 2025", "fr-FR", (2025, 8, 15)),
        ("mars 2025", "fr-FR", (2025, 3, None)),
        ("March 3, 2025", "de-DE", (2025, 3, 3)),  # English month names work everywhere
        ("3 March 2025", "fr-FR", (2025, 3, 3)),
    ],
)
def test_locale_packs(text: str, locale: str, reading: Reading) -> None:
    assert dates_in(text, locale=locale) == [(text, (reading,))]


@pytest.mark.parametrize(
    ("text", "locale"),
    [("2025-02-30", "en-US"), ("Feb 29, 2023", "en-US"), ("31/04/2025", "en-US"), ("13/13/2025", "en-GB")],
)
def test_impossible_readings_are_dropped(text: str, locale: str) -> None:
    assert dates_in(text, locale=locale) == []


@pytest.mark.parametrize(
    ("text", "locale", "reading"),
    [
        ("15/04/2025", "en-US", (2025, 4, 15)),
        ("04/15/2025", "en-GB", (2025, 4, 15)),
        ("04.15.2025", "de-DE", (2025, 4, 15)),
        ("15/04/25", "en-US", (2025, 4, 15)),
    ],
)
def test_a_numeric_date_only_the_other_order_can_read_is_read_that_way(
    text: str, locale: str, reading: Reading
) -> None:
    # A day over 12 leaves one reading: the date is unmistakable whatever order the locale prefers.
    assert dates_in(f"due {text}.", locale=locale) == [(text, (reading,))]


@pytest.mark.parametrize(
    ("locale", "text", "readings"),
    [
        # The locale's order (en-US month/day, the others day/month) gives the one reading.
        ("en-US", "03/04/2025", ((2025, 3, 4),)),
        ("en-GB", "03/04/2025", ((2025, 4, 3),)),
        ("de-DE", "03/04/2025", ((2025, 4, 3),)),
        ("fr-FR", "03/04/2025", ((2025, 4, 3),)),
        ("en-US", "04/04/2025", ((2025, 4, 4),)),
        # A day over 12 leaves no doubt: the other order's reading.
        ("en-US", "13/04/2025", ((2025, 4, 13),)),
        ("en-GB", "04/13/2025", ((2025, 4, 13),)),
        ("en-US", "15/04/25", ((2025, 4, 15),)),
    ],
)
def test_numeric_date_reads_the_locale_order_then_the_other(
    locale: str, text: str, readings: tuple[Reading, ...]
) -> None:
    assert dates_in(f"on {text}.", locale=locale) == [(text, readings)]


def test_numeric_date_no_order_reads_is_not_one_date() -> None:
    assert all(span != "15/14/2025" for span, _ in dates_in("on 15/14/2025.", locale="en-US"))


@pytest.mark.parametrize("text", ["2020-2024", "2020–2024", "2020 - 2024"])
def test_year_range_is_two_years(text: str) -> None:
    atoms = extract_atoms(f"from {text} on", min_number_digits=1)
    assert [(a.kind, a.text) for a in atoms] == [("date", "2020"), ("date", "2024")]
    assert atoms[0].start == 5 and atoms[1].end == 5 + len(text)


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("March 30% of users", ["percent"]),
        ("May 12,500 units shipped", ["number"]),
        ("$2024 spent", ["money"]),
    ],
)
def test_month_names_and_years_do_not_swallow_figures(text: str, kinds: list[str]) -> None:
    assert [a.kind for a in extract_atoms(text)] == kinds


@pytest.mark.parametrize(
    ("text", "locale", "span", "reading"),
    [
        ("done today", "en-US", "today", (2025, 3, 10)),
        ("done yesterday", "en-US", "yesterday", (2025, 3, 9)),
        ("Tomorrow we ship", "en-US", "Tomorrow", (2025, 3, 11)),
        ("shipped 3 days ago", "en-US", "3 days ago", (2025, 3, 7)),
        ("ships in 3 days", "en-US", "in 3 days", (2025, 3, 13)),
        ("closed 2 weeks ago", "en-US", "2 weeks ago", (2025, 2, 24)),
        ("gestern", "de-DE", "gestern", (2025, 3, 9)),
        ("vor 3 Tagen", "de-DE", "vor 3 Tagen", (2025, 3, 7)),
        ("hier", "fr-FR", "hier", (2025, 3, 9)),
        ("il y a 3 jours", "fr-FR", "il y a 3 jours", (2025, 3, 7)),
        ("dans 2 jours", "fr-FR", "dans 2 jours", (2025, 3, 12)),
    ],
)
def test_relative_dates_resolve_against_the_anchor(
    text: str, locale: str, span: str, reading: Reading
) -> None:
    assert dates_in(text, locale=locale, anchor=ANCHOR) == [(span, (reading,))]


def test_relative_dates_need_an_anchor() -> None:
    assert dates_in("done yesterday, shipped 3 days ago, due in 3 days") == []
