"""Derived values: figures the agent computed from evidence figures (issue 9, part 1).

End to end through ``score()``: each operation with answers as agents write them, the units and
wording rules, the chance rule in number-dense evidence, the policy switch and the citation.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from otel_groundedness.env_config import EnvProblem
from otel_groundedness.scoring import GroundednessPolicy, score
from otel_groundedness.scoring.results import AtomVerdict, Citation, GroundednessReport

INVOICES = {"invoices": [{"id": "INV-1", "total": 1200.50}, {"id": "INV-2", "total": 799.50}]}
REVENUE = {"revenue_2024": 1250000, "revenue_2023": 1000000}


def only(answer: str, evidence: Any, **policy: Any) -> AtomVerdict:
    report = score(answer, evidence, policy=GroundednessPolicy(**policy))
    [verdict] = report.verdicts
    return verdict


def verdict_of(report: GroundednessReport, text: str) -> AtomVerdict:
    return next(verdict for verdict in report.verdicts if verdict.text == text)


# --- the four answers of the issue --------------------------------------------------------------


def test_two_invoices_total_is_a_derived_sum_citing_both_totals() -> None:
    verdict = only("Your two invoices total $2,000.00.", [INVOICES, REVENUE])
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_sum")
    citation = verdict.citation
    assert citation is not None and citation.operation == "sum"
    assert [(o.evidence_index, o.path, o.text) for o in citation.operands] == [
        (0, "$.invoices[0].total", "1200.5"),
        (0, "$.invoices[1].total", "799.5"),
    ]
    assert verdict.nearest_evidence is None


def test_revenue_grew_by_an_amount_is_a_derived_difference() -> None:
    verdict = only("Revenue grew by $250,000.", [INVOICES, REVENUE])
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_difference")
    assert verdict.citation is not None
    assert [o.path for o in verdict.citation.operands] == ["$.revenue_2024", "$.revenue_2023"]


def test_revenue_grew_a_percentage_is_a_derived_pct_change() -> None:
    verdict = only("Revenue grew 25% year over year.", [INVOICES, REVENUE])
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_pct_change")
    assert verdict.citation is not None
    assert [o.path for o in verdict.citation.operands] == ["$.revenue_2024", "$.revenue_2023"]


def test_average_invoice_is_a_derived_average_of_the_column() -> None:
    verdict = only("The average invoice is $1,000.", [INVOICES, REVENUE])
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_average")
    assert verdict.citation is not None and verdict.citation.operation == "average"
    assert [o.text for o in verdict.citation.operands] == ["1200.5", "799.5"]


# --- one example per operation, as agents write them --------------------------------------------


ORDER = {
    "order": {
        "id": "ORD-88213",
        "currency": "USD",
        "subtotal": 1579.88,
        "tax": 126.39,
        "shipping": 24.50,
        "lines": [
            {"sku": "KB-200", "quantity": 3, "unit_price": 89.99},
            {"sku": "MS-310", "quantity": 12, "unit_price": 24.95},
            {"sku": "DK-900", "quantity": 1, "unit_price": 1010.01},
        ],
    }
}


def test_subtotal_plus_tax_is_a_sum_of_one_row() -> None:
    verdict = only("With tax the order totals $1,706.27 before shipping.", ORDER)
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_sum")
    assert verdict.citation is not None
    assert {o.path for o in verdict.citation.operands} == {"$.order.subtotal", "$.order.tax"}


def test_unit_price_times_quantity_is_a_derived_product() -> None:
    report = score("The 12 mice at $24.95 each cost $299.40.", ORDER)
    line = verdict_of(report, "$299.40")
    assert (line.verdict, line.reason) == ("supported", "derived_product")
    assert line.citation is not None
    assert {o.path for o in line.citation.operands} == {
        "$.order.lines[1].quantity",
        "$.order.lines[1].unit_price",
    }


def test_line_prices_sum_over_a_whole_column() -> None:
    report = score("Before tax the three unit prices add up to $1,124.95.", ORDER)
    verdict = verdict_of(report, "$1,124.95")
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_sum")
    assert verdict.citation is not None and len(verdict.citation.operands) == 3


def test_share_of_a_total_is_a_derived_ratio() -> None:
    segments = {"revenue_by_segment": {"enterprise": 450000, "smb": 750000}, "total_revenue": 1200000}
    verdict = only("Enterprise accounts for 37.5% of total revenue.", segments)
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_ratio")
    assert verdict.citation is not None
    assert [o.path for o in verdict.citation.operands] == [
        "$.revenue_by_segment.enterprise",
        "$.total_revenue",
    ]


def test_a_stated_decrease_is_a_negative_pct_change() -> None:
    churn = {"churned_accounts": {"q1": 400, "q2": 350}}
    verdict = only("Churned accounts fell 12.5% from Q1 to Q2.", churn)
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_pct_change")


def test_fell_by_states_an_absolute_difference() -> None:
    costs = {"monthly_cost": [{"month": "2025-01", "cost": 48210.75}, {"month": "2025-02", "cost": 35810.75}]}
    verdict = only("Cloud cost fell by $12,400 from January to February.", costs)
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_difference")


def test_figures_of_one_sentence_of_text_evidence_are_related() -> None:
    note = "Line items this month: hosting $1,200.50 and support $799.50. Next review on 2025-07-01."
    report = score("The two line items total $2,000.00.", [note])
    derived = verdict_of(report, "$2,000.00")
    assert (derived.verdict, derived.reason) == ("supported", "derived_sum")
    assert derived.citation is not None
    assert [(o.start, o.end, o.text) for o in derived.citation.operands] == [
        (31, 40, "$1,200.50"),
        (53, 60, "$799.50"),
    ]


def test_an_explicit_equation_is_enough_wording() -> None:
    report = score("$1,200.50 + $799.50 = $2,000.00", [INVOICES])
    assert verdict_of(report, "$2,000.00").reason == "derived_sum"


# --- precision: the answer may round the result -------------------------------------------------


@pytest.mark.parametrize("figure", ["$2,000.00", "$2,000", "$2.0K"])
def test_a_rounded_sum_matches_at_the_answers_precision(figure: str) -> None:
    verdict = only(f"Your two invoices total {figure}.", [INVOICES])
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_sum")


def test_a_percent_may_round_the_derived_change() -> None:
    revenue = {"revenue": {"fy2024": 1_312_400, "fy2023": 1_050_000}}  # +24.99%
    assert only("Revenue grew 25% year over year.", revenue).reason == "derived_pct_change"
    assert only("Revenue grew 24.99% year over year.", revenue).reason == "derived_pct_change"
    assert only("Revenue grew 24.9% year over year.", revenue).verdict != "supported"


def test_a_sum_off_by_a_cent_is_not_supported() -> None:
    verdict = only("Your two invoices total $2,000.01.", [INVOICES])
    assert verdict.verdict != "supported"


# --- units --------------------------------------------------------------------------------------


def test_money_of_different_currencies_never_combines() -> None:
    mixed = {
        "charges": [
            {"amount": 1200.50, "currency": "EUR"},
            {"amount": 799.50, "currency": "USD"},
        ]
    }
    assert only("The two charges total $2,000.00.", mixed).verdict != "supported"
    same = {"charges": [{"amount": 1200.50, "currency": "EUR"}, {"amount": 799.50, "currency": "EUR"}]}
    assert only("The two charges total €2,000.00.", same).reason == "derived_sum"
    assert only("The two charges total $2,000.00.", same).verdict != "supported"


def test_identifiers_and_years_are_never_operands() -> None:
    orders = {"orders": [{"order_id": 48211, "amount": 120.0}, {"order_id": 51790, "amount": 80.0}]}
    assert only("Together the two orders total 100,001.", orders).verdict != "supported"
    years = {"fiscal_years": [{"year": 2023, "revenue": 10.5}, {"year": 2024, "revenue": 12.5}]}
    assert only("The years sum to 4,047 in total.", years).verdict != "supported"


def test_a_percent_is_never_summed_from_percents() -> None:
    rates = {"rates": [{"name": "vat", "pct": "19%"}, {"name": "surcharge", "pct": "6%"}]}
    assert only("Together the rates total 25%.", rates).verdict != "supported"


# --- order and chance ---------------------------------------------------------------------------


def test_derivation_runs_before_the_digit_relation_search() -> None:
    # Without derivations $2,000.00 reads as a changed digit of 1,200.50 and is contradicted.
    off = only("Your two invoices total $2,000.00.", [INVOICES], derived_values=False)
    assert (off.verdict, off.reason) == ("contradicted", "digit_changed")
    on = only("Your two invoices total $2,000.00.", [INVOICES])
    assert on.verdict == "supported"


def test_without_wording_no_derivation_is_looked_for() -> None:
    verdict = only("Your invoices: $2,000.00.", [INVOICES])
    assert verdict.reason != "derived_sum"


def _dense_ledger(rows: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "ledger": [
            {
                "entry": f"JE-{1000 + i}",
                "debit": rng.randint(10_000, 999_999) / 100,
                "credit": rng.randint(10_000, 999_999) / 100,
                "fee": rng.randint(100, 9_999) / 100,
                "balance": rng.randint(100_000, 9_999_999) / 100,
            }
            for i in range(rows)
        ]
    }


def test_a_one_digit_corruption_of_a_real_total_stays_flagged_in_dense_evidence() -> None:
    ledger = _dense_ledger(50, seed=7)
    debits = [row["debit"] for row in ledger["ledger"]]
    true_total = round(sum(debits), 2)
    text = f"{true_total:,.2f}"
    assert only(f"Debits total ${text} this period.", ledger).reason == "derived_sum"
    position = text.index(next(ch for ch in text[1:] if ch.isdigit()), 1)
    changed = text[:position] + str((int(text[position]) + 3) % 10) + text[position + 1 :]
    verdict = only(f"Debits total ${changed} this period.", ledger)
    assert verdict.verdict != "supported"


def test_a_round_figure_is_not_excused_by_a_chance_pair_in_dense_evidence() -> None:
    ledger = _dense_ledger(50, seed=11)
    fees = sorted(row["fee"] for row in ledger["ledger"])
    # Fees are under $100, so none matches $150 directly; but some pair of the 50 sums to within a
    # dollar of it by chance (checked here): with 1,225 pairs such a hit is no evidence at all.
    pairs = [a + b for i, a in enumerate(fees) for b in fees[i + 1 :]]
    assert min(abs(p - 150.0) for p in pairs) < 0.5
    verdict = only("The fees add up to $150 in total.", ledger)
    assert verdict.verdict != "supported"


def test_the_policy_switch_turns_derivations_off() -> None:
    verdict = only("Revenue grew 25% year over year.", [REVENUE], derived_values=False)
    assert (verdict.verdict, verdict.reason) == ("unsupported", "not_found")


def test_a_tiny_candidate_cap_stops_the_search() -> None:
    ledger = _dense_ledger(50, seed=7)
    total = round(sum(row["debit"] for row in ledger["ledger"]), 2)
    capped = only(f"Debits total ${total:,.2f} this period.", ledger, max_derivation_operands=10)
    assert capped.verdict != "supported"


# --- the citation --------------------------------------------------------------------------------


def test_a_derived_citation_describes_the_operation() -> None:
    verdict = only("Your two invoices total $2,000.00.", [INVOICES])
    assert verdict.citation is not None
    assert verdict.citation.describe() == "#0 $.invoices[0].total + $.invoices[1].total = 1200.5 + 799.5"
    pct = only("Revenue grew 25% year over year.", [INVOICES, REVENUE]).citation
    assert pct is not None
    assert (
        pct.describe()
        == "#1 ($.revenue_2024 - $.revenue_2023) / $.revenue_2023 = (1250000 - 1000000) / 1000000"
    )


def test_a_derived_verdict_round_trips_and_old_citations_still_read() -> None:
    report = score("Your two invoices total $2,000.00 and revenue grew 25%.", [INVOICES, REVENUE])
    again = GroundednessReport.from_dict(json.loads(report.to_json()))
    assert again == report
    old = {"evidence_index": 0, "source_id": None, "source_kind": "tool_result", "name": None}
    old |= {"path": "$.total", "start": None, "end": None, "text": "1243500"}
    citation = Citation.from_dict(old)
    assert citation.operation is None and citation.operands == ()
    assert citation.to_dict() == old  # a direct citation's JSON is unchanged


# --- policy -------------------------------------------------------------------------------------


def test_derivation_knobs_have_defaults_env_twins_and_validation() -> None:
    policy = GroundednessPolicy()
    assert policy.derived_values is True
    assert policy.max_derivation_operands == 200
    assert policy.max_derivation_candidates == 20_000
    environ = {
        "OTEL_GROUNDEDNESS_DERIVED_VALUES": "false",
        "OTEL_GROUNDEDNESS_MAX_DERIVATION_OPERANDS": "50",
        "OTEL_GROUNDEDNESS_MAX_DERIVATION_CANDIDATES": "1000",
    }
    from_env = GroundednessPolicy.from_env(environ)
    assert from_env == GroundednessPolicy(
        derived_values=False, max_derivation_operands=50, max_derivation_candidates=1000
    )
    assert GroundednessPolicy.from_dict(from_env.to_dict()) == from_env
    for field, bad in [
        ("derived_values", "yes"),
        ("max_derivation_operands", 1),
        ("max_derivation_candidates", 0),
        ("max_derivation_candidates", 2.5),
    ]:
        with pytest.raises(ValueError, match=field):
            GroundednessPolicy(**{field: bad})
    problems: list[EnvProblem] = []  # a bad variable keeps its default (env_config's rule)
    bad_env = {"OTEL_GROUNDEDNESS_MAX_DERIVATION_OPERANDS": "many"}
    assert GroundednessPolicy.from_env(bad_env, problems=problems) == GroundednessPolicy()
    assert [problem.variable for problem in problems] == ["OTEL_GROUNDEDNESS_MAX_DERIVATION_OPERANDS"]


def test_a_record_named_in_the_sentence_anchors_its_row_in_dense_evidence() -> None:
    ledger = _dense_ledger(50, seed=31)
    row = ledger["ledger"][17]
    total = row["debit"] + row["fee"]
    verdict = verdict_of(
        score(f"Entry {row['entry']} cost ${total:,.2f} in total, fee included.", ledger), f"${total:,.2f}"
    )
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_sum")
    assert verdict.citation is not None
    assert [o.path for o in verdict.citation.operands] == ["$.ledger[17].debit", "$.ledger[17].fee"]


def test_figures_cited_earlier_in_the_sentence_are_operands() -> None:
    daily = {"rows": [{"day": f"2025-03-{d:02d}", "requests": 100_000 + 7_919 * d * d} for d in range(1, 31)]}
    first, second = daily["rows"][0]["requests"], daily["rows"][9]["requests"]
    change = (second - first) / first * 100
    answer = f"Requests went from {first:,} to {second:,}, a change of {change:.1f}%."
    verdict = verdict_of(score(answer, daily), f"{change:.1f}%")
    assert (verdict.verdict, verdict.reason) == ("supported", "derived_pct_change")


def test_figures_near_the_float_limit_never_break_the_search() -> None:
    evidence = {"totals": [1.5e308, 1.7e308, 1e-300, -1.7e308, 0.0]}
    for answer in ["The totals add up to $2,000.00.", "The average total is 1.6e308.", "Totals grew 25%."]:
        report = score(answer, evidence)
        assert all(verdict.verdict != "supported" for verdict in report.verdicts)


def test_tied_operations_do_not_depend_on_the_hash_seed() -> None:
    """ "3,000" is both 4000 - 1000 and 1000 + 2000: exact ties go to the vocabulary's first
    operation (sum), whatever order the process's string hashes give a set of operations."""
    import subprocess
    import sys

    code = (
        "from otel_groundedness.scoring import score\n"
        "r = score('The total difference is 3,000 units.', [{'a': 1000, 'b': 2000, 'c': 4000, 'd': 5000}])\n"
        "print(r.supported[0].reason if r.supported else r.to_dict())\n"
    )
    reasons = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in range(8)
    }
    assert reasons == {"derived_sum"}
