"""Money, percent and number atoms: values, precision tolerance, currencies, units, hedges, locales."""

from __future__ import annotations

import pytest

from tests.scoring.native_parts import Atom, Quantity, extract_atoms


def only_atom(text: str, **options: object) -> Atom:
    atoms = extract_atoms(text, **options)  # type: ignore[arg-type]
    assert len(atoms) == 1, atoms
    atom = atoms[0]
    assert text[atom.start : atom.end] == atom.text
    return atom


def quantity_of(text: str, kind: str, **options: object) -> tuple[str, Quantity]:
    atom = only_atom(text, **options)
    assert atom.kind == kind
    assert isinstance(atom.value, Quantity)
    return atom.text, atom.value


@pytest.mark.parametrize(
    ("text", "span", "value", "tolerance", "currency"),
    [
        ("Revenue was $1,243,500.", "$1,243,500", 1_243_500, 0.5, "USD"),
        ("Revenue was $1,243,500.00.", "$1,243,500.00", 1_243_500, 0.005, "USD"),
        ("a fee of €1,000", "€1,000", 1_000, 50, "EUR"),
        ("paid £250 today", "£250", 250, 0.5, "GBP"),
        ("¥5,000", "¥5,000", 5_000, 50, "JPY"),
        ("₹12,500", "₹12,500", 12_500, 50, "INR"),
        ("US$1,243", "US$1,243", 1_243, 0.5, "USD"),
        ("C$99.50", "C$99.50", 99.5, 0.005, "CAD"),
        ("USD 2,500,000", "USD 2,500,000", 2_500_000, 50_000, "USD"),
        ("2,500,000 EUR", "2,500,000 EUR", 2_500_000, 50_000, "EUR"),
        ("USD2,513", "USD2,513", 2_513, 0.5, "USD"),
        ("$1.24 million", "$1.24 million", 1_240_000, 5_000, "USD"),
        ("$3.83 billion", "$3.83 billion", 3_830_000_000, 5_000_000, "USD"),
        ("$1.24 M", "$1.24 M", 1_240_000, 5_000, "USD"),
        ("$1.24M", "$1.24M", 1_240_000, 5_000, "USD"),
        ("$2.5bn", "$2.5bn", 2_500_000_000, 50_000_000, "USD"),
        ("$10m raised", "$10m", 10_000_000, 500_000, "USD"),
        ("$2 trillion", "$2 trillion", 2e12, 5e11, "USD"),
        ("a refund of -$120", "-$120", -120, 0.5, "USD"),
        ("a balance of $-120", "$-120", -120, 0.5, "USD"),
        ("1.2 million dollars", "1.2 million dollars", 1_200_000, 50_000, "USD"),
        ("500 euros", "500 euros", 500, 0.5, "EUR"),
        ("only $12", "$12", 12, 0.5, "USD"),  # money is exempt from the digit floor
    ],
)
def test_money(text: str, span: str, value: float, tolerance: float, currency: str) -> None:
    written, quantity = quantity_of(text, "money")
    assert written == span
    assert quantity.value == pytest.approx(value)
    assert quantity.tolerance == pytest.approx(tolerance)
    assert quantity.currency == currency
    assert quantity.unit is None


def test_currencies_keep_euro_and_dollar_apart() -> None:
    euro, dollar = (quantity_of(text, "money")[1] for text in ("€1,000", "$1,000"))
    assert euro.value == dollar.value
    assert (euro.currency, dollar.currency) == ("EUR", "USD")


@pytest.mark.parametrize(
    ("text", "locale", "span", "value", "tolerance"),
    [
        ("Summe: 1.243.500 €", "de-DE", "1.243.500 €", 1_243_500, 0.5),
        ("€1.000", "de-DE", "€1.000", 1_000, 50),
        ("2,5 Mio. €", "de-DE", "2,5 Mio. €", 2_500_000, 50_000),
        ("1.243.500,00 EUR", "de-DE", "1.243.500,00 EUR", 1_243_500, 0.005),
        ("1 243 500 €", "fr-FR", "1 243 500 €", 1_243_500, 0.5),
        ("1\u202f243\u202f500,50 €", "fr-FR", "1\u202f243\u202f500,50 €", 1_243_500.5, 0.005),
        ("£1,243,500", "en-GB", "£1,243,500", 1_243_500, 0.5),
    ],
)
def test_money_in_locales(text: str, locale: str, span: str, value: float, tolerance: float) -> None:
    written, quantity = quantity_of(text, "money", locale=locale)
    assert written == span
    assert quantity.value == pytest.approx(value)
    assert quantity.tolerance == pytest.approx(tolerance)
    assert quantity.currency == "EUR" or locale == "en-GB"


@pytest.mark.parametrize(
    ("text", "span", "value", "tolerance", "unit"),
    [
        ("up 15%", "15%", 15, 0.5, "%"),
        ("up 15.3 %", "15.3 %", 15.3, 0.05, "%"),
        ("up 15 percent", "15 percent", 15, 0.5, "%"),
        ("up 15 per cent", "15 per cent", 15, 0.5, "%"),
        ("down -15.3% on the year", "-15.3%", -15.3, 0.05, "%"),
        ("a −2% move", "−2%", -2, 0.5, "%"),
        ("+2.5% today", "+2.5%", 2.5, 0.05, "%"),
        ("3 percentage points", "3 percentage points", 3, 0.5, "pp"),
        ("up 3 pp", "3 pp", 3, 0.5, "pp"),
        ("up 3 pts", "3 pts", 3, 0.5, "pp"),
        ("cut by 25 bps", "25 bps", 0.25, 0.005, "pp"),
        ("cut by 25 basis points", "25 basis points", 0.25, 0.005, "pp"),
    ],
)
def test_percent(text: str, span: str, value: float, tolerance: float, unit: str) -> None:
    written, quantity = quantity_of(text, "percent")
    assert written == span
    assert quantity.value == pytest.approx(value)
    assert quantity.tolerance == pytest.approx(tolerance)
    assert quantity.unit == unit
    assert quantity.currency is None


@pytest.mark.parametrize(
    ("text", "locale", "value", "unit"),
    [
        ("15,3 %", "de-DE", 15.3, "%"),
        ("3 Prozent", "de-DE", 3, "%"),
        ("3 Prozentpunkte", "de-DE", 3, "pp"),
        ("15,3\u202f%", "fr-FR", 15.3, "%"),
        ("3 pour cent", "fr-FR", 3, "%"),
        ("25 points de base", "fr-FR", 0.25, "pp"),
    ],
)
def test_percent_in_locales(text: str, locale: str, value: float, unit: str) -> None:
    _, quantity = quantity_of(text, "percent", locale=locale)
    assert quantity.value == pytest.approx(value)
    assert quantity.unit == unit


def test_range_dash_is_not_a_minus_sign() -> None:
    atoms = extract_atoms("grew 10-15% a year", min_number_digits=1)
    assert [(a.kind, a.text) for a in atoms] == [("number", "10"), ("percent", "15%")]
    assert isinstance(atoms[1].value, Quantity) and atoms[1].value.value == 15


@pytest.mark.parametrize(
    ("text", "span", "value", "tolerance", "digits"),
    [
        ("shipped 4,812 units", "4,812", 4_812, 0.5, "4812"),
        ("total 12,500.75", "12,500.75", 12_500.75, 0.005, "1250075"),
        ("ratio 1234.5", "1234.5", 1_234.5, 0.05, "12345"),
        ("reach 1,200,000 users", "1,200,000", 1_200_000, 50_000, "12"),
        ("about 4,800 to go", "4,800", 4_800, 100, "48"),  # hedged: 2.5%, under one unit
        ("exactly 4,800", "4,800", 4_800, 50, "48"),
        ("a 2,000 cap", "2,000", 2_000, 50, "20"),
        ("1,250,000 rows", "1,250,000", 1_250_000, 5_000, "125"),
        ("1,243,500 rows", "1,243,500", 1_243_500, 0.5, "1243500"),
        ("0.1534 share", "0.1534", 0.1534, 0.00005, "1534"),
    ],
)
def test_number_precision(text: str, span: str, value: float, tolerance: float, digits: str) -> None:
    written, quantity = quantity_of(text, "number")
    assert written == span
    assert quantity.value == pytest.approx(value)
    assert quantity.tolerance == pytest.approx(tolerance)
    assert quantity.digits == digits


def test_small_money_keeps_its_trailing_zeros_exact() -> None:
    _, quantity = quantity_of("a $100 fee", "money")
    assert quantity.tolerance == 0.5


@pytest.mark.parametrize(
    ("text", "span", "value", "tolerance"),
    [
        ("12k followers", "12k", 12_000, 500),
        ("2.5M users", "2.5M", 2_500_000, 50_000),
        ("1.2 million users", "1.2 million", 1_200_000, 50_000),
        ("3 thousand users", "3 thousand", 3_000, 500),
        ("2 trillion tokens", "2 trillion", 2e12, 5e11),
        ("7B parameters", "7B", 7e9, 5e8),
    ],
)
def test_magnitudes_scale_and_skip_the_digit_floor(
    text: str, span: str, value: float, tolerance: float
) -> None:
    written, quantity = quantity_of(text, "number")
    assert written == span
    assert quantity.value == pytest.approx(value)
    assert quantity.tolerance == pytest.approx(tolerance)
    assert quantity.unit is None


@pytest.mark.parametrize(
    ("text", "span", "value", "unit"),
    [
        ("p99 of 1500ms", "1500ms", 1_500, "ms"),
        ("p99 of 1500 ms", "1500 ms", 1_500, "ms"),
        ("weighs 2500kg", "2500kg", 2_500, "kg"),
        ("uses 64MB", "64MB", 64, "MB"),
        ("uses 10GB", "10GB", 10, "GB"),
        ("ran 5km", "5km", 5, "km"),
        ("a 10m cable", "10m", 10, "m"),  # lower-case m is a unit unless money is meant
        ("took 3h", "3h", 3, "h"),
    ],
)
def test_unit_suffixes_are_not_magnitudes(text: str, span: str, value: float, unit: str) -> None:
    written, quantity = quantity_of(text, "number")
    assert written == span
    assert quantity.value == value
    assert quantity.unit == unit


def test_single_letter_unit_must_be_glued() -> None:
    assert extract_atoms("took 5 s", min_number_digits=1)[0].text == "5"


@pytest.mark.parametrize(
    ("text", "span", "hedged", "tolerance"),
    [
        ("about $1,200,000", "$1,200,000", True, 50_000),
        ("roughly 4,812", "4,812", True, 1),
        ("~4,812", "4,812", True, 1),
        ("approx. 4,812", "4,812", True, 1),
        ("≈ 4,812", "4,812", True, 1),
        ("some 4,812", "4,812", True, 1),
        ("nearly 4,812", "4,812", True, 1),
        ("around 15%", "15%", True, 0.5),
        ("handsome 4,812", "4,812", False, 0.5),
        ("about the 4,812", "4,812", False, 0.5),
        ("etwa 4.812", "4.812", True, 1),
    ],
)
def test_hedges_widen_tolerance_short_of_the_next_figure(
    text: str, span: str, hedged: bool, tolerance: float
) -> None:
    locale = "de-DE" if text.startswith("etwa") else "en-US"
    atom = only_atom(text, locale=locale)
    assert atom.text == span
    assert isinstance(atom.value, Quantity)
    assert atom.value.hedged is hedged
    assert atom.value.tolerance == pytest.approx(tolerance, rel=1e-4)  # a hedge: just under one unit


@pytest.mark.parametrize(
    ("text", "locale", "value", "tolerance"),
    [
        ("1.234,56", "de-DE", 1_234.56, 0.005),
        ("1.234", "de-DE", 1_234, 0.5),
        ("1243500.00", "de-DE", 1_243_500, 0.005),  # an English-formatted tool value
        ("1 234,56", "fr-FR", 1_234.56, 0.005),
        ("12\u202f500", "fr-FR", 12_500, 50),
        ("12\u00a0500", "fr-FR", 12_500, 50),
        ("1.234", "en-US", 1.234, 0.0005),
    ],
)
def test_number_separators_per_locale(text: str, locale: str, value: float, tolerance: float) -> None:
    _, quantity = quantity_of(text, "number", locale=locale)
    assert quantity.value == pytest.approx(value)
    assert quantity.tolerance == pytest.approx(tolerance)


@pytest.mark.parametrize(
    "text",
    ["A320", "model v2", "COVID-19", "room4812", "ABCD1234x", "page 123", "1234.567 in fr"],
)
def test_not_numbers(text: str) -> None:
    locale = "fr-FR" if text.endswith("in fr") else "en-US"
    assert [a for a in extract_atoms(text, locale=locale) if a.kind in ("number", "money", "percent")] == []


def test_digit_floor_is_configurable() -> None:
    assert extract_atoms("page 123") == []
    assert [a.text for a in extract_atoms("page 123", min_number_digits=3)] == ["123"]


@pytest.mark.parametrize("text", ["2.62", "2,025", "20.5"])
def test_four_character_figures_that_are_not_years(text: str) -> None:
    atoms = extract_atoms(text, min_number_digits=1)
    assert [(a.kind, a.text) for a in atoms] == [("number", text)]
