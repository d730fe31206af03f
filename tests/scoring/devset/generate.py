"""Write ``tables.jsonl``: ``python -m tests.scoring.devset.generate`` (seeded; same file every run).

Cases go round the tables of ``catalog``, each time with fresh numbers, the next form for that
table, the next operation the table offers, and the two phrasings in turn: the question restated
in the answer (``user_prompt`` null) or asked only in ``user_prompt``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tests.scoring.devset.catalog import BUILDERS, fixed_chip_segments, fixed_issue_example, fixed_mining
from tests.scoring.devset.questions import (
    OPERATIONS,
    Phrasing,
    ambiguous,
    ask,
    corrupt,
    decimals_for,
    simple_values,
    write,
)
from tests.scoring.devset.tables import FORMS, Form, Style, Table, render

SEED = 17
CASES = 240
# Direct lookups and "grew to" need no derivation: fewer of them, more computed figures.
WEIGHTS = {"lookup": 0.7, "grew_to": 0.5, "ratio": 0.6}
# The hand-typed tables offer few distinct questions: they take part in the first rounds only.
FIXED = (fixed_issue_example, fixed_chip_segments, fixed_mining)
FIXED_ROUNDS = 5
OUTPUT = Path(__file__).parent / "tables.jsonl"


def style_for(form: Form, rng: random.Random) -> Style:
    notes: tuple[Any, ...] = (
        ("corner", "caption", "row") if form in ("markdown", "html", "json_rows") else ("corner", "caption")
    )
    return Style(
        separator=rng.random() < 0.7,
        empty=rng.choice(["—", "", "-"]),
        parens=rng.random() < 0.8,
        currency_cells=rng.random() < 0.6,
        note_at=rng.choice(notes),
        as_string=rng.random() < 0.5,
        raw_numbers=rng.random() < 0.5,
        percent_space=rng.random() < 0.2,
        caption=rng.random() < 0.5,
    )


def features(table: Table, form: Form, style: Style) -> list[str]:
    """What this rendering shows of the habits issue 17 lists (for reading the rates by feature)."""
    cells = [v for row in table.values for v in row]
    kinds = {metric.kind for metric in table.metrics}
    found = {
        "scale_note": bool(table.scale.note),
        "multi_row_header": bool(table.group) and form != "records",
        "header_per_block": bool(table.blocks) and form != "records",
        "section_rows": any(m.section for m in table.metrics) and form != "records",
        "indented_rows": any(m.indent for m in table.metrics) and form != "records",
        "empty_cells": None in cells,
        "negatives_in_parens": any(v is not None and v < 0 for v in cells) and style.parens,
        "negatives": any(v is not None and v < 0 for v in cells),
        "footnotes": any(m.footnote for m in table.metrics) and form != "records",
        "per_share_rows": "per_share" in kinds,
        "percent_rows": "percent" in kinds,
        "percent_columns": bool(table.extras) and form != "records",
        "no_separator_row": form == "markdown" and not style.separator,
        "json_string": form in ("json_rows", "records") and style.as_string,
        "raw_numbers": form == "records" and style.raw_numbers,
    }
    return [name for name, present in found.items() if present]


def evidence_text(item: Any) -> str:
    return item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)


def build_case(
    number: int, table: Table, form: Form, phrasing: Phrasing, rng: random.Random, operations: list[str]
) -> dict[str, Any] | None:
    style = style_for(form, rng)
    item = render(table, form, style)
    text = evidence_text(item)
    for operation in operations:
        question = ask(table, operation, rng)  # type: ignore[arg-type]
        if question is None:
            continue
        decimals = decimals_for(table, question, rng)
        if question.operation not in ("lookup", "grew_to") and ambiguous(question.value, decimals):
            continue
        written = write(table, question, decimals, phrasing, rng)
        candidates = simple_values(table, text + " " + question.question)
        corrupted = corrupt(written.figure, candidates, rng)
        if corrupted is None:
            continue
        restate = phrasing == "restated" and written.sentence.startswith(("It ", "The answer"))
        answer = f"{question.question} {written.sentence}" if restate else written.sentence
        if answer.count(written.figure) != 1:
            continue
        sentence = written.sentence.replace(written.figure, corrupted)
        return {
            "id": f"tbl-{number:03d}",
            "form": form,
            "features": features(table, form, style),
            "operation": question.operation,
            "phrasing": phrasing,
            "evidence": [item],
            "user_prompt": None if phrasing == "restated" else question.question,
            "answer": answer,
            "figure": written.figure,
            "corrupted_answer": answer.replace(written.sentence, sentence),
            "corrupted_figure": corrupted,
            "computation": f"{question.computation} = {question.value:.6g}",
        }
    return None


def build_cases() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    cases: list[dict[str, Any]] = []
    turn = 0
    asked = dict.fromkeys(OPERATIONS, 0)
    while len(cases) < CASES:
        index = turn % len(BUILDERS)
        round_ = turn // len(BUILDERS)
        turn += 1
        form = FORMS[(index + round_) % len(FORMS)]
        phrasing: Phrasing = "restated" if len(cases) % 2 else "prompt_only"
        if BUILDERS[index] in FIXED and round_ >= FIXED_ROUNDS:
            continue
        # The operation asked least so far goes first: a table that cannot ask it asks the next.
        operations = sorted(
            OPERATIONS, key=lambda op: (asked[op] / WEIGHTS.get(op, 1.0), (turn + OPERATIONS.index(op)) % 9)
        )
        case = build_case(len(cases) + 1, BUILDERS[index](rng), form, phrasing, rng, operations)
        if case is not None:
            asked[case["operation"]] += 1
            cases.append(case)
    return cases


def dumps(cases: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in cases)


def main() -> None:
    OUTPUT.write_text(dumps(build_cases()), encoding="utf-8")


if __name__ == "__main__":
    main()
