"""Report types, the rules side by side, the label rule and sentence spans."""

from __future__ import annotations

import json

import pytest

from otel_groundedness._native import rule_figures, sentence_spans
from otel_groundedness.scoring import AtomVerdict, Citation, GroundednessReport
from otel_groundedness.scoring.policy import LabelRule

CITATION = Citation(0, "call_1", "tool_result", "get_invoice", "$.invoice.total", None, None, "1243500")


def make_report() -> GroundednessReport:
    supported = AtomVerdict("money", "$1.24M", 1240000.0, 10, 16, "supported", "within_precision", CITATION)
    contradicted = AtomVerdict(
        "money", "$1,234,500", 1234500.0, 30, 40, "contradicted", "digit_transposition", CITATION, "1243500"
    )
    unsupported = AtomVerdict("date", "2025-03", "2025-03", 50, 57, "unsupported", "not_found")
    return GroundednessReport(
        score=1 / 3,
        total_atoms=3,
        supported=(supported,),
        contradicted=(contradicted,),
        unsupported=(unsupported,),
        no_factual_content=False,
        no_evidence=False,
        evidence_truncated=True,
        label="ungrounded",
        strict_pass=False,
        sentence_score=0.5,
        rule="atom_ratio",
    )


def test_report_round_trips_through_dict_and_json() -> None:
    report = make_report()
    assert GroundednessReport.from_dict(report.to_dict()) == report
    assert GroundednessReport.from_dict(json.loads(report.to_json())) == report


def test_vacuous_score_serialises_as_null() -> None:
    data = make_report().to_dict() | {"score": None, "label": "no_evidence"}
    assert json.loads(GroundednessReport.from_dict(data).to_json())["score"] is None


def test_verdicts_come_back_in_answer_order() -> None:
    assert [verdict.text for verdict in make_report().verdicts] == ["$1.24M", "$1,234,500", "2025-03"]


def test_citation_describes_itself_briefly() -> None:
    assert CITATION.describe() == "#0 get_invoice $.invoice.total = 1243500"
    prompt = Citation(None, None, "user_prompt", None, None, 4, 9, "$1.2M")
    assert prompt.describe() == "prompt [4:9] = $1.2M"


S, U, C = "supported", "unsupported", "contradicted"


@pytest.mark.parametrize(
    ("rule", "verdicts", "sentence_of", "figures", "label"),
    [
        ("atom_ratio", [S], [0], (1.0, 1.0, True), "grounded"),
        ("atom_ratio", [S] * 9 + [U], [0] * 5 + [1] * 5, (0.9, 0.5, False), "partially_grounded"),
        # The alert threshold itself passes.
        ("atom_ratio", [S] * 8 + [U] * 2, [0] * 5 + [1] * 5, (0.8, 0.5, False), "partially_grounded"),
        ("atom_ratio", [S] * 7 + [U] * 3, [0] * 10, (0.7, 0.0, False), "ungrounded"),
        # Any contradiction is ungrounded.
        ("atom_ratio", [S] * 19 + [C], list(range(20)), (0.95, 0.95, False), "ungrounded"),
        ("sentence", [S] * 9 + [U] * 9, list(range(9)) + [9] * 9, (0.5, 0.9, False), "partially_grounded"),
        ("sentence", [S] * 9 + [U], [0] * 9 + [1], (0.9, 0.5, False), "ungrounded"),
        ("strict", [S] * 99 + [U], list(range(100)), (0.99, 0.99, False), "ungrounded"),
        ("strict", [S] * 3, [0, 0, 1], (1.0, 1.0, True), "grounded"),
    ],
)
def test_label_rule(
    rule: LabelRule,
    verdicts: list[str],
    sentence_of: list[int],
    figures: tuple[float, float, bool],
    label: str,
) -> None:
    ratio, sentences, strict, got = rule_figures(rule, verdicts, sentence_of, 0.8)
    assert (ratio, sentences, strict) == pytest.approx(figures)
    assert got == label


def test_rules_side_by_side_on_the_worked_example() -> None:
    # Five sentences with claims, seven claims, three of them not supported (the rules article's example).
    verdicts = [
        "supported",
        "supported",
        "supported",
        "unsupported",
        "contradicted",
        "supported",
        "unsupported",
    ]
    sentence_of = [1, 2, 2, 3, 4, 5, 5]
    ratio, sentences, strict, _ = rule_figures("atom_ratio", verdicts, sentence_of, 0.8)
    assert ratio == pytest.approx(4 / 7)
    assert sentences == pytest.approx(2 / 5)
    assert strict is False


def _span(text: str, whole: str) -> tuple[int, int]:
    start = whole.index(text)
    return start, start + len(text)


def test_sentence_spans_ignore_decimals_abbreviations_and_periods_inside_atoms() -> None:
    text = "Revenue was approx. $1.24M in Q3. Costs rose 3. März 2025 was the date!\nNext line"
    spans = sentence_spans(text, [_span("3. März 2025", text)])
    assert [text[a:b].strip() for a, b in spans] == [
        "Revenue was approx. $1.24M in Q3.",
        "Costs rose 3. März 2025 was the date!",
        "Next line",
    ]
