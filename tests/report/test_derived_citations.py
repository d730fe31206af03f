"""The HTML report shows a derived figure's citation: the operation over every operand."""

from __future__ import annotations

from typing import Any

from otel_groundedness import score
from otel_groundedness.report.html_report import describe_citation, render_html

INVOICES = {"invoices": [{"id": "INV-1", "total": 1200.50}, {"id": "INV-2", "total": 799.50}]}


def _turn() -> dict[str, Any]:
    answer = "Your two invoices total $2,000.00."
    report = score(answer, [INVOICES])
    return {
        "trace_id": "t1",
        "span_id": "s1",
        "answer": answer,
        "score": report.score,
        "label": report.label,
        "report": report.to_dict(),
    }


def test_a_derived_citation_names_each_operand_and_the_operation() -> None:
    [atom] = _turn()["report"]["supported"]
    assert describe_citation(atom) == "#0 $.invoices[0].total + $.invoices[1].total = 1200.5 + 799.5"


def test_a_malformed_derived_citation_falls_back_to_its_text() -> None:
    [atom] = _turn()["report"]["supported"]
    broken = {**atom, "citation": {**atom["citation"], "operands": [{"unexpected": 1}]}}
    assert describe_citation(broken) == "1200.5 + 799.5"


def test_the_page_shows_the_derivation() -> None:
    turn = _turn()
    turn["score"] = 0.5  # among the worst turns, whose atoms the page lists
    html = render_html([turn], title="t")
    assert "derived_sum" in html
    assert "$.invoices[0].total + $.invoices[1].total = 1200.5 + 799.5" in html
