"""Questions over a dev-set table: ``ask`` picks the operands of an operation, computes the exact
result and words the question (and the same question as the subject of a sentence);
``decimals_for`` says how precisely an answer states the result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from tests.scoring.devset.tables import Table

Operation = Literal[
    "lookup", "grew_to", "change", "pct_change", "average", "sum", "ratio", "share", "pp_diff"
]
OPERATIONS: tuple[Operation, ...] = (
    "lookup",
    "grew_to",
    "change",
    "pct_change",
    "average",
    "sum",
    "ratio",
    "share",
    "pp_diff",
)
Cell = tuple[int, int]  # (metric, period)


@dataclass(frozen=True)
class Ask:
    operation: Operation
    cells: tuple[Cell, ...]
    value: Decimal  # the exact result, signed
    question: str
    statement: str  # the question as the subject of a sentence ("The change in revenue from ...")
    computation: str
    kind: Literal["amount", "count", "per_share", "percent", "points", "ratio"]


def value(table: Table, cell: Cell) -> Decimal:
    found = table.values[cell[0]][cell[1]]
    assert found is not None
    return found


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def pairs_in_time(table: Table, metric: int, rng: random.Random) -> tuple[int, int] | None:
    """(newer, older) periods of one metric, both with a value."""
    periods = [p for p in range(len(table.periods)) if table.values[metric][p] is not None]
    if len(periods) < 2:
        return None
    a, b = rng.sample(periods, 2)
    return (a, b) if table.age(a) > table.age(b) else (b, a)


def metrics_of(table: Table, kinds: tuple[str, ...]) -> list[int]:
    return [m for m, spec in enumerate(table.metrics) if spec.kind in kinds]


def ask(table: Table, operation: Operation, rng: random.Random) -> Ask | None:
    """A question of ``operation`` over ``table``, or None when the table offers none."""
    numeric = metrics_of(table, ("amount", "count", "per_share"))
    percents = metrics_of(table, ("percent",))
    if operation in ("lookup", "grew_to", "change", "pct_change", "average"):
        pool = numeric + (percents if operation in ("lookup", "average") else [])
    elif operation == "pp_diff":
        pool = percents
    else:
        pool = metrics_of(table, ("amount", "count"))
    if not pool:
        return None
    m = rng.choice(pool)
    spec = table.metrics[m]
    said = spec.said
    kind: Literal["amount", "count", "per_share", "percent"] = spec.kind
    if operation == "lookup":
        cells = [p for p in range(len(table.periods)) if table.values[m][p] is not None]
        p = rng.choice(cells)
        question = rng.choice([f"What was {said} {table.place(p)}?", f"What is the {said} {table.place(p)}?"])
        return Ask(
            operation,
            ((m, p),),
            value(table, (m, p)),
            question,
            f"{cap(said)} {table.place(p)}",
            f"{spec.name} / {table.periods[p]}",
            kind,
        )
    if operation in ("grew_to", "change", "pct_change", "pp_diff"):
        pair = pairs_in_time(table, m, rng)
        if pair is None:
            return None
        new, old = pair
        a, b = value(table, (m, new)), value(table, (m, old))
        if not table.temporal:
            if operation in ("grew_to", "pct_change"):
                return None
            new, old = (new, old) if abs(a) >= abs(b) else (old, new)
            a, b = value(table, (m, new)), value(table, (m, old))
            between = f"between {table.name(new)} and {table.name(old)}"
            question = f"What is the difference in {said} {between}?"
            return Ask(
                operation,
                ((m, new), (m, old)),
                a - b,
                question,
                f"The difference in {said} {between}",
                f"{a} - {b}",
                "points" if operation == "pp_diff" else kind,
            )
        span = f"from {table.name(old)} to {table.name(new)}"
        between = f"between {table.name(old)} and {table.name(new)}"
        # An outflow printed negative ("cash used", capital expenditures) has two honest signs of
        # change, and so has a percentage change from a loss: neither is asked.
        if (operation == "change" and a < 0 and b < 0) or (operation == "pct_change" and (a < 0 or b <= 0)):
            return None
        if operation == "grew_to":
            if a == b or a <= 0 or b <= 0:
                return None
            question = f"How did {said} change {span}?"
            return Ask(
                operation,
                ((m, new), (m, old)),
                a,
                question,
                cap(said),
                f"{spec.name} / {table.periods[new]}",
                kind,
            )
        if operation == "pct_change":
            if not b:
                return None
            question = rng.choice(
                [
                    f"What was the percentage change in {said} {span}?",
                    f"What is the percentage change in {said} {between}?",
                    f"By what percentage did {said} change {span}?",
                ]
            )
            return Ask(
                operation,
                ((m, new), (m, old)),
                (a - b) / abs(b) * 100,
                question,
                f"The percentage change in {said} {span}",
                f"({a} - {b}) / {abs(b)} * 100",
                "percent",
            )
        question = rng.choice(
            [
                f"What was the change in {said} {span}?",
                f"By how much did {said} change {between}?",
                f"By how many percentage points did {said} change {span}?"
                if operation == "pp_diff"
                else f"What is the difference in {said} between {table.name(new)} and {table.name(old)}?",
            ]
        )
        return Ask(
            operation,
            ((m, new), (m, old)),
            a - b,
            question,
            f"The change in {said} {span}",
            f"{a} - {b}",
            "points" if operation == "pp_diff" else kind,
        )
    if operation == "average":
        return average(table, m, rng)
    if operation == "sum":
        return total(table, m, rng)
    return proportion(table, m, operation, rng)


def named_periods(table: Table, periods: list[int]) -> str:
    names = [table.name(p) for p in sorted(periods, key=table.age)]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 2 else " and ".join(names)


def average(table: Table, m: int, rng: random.Random) -> Ask | None:
    spec = table.metrics[m]
    present = [p for p in range(len(table.periods)) if table.values[m][p] is not None]
    if len(present) < 2 or not table.across_columns:
        return None
    if table.blocks and rng.random() < 0.6:
        block = rng.randrange(len(table.blocks))
        chosen = [p for p in present if p // len(table.columns) == block]
        place = f"per quarter in {table.blocks[block]}"
        question = averaged(spec.said, place)
    elif len(present) <= 4 and rng.random() < 0.5 and table.temporal:
        chosen = present
        ordered = sorted(chosen, key=table.age)
        place = f"from {table.name(ordered[0])} to {table.name(ordered[-1])}"
        question = averaged(spec.said, place)
    else:
        chosen = rng.sample(present, 2 if len(present) < 4 else rng.choice([2, 3]))
        place = (
            table.phrase.format(named_periods(table, chosen))
            if table.temporal
            else f"across {named_periods(table, chosen)}"
        )
        question = averaged(spec.said, place)
    cells = tuple((m, p) for p in chosen)
    values = [value(table, c) for c in cells]
    return Ask(
        "average",
        cells,
        sum(values, Decimal(0)) / len(values),
        question,
        averaged(spec.said, place, statement=True),
        f"average({', '.join(map(str, values))})",
        spec.kind,
    )


def averaged(said: str, place: str, statement: bool = False) -> str:
    """The average question and its statement, not "the average average order value"."""
    if said.startswith("average "):
        return f"The {said} averaged {place}" if statement else f"What was the {said} averaged {place}?"
    return f"The average {said} {place}" if statement else f"What was the average {said} {place}?"


def total(table: Table, m: int, rng: random.Random) -> Ask | None:
    """Two parts of one total in one period (segments, regions, expense lines), or one row over
    periods or regions."""
    spec = table.metrics[m]
    present = [p for p in range(len(table.periods)) if table.values[m][p] is not None]
    partners = [
        o
        for o in range(len(table.metrics))
        if o != m and spec.part and table.metrics[o].part and table.metrics[o].kind == spec.kind
    ]
    if not partners and not table.across_columns:
        return None
    if partners and (rng.random() < 0.5 or not table.across_columns):
        other = rng.choice(partners)
        p = rng.choice([p for p in present if table.values[other][p] is not None] or [-1])
        if p < 0:
            return None
        a, b = value(table, (m, p)), value(table, (other, p))
        said = f"{spec.said} and {table.metrics[other].said}"
        question = rng.choice(
            [f"What was the sum of {said} {table.place(p)}?", f"What were {said} combined {table.place(p)}?"]
        )
        return Ask(
            "sum",
            ((m, p), (other, p)),
            a + b,
            question,
            f"The sum of {said} {table.place(p)}",
            f"{a} + {b}",
            spec.kind,
        )
    if table.blocks and rng.random() < 0.5:
        block = rng.randrange(len(table.blocks))
        chosen = [p for p in present if p // len(table.columns) == block]
        place = f"across the four quarters of {table.blocks[block]}"
    else:
        chosen = rng.sample(present, 2)
        place = (
            table.phrase.format(named_periods(table, chosen))
            if table.temporal
            else f"for {named_periods(table, chosen)}"
        )
    values = [value(table, (m, p)) for p in chosen]
    sums = [f"What was the sum of {spec.said} {place}?"]
    if not spec.said.startswith("total "):  # not "the total total spend"
        sums.append(f"What was the total {spec.said} {place}?")
    question = rng.choice(sums)
    return Ask(
        "sum",
        tuple((m, p) for p in chosen),
        sum(values, Decimal(0)),
        question,
        f"The sum of {spec.said} {place}",
        " + ".join(map(str, values)),
        spec.kind,
    )


def proportion(table: Table, m: int, operation: Operation, rng: random.Random) -> Ask | None:
    """A ratio of two metrics of one period, or a part's percentage of a whole."""
    spec = table.metrics[m]
    candidates = [o for o in range(len(table.metrics)) if o != m and table.metrics[o].kind == spec.kind]
    present = [p for p in range(len(table.periods)) if table.values[m][p] is not None]
    pairs = [
        (o, p)
        for o in candidates
        for p in present
        if table.values[o][p] is not None and value(table, (m, p)) > 0 and value(table, (o, p)) > 0
    ]
    whole_row = table.total_row()
    if operation == "share":  # of the table's whole: its total row, revenue, seat kilometres
        if spec.kind != "amount" and not spec.part:  # passengers are no share of seat kilometres
            return None
        pairs = [(o, p) for o, p in pairs if o == whole_row and value(table, (o, p)) > value(table, (m, p))]
    else:  # a ratio people ask for: of two parts, to the whole, or one the table names
        named = {frozenset(pair) for pair in table.ratios}
        pairs = [
            (o, p)
            for o, p in pairs
            if (spec.part and table.metrics[o].part)
            or (whole_row in (m, o) and spec.kind == "amount")  # not departures to seat kilometres
            or frozenset((spec.name, table.metrics[o].name)) in named
        ]
    if not pairs:
        return None
    other, p = rng.choice(pairs)
    a, b = value(table, (m, p)), value(table, (other, p))
    if operation == "ratio" and a < b:  # ratios are asked of the larger figure to the smaller
        m, other, a, b = other, m, b, a
        spec = table.metrics[m]
    part, whole = spec.said, table.metrics[other].said
    place = table.place(p)
    if operation == "ratio":
        question = f"What was the ratio of {part} to {whole} {place}?"
        return Ask(
            "ratio",
            ((m, p), (other, p)),
            a / b,
            question,
            f"The ratio of {part} to {whole} {place}",
            f"{a} / {b}",
            "ratio",
        )
    question = rng.choice(
        [
            f"What percentage of {whole} was {part} {place}?",
            f"What share of {whole} did {part} account for {place}?",
            f"What was {part} as a percentage of {whole} {place}?",
        ]
    )
    return Ask(
        "share",
        ((m, p), (other, p)),
        a / b * 100,
        question,
        f"{cap(part)} as a percentage of {whole} {place}",
        f"{a} / {b} * 100",
        "percent",
    )


def rounded(exact: Decimal, decimals: int) -> Decimal:
    return exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def decimals_for(table: Table, question: Ask, rng: random.Random) -> int:
    if question.operation in ("lookup", "grew_to"):
        return table.percent_decimals if question.kind == "percent" else cell_decimals(table, question.kind)
    if question.kind in ("percent", "points"):
        if question.operation in ("pp_diff", "average") and question.kind == "points":
            return table.percent_decimals
        return rng.choice([1, 2]) if question.operation != "average" else 2
    if question.kind == "ratio":
        return 2
    if question.operation == "average":
        # An average of whole numbers is written with the decimals it has, at most one or two.
        own = max(0, -question.value.normalize().as_tuple().exponent)  # type: ignore[operator]
        return max(cell_decimals(table, question.kind), min(own, rng.choice([1, 2])))
    return cell_decimals(table, question.kind)


def cell_decimals(table: Table, kind: str) -> int:
    return {"count": 0, "per_share": 2}.get(kind, table.decimals)


def ambiguous(exact: Decimal, decimals: int) -> bool:
    """A result on a rounding boundary (x.xx5 exactly) has two honest roundings: not used."""
    scaled = abs(exact) * Decimal(10) ** decimals
    return abs(scaled - scaled.to_integral_value() - Decimal("0.5")) < Decimal("1e-9") or scaled < 1
