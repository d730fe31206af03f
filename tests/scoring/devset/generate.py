"""Write ``tables.jsonl``: ``python -m tests.scoring.devset.generate`` (seeded; same file every run).

Generated cases go round the tables of ``catalog``, each time with fresh numbers, the next form
for that table, the operation asked least so far that the table offers, and the two phrasings in
turn: the question restated in the answer (``user_prompt`` null) or asked only in ``user_prompt``.
A quarter of them draw a second tool result, another table, as agents' turns have (kept when it
shares no row-label word with the asked table). The cases of ``handwritten`` follow, checked
against their operands.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.scoring.devset.answers import Phrasing, Written, write
from tests.scoring.devset.catalog import BUILDERS, fixed_chip_segments, fixed_issue_example, fixed_mining
from tests.scoring.devset.corruption import corrupt, figure_number, printed_numbers, simple_values
from tests.scoring.devset.handwritten import HANDWRITTEN
from tests.scoring.devset.questions import OPERATIONS, Operation, ambiguous, ask, decimals_for, rounded
from tests.scoring.devset.tables import FORMS, Form, Style, Table, render

SEED = 17
GENERATED = 240
# Direct lookups and "grew to" need no derivation: fewer of them, more computed figures. Ratios
# are rarer in answers than changes and shares.
WEIGHTS = {"lookup": 0.7, "grew_to": 0.5, "ratio": 0.6}
# The hand-typed tables offer few distinct questions: they take part in the first rounds only.
FIXED = (fixed_issue_example, fixed_chip_segments, fixed_mining)
FIXED_ROUNDS = 5
SECOND_ITEM = 0.25
STOP_WORDS = {"and", "of", "the", "per", "in", "to", "a"}
OUTPUT = Path(__file__).parent / "tables.jsonl"


def style_for(form: Form, rng: random.Random) -> Style:
    # Where the scale note goes: JSON rows have no caption, CSV and TSV no spanning row.
    notes: tuple[Any, ...] = {
        "markdown": ("corner", "caption", "row"),
        "html": ("corner", "caption", "row"),
        "json_rows": ("corner", "row"),
    }.get(form, ("corner", "caption"))
    return Style(
        separator=rng.random() < 0.7,
        empty=rng.choice(["—", "", "-"]),
        parens=rng.random() < 0.8,
        currency_cells=rng.random() < 0.6,
        note_at=rng.choice(notes),
        as_string=rng.random() < 0.5,
        raw_numbers=rng.random() < 0.5,
        by_metric=rng.random() < 0.4,
        percent_space=rng.random() < 0.2,
        caption=rng.random() < 0.5,
    )


def features(table: Table, form: Form, style: Style) -> list[str]:
    """What this rendering shows of the habits issue 17 lists (for reading the rates by feature)."""
    cells = [v for row in table.values for v in row]
    kinds = {metric.kind for metric in table.metrics}
    printed_layout = form != "records"
    found = {
        "scale_note": bool(table.scale.note),
        "multi_row_header": bool(table.group) and printed_layout,
        "header_per_block": bool(table.blocks) and printed_layout,
        "section_rows": any(m.section for m in table.metrics) and printed_layout,
        "indented_rows": any(m.indent for m in table.metrics) and printed_layout,
        "empty_cells": None in cells,
        "negatives_in_parens": any(v is not None and v < 0 for v in cells) and style.parens,
        "negatives": any(v is not None and v < 0 for v in cells),
        "footnotes": any(m.footnote for m in table.metrics) and printed_layout,
        "per_share_rows": "per_share" in kinds,
        "percent_rows": "percent" in kinds,
        "percent_columns": bool(table.extras) and printed_layout,
        "amount_and_percent_under_each_year": table.paired and printed_layout,
        "currency_in_cells": bool(table.scale.currency) and style.currency_cells and not style.raw_numbers,
        "no_separator_row": form == "markdown" and not style.separator,
        "quoted_fields": form == "csv",
        "json_string": form in ("json_rows", "records") and style.as_string,
        "raw_numbers": form == "records" and style.raw_numbers,
        "records_by_line_item": form == "records" and style.by_metric,
    }
    return [name for name, present in found.items() if present]


def answer_features(written: Written) -> list[str]:
    words = ("thousand", "million", "billion", "m", "bn")
    return [
        name
        for name, present in (
            ("answer_scale_word", written.figure.endswith(words)),
            ("answer_other_scale", written.factor != 1),
            ("answer_minus_sign", written.figure.startswith("-")),
            ("answer_sign_word", written.worded),
            ("answer_states_operands", written.with_operands),
        )
        if present
    ]


def evidence_text(items: list[Any]) -> str:
    return " ".join(item if isinstance(item, str) else json.dumps(item, ensure_ascii=False) for item in items)


def build_case(
    number: int,
    tables: tuple[Table, Table | None],
    form: Form,
    phrasing: Phrasing,
    rng: random.Random,
    operations: list[Operation],
) -> dict[str, Any] | None:
    table, other = tables
    style = style_for(form, rng)
    evidence = [render(table, form, style)]
    if other is not None:
        other_form = rng.choice(FORMS)
        second = render(other, other_form, style_for(other_form, rng))
        evidence.insert(rng.randrange(2), second)
    note = table.scale.note
    assert not note or note in evidence_text(evidence).replace(json.dumps(note)[1:-1], note), evidence
    grids = [t.grid() for t in (table, other) if t is not None]
    for operation in operations:
        question = ask(table, operation, rng)
        if question is None:
            continue
        decimals = decimals_for(table, question, rng)
        if question.operation not in ("lookup", "grew_to") and ambiguous(question.value, decimals):
            continue
        written = write(table, question, decimals, phrasing, rng)
        candidates = simple_values(grids, printed_numbers(evidence_text(evidence) + " " + question.question))
        corrupted = corrupt(written.figure, candidates, rng, written.factor)
        if corrupted is None:
            continue
        restate = phrasing == "restated" and written.generic
        answer = f"{question.question} {written.sentence}" if restate else written.sentence
        if answer.count(written.figure) != 1:
            continue
        sentence = written.sentence.replace(written.figure, corrupted)
        shown = features(table, form, style) + answer_features(written)
        case: dict[str, Any] = {
            "id": f"tbl-{number:03d}",
            "form": form,
            "features": shown + (["second_evidence_item"] if other is not None else []),
            "operation": question.operation,
            "phrasing": phrasing,
            "evidence": evidence,
            "user_prompt": None if phrasing == "restated" else question.question,
            "answer": answer,
            "figure": written.figure,
            "corrupted_answer": answer.replace(written.sentence, sentence),
            "corrupted_figure": corrupted,
            "computation": f"{question.computation} = {question.value:.6g}",
        }
        if written.factor != 1:  # the figure is at another scale than its table
            case["figure_scale"] = int(written.factor)
        return case
    return None


def shared_labels(table: Table, other: Table) -> bool:
    def words(of: Table) -> set[str]:
        return {word for metric in of.metrics for word in metric.said.lower().split()} - STOP_WORDS

    return bool(words(table) & words(other))


def generated(rng: random.Random) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    turn = 0
    asked = dict.fromkeys(OPERATIONS, 0)
    while len(cases) < GENERATED:
        index = turn % len(BUILDERS)
        round_ = turn // len(BUILDERS)
        turn += 1
        if BUILDERS[index] in FIXED and round_ >= FIXED_ROUNDS:
            continue
        form = FORMS[(index + round_) % len(FORMS)]
        phrasing: Phrasing = "restated" if len(cases) % 2 else "prompt_only"
        # The operation asked least so far goes first: a table that cannot ask it asks the next.
        operations = sorted(
            OPERATIONS, key=lambda op: (asked[op] / WEIGHTS.get(op, 1.0), (turn + OPERATIONS.index(op)) % 9)
        )
        table = BUILDERS[index](rng)
        other = None
        if rng.random() < SECOND_ITEM:
            other = BUILDERS[(index + rng.randrange(1, len(BUILDERS))) % len(BUILDERS)](rng)
            if shared_labels(table, other):  # two "Revenue" rows would make the question ambiguous
                other = None
        case = build_case(len(cases) + 1, (table, other), form, phrasing, rng, operations)
        if case is not None:
            asked[case["operation"]] += 1
            cases.append(case)
    return cases


def result(operation: str, operands: list[Decimal]) -> Decimal:
    """The exact result of a hand-written case's operation."""
    a = operands[0]
    b = operands[1] if len(operands) > 1 else Decimal(0)
    computed = {
        "lookup": lambda: a,
        "grew_to": lambda: a,
        "change": lambda: a - b,
        "pp_diff": lambda: a - b,
        "pct_change": lambda: (a - b) / abs(b) * 100,
        "average": lambda: sum(operands, Decimal(0)) / len(operands),
        "sum": lambda: sum(operands, Decimal(0)),
        "ratio": lambda: a / b,
        "share": lambda: a / b * 100,
    }
    return computed[operation]()


def handwritten(first: int, rng: random.Random) -> list[dict[str, Any]]:
    cases = []
    for number, spec in enumerate(HANDWRITTEN, first):
        operands = [Decimal(text) for text in spec["operands"]]
        exact = result(spec["operation"], operands)
        written, decimals = figure_number(spec["figure"])
        assert rounded(abs(exact), decimals) == written, (spec["figure"], exact)
        text = evidence_text(spec["evidence"]) + " " + (spec["user_prompt"] or "")
        corrupted = corrupt(spec["figure"], simple_values([], printed_numbers(text), group_limit=3), rng)
        assert corrupted is not None, spec["figure"]
        answer = spec["answer"]
        start = answer.index(spec["figure"])
        case = {"id": f"tbl-{number:03d}"}
        case.update((key, value) for key, value in spec.items() if key != "operands")
        case.update(
            corrupted_answer=answer[:start] + corrupted + answer[start + len(spec["figure"]) :],
            corrupted_figure=corrupted,
            computation=f"{spec['operation']}({', '.join(spec['operands'])}) = {exact:.6g}",
        )
        cases.append(case)
    return cases


def build_cases() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    cases = generated(rng)
    return cases + handwritten(len(cases) + 1, rng)


def dumps(cases: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in cases)


def main() -> None:
    OUTPUT.write_text(dumps(build_cases()), encoding="utf-8")


if __name__ == "__main__":
    main()
