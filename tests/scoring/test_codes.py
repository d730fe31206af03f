"""Alphanumeric codes (booking references, tracking numbers) and flight numbers written with a
space, compared as identifiers with the one-edit rule; names and models that are not codes."""

from __future__ import annotations

from typing import Any

import pytest

from otel_groundedness.scoring import score

TRIP: dict[str, Any] = {
    "booking_reference": "RX7K2Q",
    "flight": "UA1234",
    "parcel": {"carrier": "UPS", "tracking_number": "1Z999AA10123456784"},
}


def _ids(answer: str, evidence: Any = TRIP) -> list[tuple[str, str, str, str]]:
    report = score(answer, [evidence])
    return [(v.text, v.verdict, v.reason, str(v.value)) for v in report.verdicts if v.kind == "identifier"]


def test_codes_are_supported_exactly() -> None:
    assert _ids("Your booking RX7K2Q is confirmed; the parcel is 1Z999AA10123456784.") == [
        ("RX7K2Q", "supported", "exact", "RX7K2Q"),
        ("1Z999AA10123456784", "supported", "exact", "1Z999AA10123456784"),
    ]


def test_a_flight_number_with_a_space_is_the_glued_one() -> None:
    assert _ids("You are on flight UA 1234.") == [("UA 1234", "supported", "reformatted", "UA-1234")]
    assert _ids("You are on flight UA1234.") == [("UA1234", "supported", "exact", "UA-1234")]


@pytest.mark.parametrize(
    ("answer", "written"),
    [
        ("Your booking RX7K2O is confirmed.", "RX7K2O"),
        ("Your booking XR7K2Q is confirmed.", "XR7K2Q"),
        ("Tracking number 1Z999AA10123456785.", "1Z999AA10123456785"),
        ("You are on flight UA 1243.", "UA 1243"),
    ],
)
def test_a_code_one_edit_away_is_contradicted(answer: str, written: str) -> None:
    found = _ids(answer)
    assert [(text, verdict, reason) for text, verdict, reason, _ in found] == [
        (written, "contradicted", "identifier_edit")
    ]


def test_a_code_the_evidence_does_not_hold_is_unsupported() -> None:
    assert _ids("Your booking QZ4M8P is confirmed.") == [("QZ4M8P", "unsupported", "not_found", "QZ4M8P")]


@pytest.mark.parametrize(
    "answer",
    [
        "We use GPT4o for drafts.",
        "Our B2B and B2B2C sales grew.",
        "COVID19 delayed shipping.",
        "H2O, MP3 and 4K are not codes.",
        "The iPhone15 launched.",
        "FY2024Q3 and Q3FY25 are periods.",
        "The UK 300 stores closed.",
        "rx7k2q in lower case is a word.",
    ],
)
def test_names_models_and_periods_are_not_codes(answer: str) -> None:
    report = score(answer, [TRIP])
    assert [v.text for v in report.verdicts if v.kind == "identifier"] == []
