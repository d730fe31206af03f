"""The explanation on the span and event shows how a derived figure was computed."""

from __future__ import annotations

from otel_groundedness import score
from otel_groundedness.telemetry.evaluation import explanation

INVOICES = {"invoices": [{"id": "INV-1", "total": 1200.50}, {"id": "INV-2", "total": 799.50}]}
REVENUE = {"revenue_2024": 1250000, "revenue_2023": 1000000}


def test_explanation_shows_the_derivation() -> None:
    report = score("Your two invoices total $2,000.00.", [INVOICES, REVENUE])
    assert explanation(report) == (
        "1 of 1 atoms supported; derived: $2,000.00 = $.invoices[0].total + $.invoices[1].total"
    )


def test_operands_from_several_items_name_each_item_and_flags_come_first() -> None:
    answer = "Invoice INV-1 is $1,200.05; with 2024 revenue the invoice and revenue total $1,251,200.50."
    report = score(answer, [INVOICES, REVENUE])
    assert explanation(report) == (
        # INV-1 (a ticket code of one digit behind capitals) is the other supported atom.
        "2 of 4 atoms supported; contradicted: $1,200.05 (digit_transposition); unsupported: 2024; "
        "derived: $1,251,200.50 = #0 $.invoices[0].total + #1 $.revenue_2024"
    )
