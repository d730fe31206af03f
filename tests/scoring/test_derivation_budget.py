"""The derivation search is charged to the work budget and stops when it is spent.

Building the operand families reads every evidence figure, so its cost grows with the evidence,
not with the answer: the budget must pay for it before it starts. An atom whose derivation the
budget cannot pay for gets no verdict (it is reported unchecked), so every verdict given is still
the one an unlimited call gives.

What a call charges is read from outside as ``least_budget``: the smallest work budget on which
``score`` judges every atom (a call on less leaves some unchecked).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from otel_groundedness.scoring import GroundednessPolicy, GroundednessReport, score

UNLIMITED = GroundednessPolicy(work_budget=1 << 40)


def least_budget(answer: str, evidence: list[Any], prompt: str | None = None, derived: bool = True) -> int:
    """The smallest ``work_budget`` on which ``score`` leaves no atom unchecked (binary search)."""

    def enough(units: int) -> bool:
        policy = GroundednessPolicy(work_budget=units, derived_values=derived)
        return not score(answer, evidence, user_prompt=prompt, policy=policy).budget_exceeded

    high = 1
    while not enough(high):
        high *= 2
    low = high // 2  # not enough (or 0)
    while high - low > 1:
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high


def orders_export(count: int, seed: int) -> dict[str, Any]:
    """An order-management export: three figures per order, thousands of orders."""
    rng = random.Random(seed)
    return {
        "orders": [
            {
                "order_id": f"SO-{40_000 + i}",
                "customer": rng.choice(["Northwind Traders", "Contoso Ltd", "Fabrikam Inc", "Tailspin Toys"]),
                "subtotal": rng.randint(10_000, 999_999) / 100,
                "tax": rng.randint(500, 79_999) / 100,
                "shipping": rng.choice([0.0, 9.95, 12.0, 24.5, 49.0]),
                "status": rng.choice(["shipped", "delivered", "pending"]),
            }
            for i in range(count)
        ]
    }


def invoice_digest(count: int, seed: int) -> tuple[str, list[tuple[str, float, float, float]]]:
    """A billing tool's plain-text digest, one invoice a line, and the figures of each line."""
    rng = random.Random(seed)
    lines, rows = [], []
    for i in range(count):
        invoice = f"INV-{20_000 + i}"
        subtotal, tax, shipping = rng.randint(10_000, 999_999) / 100, rng.randint(500, 79_999) / 100, 12.0
        lines.append(
            f"Invoice {invoice}: subtotal ${subtotal:,.2f}, tax ${tax:,.2f}, shipping ${shipping:.2f}."
        )
        rows.append((invoice, subtotal, tax, shipping))
    return "\n".join(lines), rows


def json_case() -> tuple[str, list[object], str]:
    export = orders_export(1_900, seed=5)
    order = export["orders"][1417]
    total = order["subtotal"] + order["tax"] + order["shipping"]
    figure = f"${total:,.2f}"
    return f"Order {order['order_id']} comes to {figure} in total with tax and shipping.", [export], figure


def text_case() -> tuple[str, list[object], str]:
    digest, rows = invoice_digest(3_500, seed=6)
    invoice, subtotal, tax, shipping = rows[2417]
    figure = f"${subtotal + tax + shipping:,.2f}"
    return f"Invoice {invoice} comes to {figure} in total, tax and shipping included.", [digest], figure


CASES = {"JSON export of 1,900 orders": json_case, "text digest of 3,500 invoices": text_case}


def is_prefix(small: GroundednessReport, full: GroundednessReport) -> bool:
    return small.verdicts == full.verdicts[: small.total_atoms]


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_families_the_budget_cannot_pay_for_are_not_built_and_the_figure_is_left_unchecked(
    case: str,
) -> None:
    answer, evidence, figure = CASES[case]()
    full = score(answer, evidence, policy=UNLIMITED)
    derived = next(verdict for verdict in full.verdicts if verdict.text == figure)
    assert (derived.verdict, derived.reason) == ("supported", "derived_sum")
    assert not full.budget_exceeded and not full.evidence_truncated
    # Enough for the record's identifier and the figure's own lookups; far too little to read
    # thousands of evidence figures into families.
    policy = GroundednessPolicy(work_budget=2_000)
    small = score(answer, evidence, policy=policy)
    assert small.budget_exceeded and small.atoms_unchecked == 1
    assert [verdict.text for verdict in small.verdicts] == [full.verdicts[0].text]
    assert is_prefix(small, full)


def daily_requests(days: int) -> dict[str, Any]:
    return {"rows": [{"day": f"day {d}", "requests": 100_000 + 7_919 * d * d} for d in range(1, days + 1)]}


def test_the_second_search_after_the_sentence_is_cited_stops_too() -> None:
    """The change is stated before its operands, so it is derived by the search run once the rest of
    the sentence has its evidence; that search is not started once the budget is spent either."""
    rows = daily_requests(3_000)["rows"]
    first, second = rows[0]["requests"], rows[9]["requests"]
    answer = (
        f"Requests grew {(second - first) / first * 100:.1f}% over the first ten days, "
        f"to {second:,} from {first:,}."
    )
    evidence = [{"rows": rows}]
    full = score(answer, evidence, policy=UNLIMITED)
    assert [(verdict.verdict, verdict.reason) for verdict in full.verdicts] == [
        ("supported", "derived_pct_change"),
        ("supported", "reformatted"),
        ("supported", "reformatted"),
    ]
    whole = least_budget(answer, evidence)
    assert score(answer, evidence, policy=GroundednessPolicy(work_budget=whole)).verdicts == full.verdicts
    cut = 0
    for units in range(whole // 20, whole, whole // 40):
        report = score(answer, evidence, policy=GroundednessPolicy(work_budget=units))
        assert is_prefix(report, full)
        assert report.total_atoms + report.atoms_unchecked == 3
        # A derivation search the budget cannot pay for (the second one lists 3,000 families) is
        # not started: its atom is left unchecked, never judged otherwise.
        cut += report.budget_exceeded
    assert cut > 0


def test_a_budget_spent_in_a_later_sentence_keeps_the_earlier_second_searches() -> None:
    """A sentence's second searches are paid for as soon as it is judged, before the next sentence:
    running out of budget later leaves the rest unchecked and takes no verdict back."""
    rows = daily_requests(3_000)["rows"]
    first, second = rows[0]["requests"], rows[9]["requests"]
    change = f"Requests grew {(second - first) / first * 100:.1f}% to {second:,} from {first:,}."
    # Then a long run of figures that match nothing: their near-miss searches spend the budget.
    misses = " ".join(
        f"On day {day} there were {rows[day]['requests'] + 13:,} requests." for day in range(20, 420)
    )
    evidence = [{"rows": rows}]
    full = score(f"{change} {misses}", evidence, policy=UNLIMITED)
    assert not full.budget_exceeded and full.verdicts[0].reason == "derived_pct_change"
    # The first sentence and a few more.
    policy = GroundednessPolicy(work_budget=least_budget(change, evidence) + 2_000)
    report = score(f"{change} {misses}", evidence, policy=policy)
    assert report.budget_exceeded and report.total_atoms > 3
    assert report.verdicts[:3] == full.verdicts[:3] and is_prefix(report, full)


def test_figures_matched_directly_cost_what_they_cost_without_derivations() -> None:
    # Every cue is there (a table with a scale note, JSON rows, a question asking for a change,
    # change words next to each figure), but every figure matches a cell as written: nothing of the
    # derivation search (tables, cues, operand families) may be read, so nothing more is charged.
    table = (
        "(In millions)\n| | 2024 | 2023 |\n|---|---|---|\n"
        "| Revenue | $ 4,812.6 | $ 4,377.9 |\n| Operating income | 1,502.7 | 1,084.4 |"
    )
    rows = [["", "2024", "2023"], ["Total assets", "$ 9,310.2", "$ 8,954.1"], ["Margin", "31.2%", "24.8%"]]
    answer = (
        "What was the change in revenue? Revenue grew from $4,377.9 to $4,812.6, and operating "
        "income rose from 1,084.4 to 1,502.7. Total assets increased to $9,310.2 from $8,954.1; "
        "the margin was up to 31.2% from 24.8%."
    )
    question = "What was the percentage change in operating income between 2023 and 2024?"
    spent: dict[bool, int] = {}
    for derived in (True, False):
        policy = GroundednessPolicy(work_budget=1 << 40, derived_values=derived)
        report = score(answer, [table, rows], user_prompt=question, policy=policy)
        assert not report.unsupported and not report.contradicted
        cited = [verdict.citation for verdict in report.supported]
        assert cited and all(citation is not None and citation.operation is None for citation in cited)
        spent[derived] = least_budget(answer, [table, rows], question, derived)
    assert spent[True] == spent[False]
