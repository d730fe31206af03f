"""Figures computed from tables: every table form, labels, scale notes, cues from the question."""

from __future__ import annotations

import json

import pytest

from otel_groundedness._native import atom_context
from otel_groundedness.scoring import GroundednessPolicy, score
from otel_groundedness.scoring.results import AtomVerdict

ISSUE_TABLE = """| (In millions) | 2024 | 2023 |
|---|---|---|
| Revenue | $ 4,812.6 | $ 4,377.9 |
| Operating income | 1,502.7 | 1,084.4 |
"""


def verdicts(answer: str, evidence: object, prompt: str | None = None) -> dict[str, AtomVerdict]:
    report = score(answer, evidence, user_prompt=prompt)
    return {verdict.text: verdict for verdict in report.verdicts}


def outcome(answer: str, evidence: object, figure: str, prompt: str | None = None) -> tuple[str, str]:
    verdict = verdicts(answer, evidence, prompt)[figure]
    return verdict.verdict, verdict.reason


def test_the_issue_table_supports_all_three_figures() -> None:
    found = verdicts(
        "Operating income grew 38.6% from 2023 to 2024, to $1,502.7 million; revenue rose by $434.7 million.",
        [ISSUE_TABLE],
    )
    assert (found["38.6%"].verdict, found["38.6%"].reason) == ("supported", "derived_pct_change")
    scaled = found["$1,502.7 million"]
    assert (scaled.verdict, scaled.reason) == ("supported", "reformatted")
    assert (
        scaled.citation is not None and scaled.citation.describe() == "#0 Operating income / 2024 = 1,502.7"
    )
    change = found["$434.7 million"]
    assert (change.verdict, change.reason) == ("supported", "derived_difference")
    assert change.citation is not None
    assert change.citation.describe() == "#0 Revenue / 2024 - Revenue / 2023 = $ 4,812.6 - $ 4,377.9"
    assert change.citation.to_dict()["operands"][0]["cell"] == "Revenue / 2024"


def test_a_scale_note_still_flags_a_wrong_magnitude() -> None:
    assert (
        outcome("Operating income was $1,502.7 billion.", [ISSUE_TABLE], "$1,502.7 billion")[0] != "supported"
    )


@pytest.mark.parametrize(
    "table",
    [
        # markdown without its separator row
        "| (In millions) | 2024 | 2023 |\n| Revenue | 4,812.6 | 4,377.9 |\n"
        "| Operating income | 1,502.7 | 1,084.4 |",
        # CSV with quoted fields
        '(In millions),2024,2023\nRevenue,"4,812.6","4,377.9"\nOperating income,"1,502.7","1,084.4"\n',
        # TSV
        "(In millions)\t2024\t2023\nRevenue\t4,812.6\t4,377.9\nOperating income\t1,502.7\t1,084.4\n",
        # HTML with a spanning header over the years
        "<p>(In millions)</p><table><tr><th></th><th colspan=2>Year ended December 31,</th></tr>"
        "<tr><th></th><th>2024</th><th>2023</th></tr><tr><td>Revenue</td><td>4,812.6</td><td>4,377.9</td></tr>"
        "<tr><td>Operating income</td><td>1,502.7</td><td>1,084.4</td></tr></table>",
        # JSON rows as a tool returns them, with a two-row header
        json.dumps(
            [
                ["(In millions)", "Year Ended December 31,", ""],
                ["", "2024", "2023"],
                ["Revenue", "4,812.6", "4,377.9"],
                ["Operating income", "1,502.7", "1,084.4"],
            ]
        ),
        # records keyed by period
        json.dumps(
            {
                "unit": "In millions",
                "rows": [
                    {"item": "Revenue", "2024": 4812.6, "2023": 4377.9},
                    {"item": "Operating income", "2024": 1502.7, "2023": 1084.4},
                ],
            }
        ),
    ],
    ids=["markdown", "csv", "tsv", "html", "json_rows", "records"],
)
def test_every_form_gives_the_change_and_the_scaled_cell(table: str) -> None:
    answer = "What was the change in operating income from 2023 to 2024? It was $418.3 million."
    assert outcome(answer, [table], "$418.3 million") == ("supported", "derived_difference")
    assert outcome("Revenue was $4,812.6 million in 2024.", [table], "$4,812.6 million")[0] == "supported"
    wrong = "What was the change in operating income from 2023 to 2024? It was $418.9 million."
    assert outcome(wrong, [table], "$418.9 million")[0] != "supported"


SECTIONED = """(in thousands, except per share data)
,2024,2023
Revenue,,
  Product,"(1,234)",—
  Services,"2,000 (1)","1,500"
Total revenue,766,"1,500"
Diluted earnings per share,1.26,1.27
"""


def test_negatives_dashes_footnotes_and_per_share_rows() -> None:
    # (1,234) is negative, "—" holds no value and "(1)" is a footnote, not a figure.
    assert (
        outcome("Product revenue was -$1,234 thousand in 2024.", [SECTIONED], "-$1,234 thousand")[0]
        == "supported"
    )
    answer = "What was the total services revenue in 2023 and 2024? It was $3,500 thousand."
    assert outcome(answer, [SECTIONED], "$3,500 thousand") == ("supported", "derived_sum")
    average = "What was the average product revenue in 2023 and 2024? It was -$617 thousand."
    assert outcome(average, [SECTIONED], "-$617 thousand")[0] == "unsupported"  # 2023 holds no value
    # The note's thousands never scale a per-share figure.
    assert outcome("Diluted EPS fell to $1.26.", [SECTIONED], "$1.26") == ("supported", "reformatted")
    assert outcome("Diluted EPS was $1.26 thousand.", [SECTIONED], "$1.26 thousand")[0] != "supported"


def test_the_question_in_the_prompt_licenses_the_computation() -> None:
    prompt = "What was the percentage change in operating income between 2023 and 2024?"
    assert outcome("It is 38.57%.", [ISSUE_TABLE], "38.57%", prompt) == ("supported", "derived_pct_change")
    assert outcome("It is 38.51%.", [ISSUE_TABLE], "38.51%", prompt)[0] == "unsupported"


def test_the_question_restated_in_the_answer_licenses_it_too() -> None:
    answer = "What was the ratio of revenue to operating income in 2024? It is 3.20."
    assert outcome(answer, [ISSUE_TABLE], "3.20") == ("supported", "derived_ratio")
    assert outcome(answer.replace("3.20", "3.27"), [ISSUE_TABLE], "3.27")[0] == "unsupported"


def test_a_question_about_one_value_licenses_no_computation() -> None:
    # 418.3 is the change, but the question asks for revenue: no derivation may explain it.
    prompt = "What was revenue in 2024?"
    assert outcome("It was $418.3 million.", [ISSUE_TABLE], "$418.3 million", prompt)[0] == "unsupported"


def test_a_narrow_search_accepts_what_a_whole_table_search_refuses() -> None:
    rows = "\n".join(f"| Segment {i} | {1000 + 37 * i:,}.5 | {900 + 41 * i:,}.5 |" for i in range(40))
    table = f"| | 2024 | 2023 |\n|---|---|---|\n{rows}\n"
    first, second = 1000 + 37 * 5 + 0.5, 900 + 41 * 5 + 0.5
    change = f"{(first - second) / second * 100:.1f}%"  # 80 pairs could land within 0.05 by accident
    named = f"The percentage change of Segment 5 from 2023 to 2024 was {change}."
    assert outcome(named, [table], change) == ("supported", "derived_pct_change")
    # The same figure with nothing naming its row: every pair of the table competes for it.
    unnamed = f"One of them changed by {change}."
    assert outcome(unnamed, [table], change)[0] == "unsupported"


def test_signs_and_wording() -> None:
    interest = (
        "| (In millions) | 2024 | 2023 |\n|---|---|---|\n"
        + "| Interest expense | 186 | 198 |\n| Tax | 1,307 | 1,244 |"
    )
    prompt = "What was the change in interest expense from 2023 to 2024?"
    assert outcome("It was a decrease of 12 million.", [interest], "12 million", prompt) == (
        "supported",
        "derived_difference",
    )
    assert outcome("It was an increase of 12 million.", [interest], "12 million", prompt)[0] == "unsupported"
    margins = (
        "| | 2024 | 2023 |\n|---|---|---|\n| Gross margin | 54.6% | 57.8% |\n| Revenue | 4,669.9 | 4,625.1 |"
    )
    asked = "How did gross margin change from 2023 to 2024?"
    assert outcome("It fell by 3.2 points.", [margins], "3.2 points", asked) == (
        "supported",
        "derived_pp_difference",
    )
    assert (
        outcome("It was down 3.2 percentage points.", [margins], "3.2 percentage points", asked)[0]
        == "supported"
    )
    assert outcome("It fell by 3.7 points.", [margins], "3.7 points", asked)[0] != "supported"
    # "grew to" states where the change ended: a cell, never a computed figure.
    assert outcome("Revenue grew to 4,669.9 in 2024.", [margins], "4,669.9") == ("supported", "exact")
    assert outcome("Revenue grew to 4,448.5 in 2024.", [margins], "4,448.5")[0] != "supported"


def test_averages_sums_and_shares_of_named_cells() -> None:
    table = (
        "| Region | Orders | Return rate |\n|---|---|---|\n"
        "| EMEA | 3,118 | 2.4% |\n| APAC | 2,406 | 3.1% |\n| AMER | 4,290 | 1.8% |"
    )
    assert outcome("The average return rate of EMEA and APAC was 2.75%.", [table], "2.75%") == (
        "supported",
        "derived_average",
    )
    assert outcome("EMEA and AMER took 7,408 orders in total.", [table], "7,408") == (
        "supported",
        "derived_sum",
    )
    assert (
        outcome("EMEA took 41.98% of the orders of EMEA and AMER... no.", [table], "41.98%")[0]
        == "unsupported"
    )
    assert outcome("EMEA orders were 129.59% of APAC orders.", [table], "129.59%") == (
        "supported",
        "derived_ratio",
    )


def test_a_directly_matched_figure_never_reads_the_tables() -> None:
    """The tables are read only for a figure no evidence value matches: beside a 2,000-row table,
    directly matched figures are judged on a budget that reading the tables exceeds."""
    big = "| | 2024 | 2023 |\n|---|---|---|\n" + "\n".join(
        f"| Row {i} | {i}.5 | {i}.25 |" for i in range(2000)
    )
    policy = GroundednessPolicy(work_budget=10_000)
    direct = score(
        "Revenue was $4,812.6, up from $4,377.9; operating income 1,502.7.", [ISSUE_TABLE, big], policy=policy
    )
    assert not direct.budget_exceeded
    assert [(v.text, v.verdict) for v in direct.verdicts] == [
        ("$4,812.6", "supported"),
        ("$4,377.9", "supported"),
        ("1,502.7", "supported"),
    ]
    derived = score("Revenue rose by $434.7 million.", [ISSUE_TABLE, big], policy=policy)
    assert derived.budget_exceeded
    # With room for the tables, the same figure is derived from them.
    roomy = score("Revenue rose by $434.7 million.", [ISSUE_TABLE, big])
    assert [(v.verdict, v.reason) for v in roomy.verdicts] == [("supported", "derived_difference")]


def test_reading_tables_is_charged_to_the_work_budget() -> None:
    table = "| | 2024 | 2023 |\n|---|---|---|\n" + "\n".join(
        f"| Row {i} | {i}.5 | {i}.25 |" for i in range(2000)
    )
    tight = score("Row 7 rose by 0.25.", [table], policy=GroundednessPolicy(work_budget=2_000))
    assert tight.budget_exceeded and tight.total_atoms == 0


def test_short_figures_are_atoms_only_when_stated_as_answers() -> None:
    assert "3.85" in verdicts("The ratio is 3.85.", [ISSUE_TABLE])
    assert "3.2 points" in verdicts("It fell by 3.2 points.", [ISSUE_TABLE])
    assert not verdicts("Step 3 took 2 tries in 5 runs.", [ISSUE_TABLE])


# The engine's bounds on the sentence a figure reads for cues: SENTENCE_BEFORE and SENTENCE_AFTER
# characters around it (native/engine/src/label_words.rs).
SENTENCE_BEFORE, SENTENCE_AFTER = 300, 100


def test_the_sentence_read_for_cues_is_bounded() -> None:
    """Every unmatched figure reads its sentence for a cue: a 32K "sentence" of figures must not
    make that quadratic."""
    text = " ".join(f"{1000 + i:,}" for i in range(6000))
    middle = text.index("4,000")
    sentence = atom_context(text, middle, middle + 5, (0, len(text)), (middle - 1, middle + 6), (0, 0))[0]
    assert sentence == text[middle - SENTENCE_BEFORE : middle + 5 + SENTENCE_AFTER]
    # A short sentence is read whole.
    short = "Revenue rose 4,000 units."
    assert atom_context(short, 13, 18, (0, len(short)), (12, 19))[0] == short
