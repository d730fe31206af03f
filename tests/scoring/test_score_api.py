"""score() end to end with the real extractor: the promises of docs/scoring.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import otel_groundedness
from otel_groundedness.env_config import EnvProblem
from otel_groundedness.scoring import Evidence, GroundednessPolicy, GroundednessReport, score

INVOICE = {"invoice": {"id": "INV-2210", "total": 1243500, "currency": "USD", "due": "2025-03-03"}}


def test_public_names_are_importable_from_the_package_root() -> None:
    assert otel_groundedness.score is score
    assert otel_groundedness.GroundednessPolicy is GroundednessPolicy


def test_grounded_answer_with_citations() -> None:
    report = score("Invoice INV-2210 totals $1,243,500, due March 3, 2025.", [INVOICE])
    assert (report.score, report.label, report.strict_pass, report.sentence_score) == (
        1.0,
        "grounded",
        True,
        1.0,
    )
    total = next(v for v in report.supported if v.kind == "money")
    assert total.citation is not None
    assert (total.citation.path, total.citation.text, total.value) == (
        "$.invoice.total",
        "1243500",
        1243500.0,
    )


def test_a_corrupted_figure_makes_the_turn_ungrounded_and_names_the_evidence() -> None:
    report = score("Invoice INV-2210 totals $1,234,500, due March 3, 2025.", [json.dumps(INVOICE)])
    assert report.label == "ungrounded" and report.strict_pass is False
    (bad,) = report.contradicted
    assert (bad.text, bad.reason, bad.nearest_evidence) == ("$1,234,500", "digit_transposition", "1243500")


def test_no_evidence_and_no_factual_content_keep_the_score_out() -> None:
    no_evidence = score("The total is $1,243,500.", [])
    assert (no_evidence.label, no_evidence.score, no_evidence.no_evidence, no_evidence.total_atoms) == (
        "no_evidence",
        None,
        True,
        1,
    )
    nothing = score("Happy to help with anything else!", [INVOICE])
    assert (nothing.label, nothing.score, nothing.no_factual_content, nothing.strict_pass) == (
        "no_factual_content",
        None,
        True,
        None,
    )


def test_the_user_prompt_is_evidence_unless_the_policy_says_otherwise() -> None:
    answer = "Your $25,000 budget covers the $4,500.00 plan."
    evidence = [{"plan": "Business", "monthly_price": 4500.0}]
    prompt = "My budget is $25,000."
    assert score(answer, evidence, user_prompt=prompt).label == "grounded"
    strict = GroundednessPolicy(include_user_prompt_as_evidence=False)
    report = score(answer, evidence, user_prompt=prompt, policy=strict)
    assert [v.text for v in report.unsupported] == ["$25,000"]


def test_byte_cap_keeps_the_prefix_of_the_item_that_crosses_it() -> None:
    text = "Order ORD-1001 total $1,250.00. " + "x" * 200 + " Invoice INV-5512 total $4,310.75."
    policy = GroundednessPolicy(max_evidence_bytes=100)
    report = score("ORD-1001 was $1,250.00 and INV-5512 was $4,310.75.", [text], policy=policy)
    assert report.evidence_truncated
    assert {v.text for v in report.supported} == {"ORD-1001", "$1,250.00"}
    assert {v.text for v in report.unsupported} == {"INV-5512", "$4,310.75"}


def test_single_items_and_evidence_objects() -> None:
    assert score("Total $1,243,500.", INVOICE).label == "grounded"  # one mapping is one item
    assert score("Total $1,243,500.", "Total: $1,243,500").label == "grounded"  # one str is one item
    report = score("Total $1,243,500.", [Evidence(INVOICE, source_id="call_7", name="get_invoice")])
    citation = report.supported[0].citation
    assert citation is not None and (citation.source_id, citation.name, citation.evidence_index) == (
        "call_7",
        "get_invoice",
        0,
    )


def test_rules_side_by_side_and_the_label_rule_knob() -> None:
    answer = "Revenue was $1,243,500. Tax was $99,000 and fees were $12,000."
    evidence = [{"revenue": 1243500, "tax": 99000}]
    report = score(answer, evidence)
    assert report.score == pytest.approx(2 / 3)
    assert report.sentence_score == pytest.approx(1 / 2)
    assert report.strict_pass is False
    assert report.label == "ungrounded"  # 0.67 < min_alert_score 0.8
    lenient = score(answer, evidence, policy=GroundednessPolicy(min_alert_score=0.5))
    assert lenient.label == "partially_grounded"
    assert score(answer, evidence, policy=GroundednessPolicy(label_rule="strict")).rule == "strict"


def test_locale_packs_read_separators_and_dates() -> None:
    policy = GroundednessPolicy(locale="de-DE")
    report = score(
        "Der Betrag von 1.234,56 € ist am 3. März 2025 fällig.",
        [{"betrag": 1234.56, "faellig": "2025-03-03"}],
        policy=policy,
    )
    assert report.label == "grounded"


def test_enabled_kinds_limit_what_is_scored() -> None:
    report = score(
        "INV-2210 totals $1,243,500.", [INVOICE], policy=GroundednessPolicy(enabled_kinds=("money",))
    )
    assert [v.kind for v in report.verdicts] == ["money"]


def test_answer_past_max_answer_chars_is_not_checked_and_is_flagged() -> None:
    evidence = {"invoice": "INV-2210", "total": 1243500}
    head = "Invoice INV-2210 totals $1,243,500. "
    tail = "A later line cites $9,999,999."
    policy = GroundednessPolicy(max_answer_chars=len(head))
    report = score(head + tail, [evidence], policy=policy)
    assert report.answer_truncated is True
    assert [verdict.text for verdict in report.verdicts] == ["INV-2210", "$1,243,500"]
    assert report.label == "grounded"
    assert GroundednessReport.from_dict(report.to_dict()) == report
    whole = score(head + tail, [evidence])
    assert whole.answer_truncated is False and whole.total_atoms == 3


def test_max_answer_chars_has_an_environment_twin_and_is_validated() -> None:
    assert GroundednessPolicy.from_env({"OTEL_GROUNDEDNESS_MAX_ANSWER_CHARS": "100"}).max_answer_chars == 100
    problems: list[EnvProblem] = []
    assert (
        GroundednessPolicy.from_env({"OTEL_GROUNDEDNESS_MAX_ANSWER_CHARS": "0"}, problems=problems)
        == GroundednessPolicy()
    )
    assert [problem.variable for problem in problems] == ["OTEL_GROUNDEDNESS_MAX_ANSWER_CHARS"]


def test_reports_do_not_depend_on_the_process_hash_seed() -> None:
    # Two evidence ids are each one edit from the answer's id: which one is cited must not vary by process.
    program = (
        "from otel_groundedness.scoring import score\n"
        "report = score('The invoice is INV-24005.', [{'ids': ['INV-24705', 'INV-54005']}])\n"
        "print(report.to_json())\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", program],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(6)
    }
    assert len(outputs) == 1
    (output,) = outputs
    assert json.loads(output)["contradicted"][0]["reason"] == "identifier_edit"


def test_a_lone_surrogate_in_the_answer_is_read_and_quoted_as_the_replacement_character() -> None:
    """No UTF-8 export can carry a lone surrogate: the answer's is U+FFFD in the report (and
    then no longer matches the evidence's surrogate)."""
    report = score("See https://x.io/a\ud800b for $1,200.", [{"url": "https://x.io/a\ud800b", "total": 1200}])
    texts = [verdict.text for verdict in report.supported + report.unsupported + report.contradicted]
    assert sorted(texts) == ["$1,200", "https://x.io/a\ufffdb"]
