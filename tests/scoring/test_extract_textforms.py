"""Text forms found in real documents and tool outputs (issue 9, part 2): each is read whole, on the
answer and the evidence side alike, and never as a partial figure."""

from __future__ import annotations

import pytest

from tests.scoring.native_parts import Atom, CalendarDate, Identifier, Quantity, extract_atoms


def read(text: str, **options: object) -> list[tuple[str, str]]:
    atoms = extract_atoms(text, **options)  # type: ignore[arg-type]
    for atom in atoms:
        assert text[atom.start : atom.end] == atom.text
    return [(atom.kind, atom.text) for atom in atoms]


def only(text: str, **options: object) -> Atom:
    atoms = extract_atoms(text, **options)  # type: ignore[arg-type]
    assert len(atoms) == 1, atoms
    return atoms[0]


def money(text: str) -> tuple[str, float, str | None]:
    atom = only(text)
    assert atom.kind == "money", atom
    assert isinstance(atom.value, Quantity)
    return atom.text, atom.value.value, atom.value.currency


# Currency codes glued to figures ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "span", "value", "currency"),
    [
        ("Revenue reached RMB12,345 million last year", "RMB12,345 million", 12_345e6, "CNY"),
        ("revenue of RMB 12,345 million", "RMB 12,345 million", 12_345e6, "CNY"),
        ("net profit 8,120 RMB", "8,120 RMB", 8_120, "CNY"),
        ("a USD1,000 deposit", "USD1,000", 1_000, "USD"),
        ("HK$12.5m in fees", "HK$12.5m", 12.5e6, "HKD"),
        ("EUR500 per seat", "EUR500", 500, "EUR"),
        ("TWD3,250 per unit", "TWD3,250", 3_250, "TWD"),
        ("a fee of CHF1,234.50", "CHF1,234.50", 1_234.5, "CHF"),
    ],
)
def test_currency_code_glued_to_a_figure_is_read_whole(
    text: str, span: str, value: float, currency: str
) -> None:
    written, amount, code = money(text)
    assert (written, code) == (span, currency)
    assert amount == pytest.approx(value)


@pytest.mark.parametrize(
    "text",
    [
        "Revenue reached ABC12,345 million",  # hex letters before the figure
        "batch XQZ12,345 shipped",
        "the abc12,345 million run",  # lower-case letters: nothing starts again at the group
        "lot ab1,234.56 closed",
        "Rs12,345 crore",
    ],
)
def test_a_figure_glued_to_a_word_is_never_read_as_its_tail(text: str) -> None:
    for kind, written in read(text):
        assert kind not in ("money", "number"), (kind, written)


# Magnitude abbreviations and money words -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "span", "value", "currency"),
    [
        ("net debt of $5 mln", "$5 mln", 5e6, "USD"),
        ("capex $5mln", "$5mln", 5e6, "USD"),
        ("EUR 3.2 MLN in grants", "EUR 3.2 MLN", 3.2e6, "EUR"),
        ("12.5 mln euros", "12.5 mln euros", 12.5e6, "EUR"),
        ("a $1.2 mn loan", "$1.2 mn", 1.2e6, "USD"),
        ("a $1.2 Mn loan", "$1.2 Mn", 1.2e6, "USD"),
        ("USD 3 bn bond", "USD 3 bn", 3e9, "USD"),
        ("EUR 3 BN bond", "EUR 3 BN", 3e9, "EUR"),
        ("RUB 4.1 bln", "RUB 4.1 bln", 4.1e9, "RUB"),
        ("a $4 tn economy", "$4 tn", 4e12, "USD"),
        ("a $4 Tn economy", "$4 Tn", 4e12, "USD"),
        ("a $250MM facility", "$250MM", 250e6, "USD"),
        ("$12k bonus", "$12k", 12e3, "USD"),
        ("it cost me 50 bucks", "50 bucks", 50, "USD"),
        ("about 12,500 bucks", "12,500 bucks", 12_500, "USD"),
        ("5k bucks", "5k bucks", 5e3, "USD"),
        ("a 20 quid taxi", "20 quid", 20, "GBP"),
        ("1.5 million quid", "1.5 million quid", 1.5e6, "GBP"),
    ],
)
def test_magnitude_abbreviations_and_money_words(text: str, span: str, value: float, currency: str) -> None:
    written, amount, code = money(text)
    assert (written, code) == (span, currency)
    assert amount == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "span", "value"), [("5 mln shares", "5 mln", 5e6), ("2.5k users", "2.5k", 2.5e3)]
)
def test_magnitude_abbreviations_on_plain_numbers(text: str, span: str, value: float) -> None:
    atom = only(text)
    assert (atom.kind, atom.text) == ("number", span)
    assert isinstance(atom.value, Quantity)
    assert atom.value.value == pytest.approx(value)


def test_mln_states_the_precision_of_its_digits() -> None:
    atom = only("$5.25 mln")
    assert isinstance(atom.value, Quantity)
    assert atom.value.tolerance == pytest.approx(5_000)


# Month names in any case ---------------------------------------------------------------------


def date_of(text: str, **options: object) -> tuple[str, tuple[int | None, int | None, int | None]]:
    atom = only(text, **options)
    assert atom.kind == "date", atom
    assert isinstance(atom.value, CalendarDate)
    assert len(atom.value.readings) == 1
    return atom.text, atom.value.readings[0]


@pytest.mark.parametrize(
    ("text", "span", "reading"),
    [
        ("the store opened on may 30, 2024.", "may 30, 2024", (2024, 5, 30)),
        ("it closed on 28 october 2023", "28 october 2023", (2023, 10, 28)),
        ("payment is due march 4th", "march 4th", (None, 3, 4)),
        ("signed 4th of march", "4th of march", (None, 3, 4)),
        ("released in may 2024", "may 2024", (2024, 5, None)),
        ("shipped on may 30", "may 30", (None, 5, 30)),
        ("valid until may 30.", "may 30", (None, 5, 30)),
        ("delivery date: may 30", "may 30", (None, 5, 30)),
        ("from 2 march", "2 march", (None, 3, 2)),
        ("posted jan 5, 2025", "jan 5, 2025", (2025, 1, 5)),
        ("renewal on december 1", "december 1", (None, 12, 1)),
        ("RENEWAL ON DECEMBER 1, 2025", "DECEMBER 1, 2025", (2025, 12, 1)),
        ("due sept 15", "sept 15", (None, 9, 15)),
    ],
)
def test_month_names_in_lower_and_upper_case(
    text: str, span: str, reading: tuple[int | None, int | None, int | None]
) -> None:
    assert date_of(text) == (span, reading)


@pytest.mark.parametrize(
    "text",
    [
        "you may 30 days later ask for a refund",  # the verb "may" before a count
        "up to 30 may attend",
        "the troops march 30 miles a day",
        "this may 2 things break",
        "weather may 15 degrees",
    ],
)
def test_may_and_march_as_words_are_not_dates(text: str) -> None:
    assert [kind for kind, _ in read(text) if kind == "date"] == []


def test_lower_case_month_names_in_other_locales() -> None:
    assert date_of("le 3 mars 2025", locale="fr-FR") == ("3 mars 2025", (2025, 3, 3))
    assert date_of("am 3. märz 2025", locale="de-DE") == ("3. märz 2025", (2025, 3, 3))


def test_a_range_of_lower_case_dates() -> None:
    assert read("open from may 1 to may 30") == [("date", "may 1"), ("date", "may 30")]


# Tokenised spacing (PDF, OCR and NLP pipelines) ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "span", "reading"),
    [
        ("he was born on December 6 , 1975 in Ohio", "December 6 , 1975", (1975, 12, 6)),
        ("signed on 6 December , 1975 .", "6 December , 1975", (1975, 12, 6)),
        ("filed Dec. 6 , 1975", "Dec. 6 , 1975", (1975, 12, 6)),
        ("in December , 1975 the", "December , 1975", (1975, 12, None)),
        ("on may 30 , 2024", "may 30 , 2024", (2024, 5, 30)),
    ],
)
def test_tokenised_commas_in_dates(
    text: str, span: str, reading: tuple[int | None, int | None, int | None]
) -> None:
    assert date_of(text) == (span, reading)


@pytest.mark.parametrize(
    ("text", "span", "value", "currency"),
    [
        ("net sales of $ 181,674,817 for", "$ 181,674,817", 181_674_817, "USD"),
        ("a £ 1.5 m grant", "£ 1.5 m", 1.5e6, "GBP"),
        ("operating loss ( 1,234 ) in", "( 1,234 )", -1_234, None),
        ("net loss ( $ 12,500 )", "( $ 12,500 )", -12_500, "USD"),
        ("margin change ( 2.5 % )", "( 2.5 % )", -2.5, None),
    ],
)
def test_tokenised_figures(text: str, span: str, value: float, currency: str | None) -> None:
    atom = only(text)
    assert isinstance(atom.value, Quantity)
    assert (atom.text, atom.value.currency) == (span, currency)
    assert atom.value.value == pytest.approx(value)


@pytest.mark.parametrize("text", ["headcount (1,234) grew", "the fee ($12,500) was paid", "( 1,234 more"])
def test_unspaced_parentheses_are_an_aside_not_a_sign(text: str) -> None:
    atom = only(text)
    assert isinstance(atom.value, Quantity)
    assert atom.value.value > 0
    assert "(" not in atom.text


# Alphanumeric product, flight and model codes --------------------------------------------------


def identifiers_of(text: str) -> list[tuple[str, str, str]]:
    found = []
    for atom in extract_atoms(text):
        assert atom.kind == "identifier", atom
        assert isinstance(atom.value, Identifier)
        found.append((atom.text, atom.value.normalized, atom.value.shape))
    return found


@pytest.mark.parametrize(
    ("text", "span", "normalized"),
    [
        ("Your flight KX750 departs at noon", "KX750", "KX-750"),
        ("the ZT9000 ships in May", "ZT9000", "ZT-9000"),
        ("reference AB1234.", "AB1234", "AB-1234"),
        ("(PO45123)", "PO45123", "PO-45123"),
        ("model RTX4090, in stock", "RTX4090", "RTX-4090"),
        ("patch KB5034441 failed", "KB5034441", "KB-5034441"),
    ],
)
def test_glued_codes_are_identifiers(text: str, span: str, normalized: str) -> None:
    assert identifiers_of(text) == [(span, normalized, "ticket")]


def test_a_glued_code_and_its_hyphenated_form_are_one_identifier() -> None:
    assert identifiers_of("KX-750 and KX750") == [
        ("KX-750", "KX-750", "ticket"),
        ("KX750", "KX-750", "ticket"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "a 5G network",
        "an MP3 file",
        "COVID19 cases",
        "an A320 jet",
        "H264 video",
        "SHA256 digest",
        "ISO9001 audit",
        "FY2024 results",
        "at CES2025",
        "Q3 and P99",
        "ZT9000X",
        "the kx750",
        "KX750-B kit",
        "model KX750.5",
    ],
)
def test_names_units_and_near_codes_are_not_identifiers(text: str) -> None:
    assert [atom for atom in extract_atoms(text) if atom.kind == "identifier"] == []


def test_a_currency_code_glued_to_digits_stays_money() -> None:
    assert read("USD1000 and KX750") == [("money", "USD1000"), ("identifier", "KX750")]


def test_resolution_like_4k_stays_a_magnitude_figure() -> None:
    assert read("a 4K TV") == [("number", "4K")]


# Identifiers and phone numbers glued to punctuation ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "span", "normalized"),
    [
        ("Your table is booked.212-555-0100 is the number to call", "212-555-0100", "2125550100"),
        ("questions?call.212.555.0100", "212.555.0100", "2125550100"),
        ("booked.+1 212 555 0100", "+1 212 555 0100", "2125550100"),
        ("(see above).212-555-0100", "212-555-0100", "2125550100"),
        ("confirmed.INV-2210 is paid", "INV-2210", "INV-2210"),
        ("confirmed.AB1234 is paid", "AB1234", "AB-1234"),
    ],
)
def test_identifiers_glued_to_sentence_punctuation(text: str, span: str, normalized: str) -> None:
    atom = only(text)
    assert atom.kind == "identifier"
    assert isinstance(atom.value, Identifier)
    assert (atom.text, atom.value.normalized) == (span, normalized)


@pytest.mark.parametrize("text", ["v1.212-555-0100", "3.212-555-0100", "1..212-555-0100"])
def test_a_phone_never_starts_inside_a_dotted_number(text: str) -> None:
    assert [a.text for a in extract_atoms(text) if a.kind == "identifier" and a.text == "212-555-0100"] == []


def test_a_word_glued_to_the_first_field_of_a_csv_row_keeps_the_other_fields() -> None:
    assert read("row1,12345,67890\nid7,24680,13579") == [
        ("number", "12345"),
        ("number", "67890"),
        ("number", "24680"),
        ("number", "13579"),
    ]


@pytest.mark.parametrize("text", ["a 9MM round", "5 MN lakes", "route 12345MM", "about 7 Mn"])
def test_finance_abbreviations_without_money_are_not_units(text: str) -> None:
    assert read(text) == []
