"""Verdict rules over the evidence index, one answer figure at a time.

Each case writes one figure (``surface``) after some answer text and reads its verdict from
``score()``; the lexicon below states what the extractor reads the figure as, and ``verdict_for``
checks that it does, so these tests pin the comparison rules on known atom values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from otel_groundedness._native import one_edit_apart
from otel_groundedness.scoring import AtomVerdict, GroundednessPolicy, score
from otel_groundedness.scoring.atoms import AtomKind
from tests.scoring.native_parts import AtomValue, CalendarDate, Identifier, Quantity, extract_atoms

Lexicon = Mapping[str, tuple[AtomKind, AtomValue]]


def usd(
    value: float, tolerance: float, digits: str, currency: str | None = "USD"
) -> tuple[AtomKind, Quantity]:
    return "money", Quantity(value, tolerance, digits, currency)


def verdict_for(
    surface: str,
    lexicon: Lexicon,
    evidence: list[Any],
    before: str = "",
    band: float = 0.15,
    locale: str = "en-US",
) -> AtomVerdict:
    """The verdict ``score`` gives ``surface`` written after the answer text ``before``, once the
    extractor is seen to read it as the lexicon says."""
    kind, value = lexicon[surface]
    answer = before + surface
    # The one atom inside the surface ("about $1,200,000": the figure, hedged by "about").
    inside = [a for a in extract_atoms(answer, locale=locale) if a.start >= len(before)]
    assert [(a.kind, a.value) for a in inside] == [(kind, value)], (surface, inside)
    span = (inside[0].start, inside[0].end)
    policy = GroundednessPolicy(contradicted_band=band, locale=locale)
    report = score(answer, evidence, policy=policy)
    (verdict,) = [v for v in report.verdicts if (v.start, v.end) == span]
    return verdict


LEX: dict[str, tuple[AtomKind, AtomValue]] = {
    "$1,243,500": usd(1_243_500, 0.5, "1243500"),
    "$1,234,500": usd(1_234_500, 0.5, "1234500"),
    "$1.24M": usd(1_240_000, 5_000, "124"),
    "$1.3M": usd(1_300_000, 50_000, "13"),
    "about $1,200,000": ("money", Quantity(1_200_000, 50_000, "12", "USD", hedged=True)),
    "$1,250,000": usd(1_250_000, 5_000, "125"),
    # Trailing zeros state lower precision: "$1,000" is 10 hundreds, give or take 50.
    "€1,000": usd(1000, 50, "10", "EUR"),
    "$1,000": usd(1000, 50, "10"),
    "$4.8B": usd(4.8e9, 5e7, "48"),
    "$4.8M": usd(4.8e6, 5e4, "48"),
    "$4,812": usd(4812, 0.5, "4812"),
    "$4,182": usd(4182, 0.5, "4182"),
    "$412": usd(412, 0.5, "412"),
    "$12.50": usd(12.5, 0.005, "1250"),
    "15.3%": ("percent", Quantity(15.3, 0.05, "153", unit="%")),
    "-15.3%": ("percent", Quantity(-15.3, 0.05, "153", unit="%")),
    "30%": ("percent", Quantity(30, 0.5, "30", unit="%")),
    "300%": ("percent", Quantity(300, 0.5, "300", unit="%")),
    "1500ms": ("number", Quantity(1500, 50, "15", unit="ms")),
    "7,431": ("number", Quantity(7431, 0.5, "7431")),
    "2025-03-03": ("date", CalendarDate(((2025, 3, 3),))),
    "2025-03-04": ("date", CalendarDate(((2025, 3, 4),))),
    "2025-04-03": ("date", CalendarDate(((2025, 4, 3),))),
    "2024-03-03": ("date", CalendarDate(((2024, 3, 3),))),
    "March 2025": ("date", CalendarDate(((2025, 3, None),))),
    "Mar 3": ("date", CalendarDate(((None, 3, 3),))),
    "2024": ("date", CalendarDate(((2024, None, None),))),
    "INV-2210": ("identifier", Identifier("INV-2210", "ticket")),
    "inv-2210": ("identifier", Identifier("INV-2210", "ticket")),
    "INV-2201": ("identifier", Identifier("INV-2201", "ticket")),
    "INV-9999": ("identifier", Identifier("INV-9999", "ticket")),
    "#4521": ("identifier", Identifier("#4521", "ticket")),
}


@pytest.mark.parametrize(
    ("answer", "evidence", "verdict", "reason"),
    [
        ("$1,243,500", [{"total": 1243500}], "supported", "reformatted"),
        ("$1,243,500", ["Revenue was $1,243,500."], "supported", "exact"),
        ("$1,243,500", [{"amount": "1243500.00"}], "supported", "reformatted"),
        ("$1.24M", [{"total": 1243500}], "supported", "within_precision"),
        ("about $1,200,000", [{"total": 1243500}], "supported", "within_precision"),
        ("15.3%", [{"margin": 0.153}], "supported", "reformatted"),
        ("15.3%", [{"margin_pct": 15.3}], "supported", "reformatted"),
        ("$12.50", [{"amount_cents": 1250}], "supported", "reformatted"),
        ("$1,234,500", [{"total": 1243500}], "contradicted", "digit_transposition"),
        ("$4,182", [{"total": 4812}], "contradicted", "digit_transposition"),
        ("$412", [{"total": 4812}], "contradicted", "digit_dropped"),
        ("$4.8B", ["Revenue: $4.8M"], "contradicted", "magnitude_mismatch"),
        ("-15.3%", [{"margin": 0.153}], "contradicted", "sign_flip"),
        ("€1,000", ["Refund of $1,000 issued"], "contradicted", "currency_mismatch"),
        ("$1,000", [{"refund": 1000, "currency": "EUR"}], "contradicted", "currency_mismatch"),
        ("$1,243,500", ["Revenue roughly $1.24M"], "unsupported", "more_precise_than_evidence"),
        ("$1,243,500", [{"total": 99}], "unsupported", "not_found"),
        # "1500ms" is a duration: a $1,500 in the evidence says nothing about it.
        ("1500ms", ["Fee: $1,500"], "unsupported", "not_found"),
        # Money is never supported by a percent.
        ("$1,000", ["Uptime 1000%"], "unsupported", "not_found"),
    ],
)
def test_numeric_rules(answer: str, evidence: list[Any], verdict: str, reason: str) -> None:
    lexicon = {
        **LEX,
        "$1,500": usd(1500, 0.5, "1500"),
        "1000%": ("percent", Quantity(1000, 0.5, "1000", unit="%")),
    }
    judgement = verdict_for(answer, lexicon, evidence)
    assert (judgement.verdict, judgement.reason) == (verdict, reason)


def test_magnitude_slip_of_a_single_digit_needs_shared_context() -> None:
    assert verdict_for("30%", LEX, [{"uptime": "300%"}]).verdict == "unsupported"
    tied = verdict_for("30%", LEX, [{"growth": "300%"}], before="Growth was ")
    assert (tied.verdict, tied.reason) == ("contradicted", "magnitude_mismatch")


def test_magnitude_slip_is_found_at_the_answers_precision() -> None:
    lexicon = {**LEX, "12.8M": ("number", Quantity(12_800_000, 50_000, "128"))}
    judgement = verdict_for("12.8M", lexicon, [{"requests": 1_284_330}], before="We served requests: ")
    assert (judgement.verdict, judgement.reason) == ("contradicted", "magnitude_mismatch")
    # Untied, a rounded figure only slips against evidence stating exactly its digits.
    assert verdict_for("12.8M", lexicon, [{"requests": 1_284_330}]).verdict == "unsupported"
    assert verdict_for("12.8M", lexicon, [{"requests": 1_280_000}]).reason == "magnitude_mismatch"


def test_a_decrease_word_gives_an_unsigned_figure_its_sign() -> None:
    assert verdict_for("15.3%", LEX, [{"change": -0.153}], before="Margin fell ").verdict == "supported"
    flipped = verdict_for("15.3%", LEX, [{"change": -0.153}], before="Margin grew ")
    assert (flipped.verdict, flipped.reason) == ("contradicted", "sign_flip")


def test_an_abbreviated_commit_hash_is_supported_by_the_full_hash() -> None:
    lexicon: Lexicon = {
        "9fceb02": ("identifier", Identifier("9fceb02", "hash")),
        "9fceb02d0ae598e95dc970b74767f19372d61af8": (
            "identifier",
            Identifier("9fceb02d0ae598e95dc970b74767f19372d61af8", "hash"),
        ),
    }
    judgement = verdict_for("9fceb02", lexicon, [{"commit": "9fceb02d0ae598e95dc970b74767f19372d61af8"}])
    assert (judgement.verdict, judgement.reason) == ("supported", "within_precision")


def test_near_value_without_context_or_digit_relation_is_unsupported() -> None:
    # 1,250,000 is 8% from the evidence total, within the band, but nothing ties the two.
    evidence = [{"shipping_weight": 1_160_000}]
    assert verdict_for("$1,250,000", LEX, evidence).reason == "not_found"
    tied = verdict_for("$1,250,000", LEX, [{"invoice_total": 1_160_000}], before="The invoice came to ")
    assert (tied.verdict, tied.reason) == ("contradicted", "value_changed")


def test_near_value_outside_the_band_is_unsupported_even_with_context() -> None:
    judgement = verdict_for("$1,250,000", LEX, [{"invoice_total": 900_000}], before="The invoice came to ")
    assert judgement.verdict == "unsupported"
    assert verdict_for(
        "$1,250,000", LEX, [{"invoice_total": 1_100_000}], before="The invoice came to ", band=0.0
    ).verdict == ("unsupported")


def test_contradiction_cites_the_evidence_value() -> None:
    judgement = verdict_for("$1,234,500", LEX, [{"invoice": {"total": 1243500}}])
    citation = judgement.citation
    assert citation is not None
    assert (citation.path, citation.text, citation.evidence_index) == ("$.invoice.total", "1243500", 0)


@pytest.mark.parametrize(
    ("answer", "evidence", "verdict", "reason"),
    [
        ("2025-03-03", ["Due 2025-03-03"], "supported", "exact"),
        ("March 2025", ["Due 2025-03-03"], "supported", "within_precision"),
        ("Mar 3", ["Due 2025-03-03"], "supported", "within_precision"),
        ("2024", [{"fiscal_year": 2024}], "supported", "exact"),
        ("2025-03-04", ["Due 2025-03-03"], "contradicted", "date_component_changed"),
        ("2025-04-03", ["Due 2025-03-03"], "contradicted", "date_component_changed"),
        ("2024-03-03", ["Due 2025-03-03"], "contradicted", "date_component_changed"),
        # A full date is more precise than an evidence date without a year: not supported.
        ("2025-03-03", ["Due Mar 3"], "unsupported", "not_found"),
        # Year-only dates are tied to a neighbouring year only through shared words.
        ("2024", [{"count": 2025}], "unsupported", "not_found"),
    ],
)
def test_date_rules(answer: str, evidence: list[Any], verdict: str, reason: str) -> None:
    judgement = verdict_for(answer, LEX, evidence)
    assert (judgement.verdict, judgement.reason) == (verdict, reason)


@pytest.mark.parametrize(
    ("locale", "reading", "verdict", "reason"),
    [
        ("en-GB", (2025, 4, 3), "supported", "reformatted"),
        ("en-US", (2025, 3, 4), "contradicted", "date_component_changed"),
    ],
)
def test_a_numeric_date_is_read_in_the_locales_order(
    locale: str, reading: tuple[int, int, int], verdict: str, reason: str
) -> None:
    lexicon = {**LEX, "03/04/2025": ("date", CalendarDate((reading,)))}
    judgement = verdict_for("03/04/2025", lexicon, ["Shipped 2025-04-03"], locale=locale)
    assert (judgement.verdict, judgement.reason) == (verdict, reason)


def test_swapped_day_and_month_is_a_changed_date() -> None:
    lexicon = {
        **LEX,
        "2025-03-05": ("date", CalendarDate(((2025, 3, 5),))),
        "2025-05-03": ("date", CalendarDate(((2025, 5, 3),))),
    }
    judgement = verdict_for("2025-03-05", lexicon, [{"due": "2025-05-03"}])
    assert (judgement.verdict, judgement.reason) == ("contradicted", "date_component_changed")


def test_year_off_by_one_with_shared_words_is_contradicted() -> None:
    judgement = verdict_for("2024", LEX, [{"fiscal_year": 2025}], before="In fiscal ")
    assert (judgement.verdict, judgement.reason) == ("contradicted", "date_component_changed")


@pytest.mark.parametrize(
    ("answer", "evidence", "verdict", "reason"),
    [
        ("INV-2210", [{"INV-2210": {"amount": 5}}], "supported", "exact"),
        ("inv-2210", ["Invoice INV-2210 is paid"], "supported", "reformatted"),
        ("#4521", [{"ticket": 4521}], "supported", "reformatted"),
        ("INV-2201", ["Invoice INV-2210 is paid"], "contradicted", "identifier_edit"),
        ("INV-9999", ["Invoice INV-2210 is paid"], "unsupported", "not_found"),
    ],
)
def test_identifier_rules(answer: str, evidence: list[Any], verdict: str, reason: str) -> None:
    judgement = verdict_for(answer, LEX, evidence)
    assert (judgement.verdict, judgement.reason) == (verdict, reason)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("INV-2210", "INV-2201", True),  # adjacent swap
        ("INV-2210", "INV-2211", True),  # substitution
        ("INV-2210", "INV-210", True),  # deletion
        ("INV-2210", "INV-22100", True),  # insertion
        ("INV-2210", "INV-2210", False),
        ("INV-2210", "INV-1201", False),
        ("abc", "cba", False),
    ],
)
def test_one_edit_apart(first: str, second: str, expected: bool) -> None:
    assert one_edit_apart(first, second) is expected
    assert one_edit_apart(second, first) is expected


@pytest.mark.parametrize(
    ("answer", "evidence", "verdict", "reason"),
    [
        # Payment APIs (Stripe, Adyen, Square) give amounts in minor units beside a currency code.
        ("It costs $19.99.", {"amount": 1999, "currency": "usd"}, "supported", "reformatted"),
        (
            "It costs $19.99.",
            {"lines": {"data": [{"amount": 1999, "currency": "usd"}]}},
            "supported",
            "reformatted",
        ),
        ("It costs $1,999.", {"amount": 1999, "currency": "usd"}, "supported", "reformatted"),
        ("It costs $19.89.", {"amount": 1999, "currency": "usd"}, "contradicted", "digit_changed"),
        # Not minor units: a currency without hundredths, a figure written as a string, no currency.
        ("It costs ¥19.99.", {"amount": 1999, "currency": "jpy"}, "contradicted", "magnitude_mismatch"),
        ("It costs $19.99.", {"amount": "1999", "currency": "usd"}, "contradicted", "magnitude_mismatch"),
        ("It costs $19.99.", {"amount": 1999}, "contradicted", "magnitude_mismatch"),
    ],
)
def test_integer_amounts_beside_a_currency_code_also_read_as_minor_units(
    answer: str, evidence: dict[str, Any], verdict: str, reason: str
) -> None:
    assert verdicts_of(answer, [evidence]) == {(verdict, reason)}


def verdicts_of(answer: str, evidence: list[Any]) -> set[tuple[str, str]]:
    """The (verdict, reason) pairs ``score`` gives the answer's atoms; it must find some."""
    report = score(answer, evidence)
    atoms = report.supported + report.contradicted + report.unsupported
    assert atoms, answer
    return {(atom.verdict, atom.reason) for atom in atoms}


@pytest.mark.parametrize(
    ("answer", "evidence", "verdict", "reason"),
    [
        # A figure converted from the unit the evidence's key or text names.
        ("It weighs 2.5 kg.", {"weight_g": 2500}, "supported", "reformatted"),
        ("The file is 2.5 MB.", {"size_bytes": 2621440}, "supported", "reformatted"),
        ("The p99 is 1.2s.", {"p99_ms": 1200}, "supported", "reformatted"),
        ("Latency was 1.2s.", ["p99 latency 1200ms"], "supported", "reformatted"),
        ("The runs took 1.5h and 2h.", {"durations_min": [90, 120]}, "supported", "reformatted"),
        # A corrupted conversion is flagged; grams copied as kilograms are a thousandfold slip.
        ("It weighs 3.5 kg.", {"weight_g": 2500}, "unsupported", "not_found"),
        ("It weighs 2500 kg.", {"weight_g": 2500}, "contradicted", "magnitude_mismatch"),
        ("It weighs 2.5g.", {"weight_kg": 2.5}, "contradicted", "magnitude_mismatch"),
        # No unit named: a thousandfold gap is still a magnitude slip.
        ("It weighs 2.5 kg.", {"weight": 2500}, "contradicted", "magnitude_mismatch"),
    ],
)
def test_figures_converted_from_the_unit_the_evidence_names(
    answer: str, evidence: Any, verdict: str, reason: str
) -> None:
    assert verdicts_of(answer, evidence if isinstance(evidence, list) else [evidence]) == {(verdict, reason)}


@pytest.mark.parametrize(
    ("answer", "evidence", "verdict", "reason"),
    [
        # Financial data in thousands or millions, as the key says.
        ("Revenue was $4.2 billion.", {"revenue_usd_millions": 4200}, "supported", "reformatted"),
        ("Revenue was $4.2 billion.", {"revenue_m": 4200}, "supported", "reformatted"),
        ("Revenue was $4.2 billion.", {"revenueInThousands": 4200000}, "supported", "reformatted"),
        ("Revenue was $4.2 billion.", {"revenue_bn": 4.2}, "supported", "reformatted"),
        ("The city has 8.3 million people.", {"population_millions": 8.3}, "supported", "reformatted"),
        # A corrupted figure is still caught, and so is the wrong magnitude word.
        ("Revenue was $2.4 billion.", {"revenue_usd_millions": 4200}, "contradicted", "digit_transposition"),
        ("Revenue was $4.2 million.", {"revenue_usd_millions": 4200}, "contradicted", "magnitude_mismatch"),
    ],
)
def test_figures_read_at_the_magnitude_the_evidence_key_names(
    answer: str, evidence: Any, verdict: str, reason: str
) -> None:
    assert verdicts_of(answer, [evidence]) == {(verdict, reason)}
