"""Evidence that once made ``score()`` raise (found by the native port's differential tests):
``score()`` never raises because of what the evidence holds."""

from __future__ import annotations

import decimal

from otel_groundedness._native import scale_note
from otel_groundedness.scoring import score

_TABLE = "| | 2024 | 2023 |\n|---|---|---|\n| Revenue | 5 | 2 |"


def test_a_thousands_note_with_an_apostrophe_is_read() -> None:
    assert scale_note("('000)") == (3, None)
    assert scale_note("Revenue ('000s)") == (3, None)
    report = score("Revenue grew 150% from 2023 to 2024.", [f"Table ('000)\n{_TABLE}"])
    assert [atom.text for atom in report.supported if atom.kind == "percent"] == ["150%"]


def test_a_scale_word_matched_through_a_non_ascii_fold_is_no_note() -> None:
    # re.IGNORECASE lets "İ" and "ſ" match "i" and "s"; their lower() is no scale word.
    assert scale_note("(In MİLLİONS)") is None
    assert scale_note("(in thouſands)") is None
    report = score("Revenue grew 150% from 2023 to 2024.", [f"(In MİLLİONS)\n{_TABLE}"])
    assert [atom.text for atom in report.supported if atom.kind == "percent"] == ["150%"]


def test_a_signaling_nan_is_no_figure() -> None:
    report = score(
        "The total is $1,250.00.", [{"total": decimal.Decimal("sNaN"), "paid": decimal.Decimal("1250")}]
    )
    assert report.supported and report.supported[0].text == "$1,250.00"
