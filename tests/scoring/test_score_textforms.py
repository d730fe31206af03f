"""End to end: text forms of real documents (issue 9, part 2) scored against evidence in other forms."""

from __future__ import annotations

from typing import Any

from otel_groundedness.scoring import score


def verdicts(answer: str, evidence: Any) -> dict[str, tuple[str, str]]:
    report = score(answer, evidence)
    return {v.text: (v.verdict, v.reason) for v in report.verdicts}


FILING = (
    "Consolidated results. Revenue for the year was RMB12,345 million, up from RMB11,020 million, "
    "and net profit was RMB1,876 million."
)


def test_glued_currency_code_in_evidence_supports_the_figure() -> None:
    got = verdicts("Revenue for the year was RMB 12,345 million.", FILING)
    assert got == {"RMB 12,345 million": ("supported", "reformatted")}


def test_glued_currency_code_with_a_changed_digit_is_flagged() -> None:
    got = verdicts("Revenue for the year was RMB12,845 million.", FILING)
    assert got["RMB12,845 million"][0] == "contradicted"


def test_glued_code_in_the_answer_is_not_a_partial_figure() -> None:
    # Read as "345 million", a corrupted leading group would come out supported by "RMB345 million".
    got = verdicts("Revenue was RMB92,345 million.", "Segment revenue: RMB345 million.")
    assert got["RMB92,345 million"][0] != "supported"
    assert "345 million" not in got


def test_glued_iso_codes_match_symbols_and_json() -> None:
    got = verdicts(
        "The deposit is USD1,000 and the setup fee HK$12.5m.",
        {"deposit": {"amount": 1000, "currency": "USD"}, "setup_fee_hkd": "12,500,000 HKD"},
    )
    assert got == {"USD1,000": ("supported", "reformatted"), "HK$12.5m": ("supported", "reformatted")}


def test_abbreviated_magnitudes_match_full_figures() -> None:
    evidence = {"facility": {"size_usd": 250_000_000, "drawn_usd": 5_250_000, "fees": 12_000}}
    got = verdicts("The $250MM facility is $5.25 mln drawn, with $12k in fees.", evidence)
    assert got == {
        "$250MM": ("supported", "reformatted"),
        "$5.25 mln": ("supported", "reformatted"),
        "$12k": ("supported", "reformatted"),
    }


def test_abbreviated_magnitude_with_a_changed_digit_is_flagged() -> None:
    got = verdicts("Drawn: $5.52 mln.", {"facility": {"drawn_usd": 5_250_000}})
    assert got["$5.52 mln"][0] == "contradicted"


def test_money_words_carry_their_currency() -> None:
    evidence = {"ride": {"fare": 20, "currency": "GBP"}, "tip": {"amount": 50, "currency": "USD"}}
    got = verdicts("The taxi was 20 quid and the tip 50 bucks.", evidence)
    assert got == {"20 quid": ("supported", "reformatted"), "50 bucks": ("supported", "reformatted")}
    assert verdicts("The taxi was 20 bucks.", evidence)["20 bucks"] == ("contradicted", "currency_mismatch")


def test_lower_case_month_names_match_iso_dates() -> None:
    evidence = {"order": {"id": "ORD-5521", "placed_at": "2024-05-30", "delivered": "2024-06-04"}}
    got = verdicts("order ORD-5521 was placed on may 30, 2024 and delivered june 4th.", evidence)
    assert got["may 30, 2024"] == ("supported", "reformatted")
    assert got["june 4th"][0] == "supported"
    assert verdicts("placed on may 31, 2024", evidence)["may 31, 2024"][0] == "contradicted"


def test_the_verb_may_is_no_date_atom() -> None:
    report = score("You may 30 days after delivery ask for a refund.", {"refund_window_days": 30})
    assert report.no_factual_content


TOKENISED_FILING = (
    "Net sales were $ 181,674,817 for fiscal 1998 . Operating income ( loss ) was ( 1,234 ) thousand "
    "and the company was founded on December 6 , 1975 ."
)


def test_tokenised_evidence_supports_plain_answers() -> None:
    got = verdicts(
        "Net sales were $181,674,817, the operating loss was $1,234 (in thousands), "
        "and the company was founded on December 6, 1975.",
        TOKENISED_FILING,
    )
    assert got == {
        "$181,674,817": ("supported", "reformatted"),
        "$1,234": ("supported", "reformatted"),
        "December 6, 1975": ("supported", "reformatted"),
    }


def test_tokenised_evidence_still_flags_a_changed_digit() -> None:
    got = verdicts("Net sales were $181,647,817 and it was founded on December 9, 1975.", TOKENISED_FILING)
    assert got["$181,647,817"][0] == "contradicted"
    assert got["December 9, 1975"] == ("contradicted", "date_component_changed")


def test_a_tokenised_negative_against_a_positive_figure_without_a_decrease_word() -> None:
    got = verdicts("Operating income was $1,234.", TOKENISED_FILING)
    assert got["$1,234"] == ("contradicted", "sign_flip")


BOOKING = {
    "booking": {"ref": "AB1234", "flight": "KX750", "aircraft": "ZT9000", "fare": 1299.0, "currency": "USD"}
}


def test_codes_in_the_answer_are_checked_against_the_tool_output() -> None:
    got = verdicts("Booking AB1234 is on flight KX750 (a ZT9000), fare $1,299.", BOOKING)
    assert got == {
        "AB1234": ("supported", "exact"),
        "KX750": ("supported", "exact"),
        "ZT9000": ("supported", "exact"),
        "$1,299": ("supported", "reformatted"),
    }


def test_a_changed_code_is_an_identifier_edit() -> None:
    got = verdicts("You are on flight KX705 with booking AB1243.", BOOKING)
    assert got == {
        "KX705": ("contradicted", "identifier_edit"),
        "AB1243": ("contradicted", "identifier_edit"),
    }


def test_a_code_matches_its_hyphenated_form() -> None:
    assert verdicts("Flight KX750 is on time.", "Flight KX-750 (gate B12) is on time.") == {
        "KX750": ("supported", "reformatted")
    }


def test_a_phone_glued_to_a_full_stop_is_checked_whole() -> None:
    evidence = {"restaurant": {"name": "Chez Nous", "phone": "(212) 555-0100"}}
    assert verdicts("Your table is booked.212-555-0100 is their number.", evidence) == {
        "212-555-0100": ("supported", "reformatted")
    }
    got = verdicts("Your table is booked.212-555-0109 is their number.", evidence)
    assert got == {"212-555-0109": ("contradicted", "identifier_edit")}
