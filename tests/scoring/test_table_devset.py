"""Issue 17's gate: figures computed from tables (tests/scoring/devset/tables.jsonl).

Every case holds a table in one of the forms agents see, a question, an answer stating the
correct computed figure and the same answer with one digit of it changed. The correct figures
must be supported (>= 95%, in each phrasing) and never contradicted; the corruptions flagged
(>= 98%). ``python -m tests.scoring.devset -v`` prints the rates by form, operation and feature.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

from tests.scoring.devset.corruption import printed_numbers, simple_values, supported_by
from tests.scoring.devset.generate import build_cases, dumps, evidence_text
from tests.scoring.devset.measure import DEVSET, Outcome, Rates, failures, load_cases, measure, report
from tests.scoring.devset.questions import OPERATIONS
from tests.scoring.devset.tables import FORMS

SUPPORTED_FLOOR = 0.95
FLAGGED_FLOOR = 0.98
DIGIT = re.compile(r"\d")
OPERAND = re.compile(r"-?\d+(?:\.\d+)?")


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    found = measure(load_cases())
    print("\n" + report(found))
    return found


def test_the_committed_set_is_what_the_generator_writes() -> None:
    assert DEVSET.read_text(encoding="utf-8") == dumps(build_cases())


def test_the_set_is_big_and_varied() -> None:
    cases = load_cases()
    assert len(cases) >= 200
    assert len({case["id"] for case in cases}) == len(cases)
    assert {case["form"] for case in cases} == set(FORMS)
    assert {case["operation"] for case in cases} == set(OPERATIONS)
    for phrasing in ("restated", "prompt_only"):  # both phrasings, roughly half each
        share = sum(case["phrasing"] == phrasing for case in cases) / len(cases)
        assert 0.4 <= share <= 0.6, (phrasing, share)
    for case in cases:
        assert (case["user_prompt"] is None) == (case["phrasing"] != "prompt_only"), case["id"]


def test_each_corruption_changes_one_digit_of_the_figure() -> None:
    for case in load_cases():
        figure, corrupted = case["figure"], case["corrupted_figure"]
        assert case["answer"].count(figure) == 1, case["id"]
        assert case["corrupted_answer"] == case["answer"].replace(figure, corrupted), case["id"]
        assert len(figure) == len(corrupted), case["id"]
        changed = [(a, b) for a, b in zip(figure, corrupted, strict=True) if a != b]
        assert len(changed) == 1 and all(DIGIT.match(c) for c in changed[0]), case["id"]


def operand_count(case: dict[str, Any]) -> int:
    if case["operation"] in ("lookup", "grew_to"):
        return 1
    if case["operation"] in ("sum", "average"):
        return len(OPERAND.findall(case["computation"].split(" = ")[0]))
    return 2


def test_the_figures_are_right_and_the_corruptions_wrong_by_the_evidence_alone() -> None:
    """Checked apart from the generator's arithmetic: a correct figure is a printed number of the
    evidence, or a sum, difference, average, ratio, percentage or percentage change of two of them
    (sum or average of three), at its precision; no corruption is a number or a value of two.
    (Three numbers from anywhere in a table hit most figures by chance: the generator rejects
    only the threes of one row or column.)"""
    for case in load_cases():
        numbers = printed_numbers(evidence_text(case["evidence"]) + " " + (case["user_prompt"] or ""))
        pairs = simple_values([], numbers, group_limit=2)
        factor = Decimal(case.get("figure_scale", 1))
        if operand_count(case) <= 2:
            assert supported_by(case["figure"], pairs, factor), case["id"]
        elif operand_count(case) == 3:
            assert supported_by(case["figure"], simple_values([], numbers, group_limit=3), factor), case["id"]
        assert not supported_by(case["corrupted_figure"], pairs, factor), case["id"]


def test_correct_figures_are_supported(outcomes: list[Outcome]) -> None:
    rates = Rates.of(outcomes)
    assert rates.supported >= SUPPORTED_FLOOR, f"{rates.line('all')}\n{failures(outcomes)}"


def test_correct_figures_are_never_contradicted(outcomes: list[Outcome]) -> None:
    contradicted = [o for o in outcomes if o.correct == "contradicted"]
    assert not [o.case["id"] for o in contradicted], failures(contradicted)


def test_corruptions_are_flagged(outcomes: list[Outcome]) -> None:
    rates = Rates.of(outcomes)
    missed = [o for o in outcomes if not o.flagged]
    assert rates.flagged >= FLAGGED_FLOOR, f"{rates.line('all')}\n{failures(missed)}"


def test_both_phrasings_work(outcomes: list[Outcome]) -> None:
    """The question restated in the answer, or asked only in the user's prompt: each on its own."""
    for phrasing in ("restated", "prompt_only"):
        some = [o for o in outcomes if o.case["phrasing"] == phrasing]
        rates = Rates.of(some)
        assert rates.supported >= SUPPORTED_FLOOR, f"{rates.line(phrasing)}\n{failures(some)}"


def test_the_default_work_budget_never_cuts_a_case(outcomes: list[Outcome]) -> None:
    cut = [o for o in outcomes if "unchecked" in (o.correct, o.corrupted)]
    assert not [o.case["id"] for o in cut], failures(cut)
