"""An answer's sentence stating the result of a question, as answers write figures.

At the table's scale or another ("418.3 million" for cells in millions, "$1.46 billion" for cells
in thousands), rounded, the sign as a minus ("-12.47%") or as a word ("fell by 12.47%", "a
decrease of 12 million"), alone ("It is 3.85.") or after the operands ("rose from $4,377.9
million to $4,812.6 million, an increase of $434.7 million").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from tests.scoring.devset.questions import Ask, ambiguous, cap, cell_decimals, rounded, value
from tests.scoring.devset.tables import Table

Phrasing = Literal["restated", "prompt_only"]
MAGNITUDES = {
    "": Decimal(1),
    "thousand": Decimal(10) ** 3,
    "million": Decimal(10) ** 6,
    "billion": Decimal(10) ** 9,
}
CODES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "CHF ": "CHF"}  # "EUR 418.3 million"
CONVERTED = 0.15  # how often an amount is written at another scale than its table's
WITH_OPERANDS = 0.3  # how often a worded change also states the two cells it is computed from


@dataclass(frozen=True)
class Written:
    figure: str
    sentence: str  # the answer's sentence holding the figure
    worded: bool  # the sign is a word (fell, decrease), the figure unsigned
    factor: Decimal = Decimal(1)  # the figure's number times this is in the table's units
    with_operands: bool = False  # the sentence also states the cells it was computed from
    generic: bool = False  # the sentence names nothing ("It is 3.85."): restated, the question precedes it


def amount_template(table: Table, kind: str, rng: random.Random, word: str | None = None) -> str:
    """How an answer writes an amount of this table, ``{}`` for the number."""
    scale = table.scale
    if kind == "count":
        return "{}"
    if word is not None:  # a conversion to another scale
        return rng.choice(
            [f"{scale.currency}{{}} {word}", f"{{}} {word}"] if scale.currency else [f"{{}} {word}"]
        )
    forms = ["{}"]
    if scale.currency:
        forms.append(f"{scale.currency}{{}}")
        code = CODES.get(scale.currency, "")
        forms.append(f"{code} {{}} {scale.word}" if scale.word else f"{code} {{}}")
    if scale.word:
        forms += [f"{{}} {scale.word}"] * 2
        if scale.currency:
            forms += [f"{scale.currency}{{}} {scale.word}"] * 3
            if scale.suffix:
                forms.append(f"{scale.currency}{{}}{scale.suffix}")
    if scale.unit:
        forms.append(f"{{}} {scale.unit}")
    return rng.choice(forms)


def template(table: Table, kind: str, rng: random.Random, worded: bool) -> str:
    if kind == "percent":
        return "{}%"
    if kind == "points":
        return rng.choice(
            [
                "{} percentage points",
                "{} percentage points",
                "{} points" if worded else "{} percentage points",
            ]
        )
    if kind == "ratio":
        return "{}"
    if kind == "per_share":
        return (table.scale.currency.strip() or "$") + "{}"
    return amount_template(table, kind, rng)


def conversion(table: Table, question: Ask, rng: random.Random) -> tuple[str, Decimal, int] | None:
    """Another scale for an amount answer: (word, factor to table units, decimals), or None."""
    if (
        question.kind != "amount"
        or table.scale.word not in ("thousand", "million")
        or rng.random() >= CONVERTED
    ):
        return None
    if question.operation not in ("lookup", "grew_to", "change", "sum", "average"):
        return None
    units = abs(question.value) * MAGNITUDES[table.scale.word]
    word = "billion" if units >= MAGNITUDES["billion"] else "million"
    if MAGNITUDES[word] <= MAGNITUDES[table.scale.word]:
        return None
    factor = MAGNITUDES[word] / MAGNITUDES[table.scale.word]
    decimals = rng.choice([1, 2])
    if ambiguous(question.value / factor, decimals):
        return None
    return word, factor, decimals


def write(table: Table, question: Ask, decimals: int, phrasing: Phrasing, rng: random.Random) -> Written:
    # A sign word over negative cells ("cash used ... increased") would say the opposite of the
    # arithmetic, and between regions or budget and actual nothing rose: such results are signed.
    positive = all(value(table, cell) > 0 for cell in question.cells)
    changes = question.operation in ("change", "pct_change", "pp_diff") and table.temporal
    worded = changes and positive and rng.random() < 0.5
    converted = conversion(table, question, rng)
    factor = Decimal(1)
    if converted is not None:
        word, factor, decimals = converted
        form = amount_template(table, question.kind, rng, word)
    else:
        form = template(table, question.kind, rng, worded)
    exact = rounded(question.value / factor, decimals)
    sign = "-" if exact < 0 and not worded else ""
    number = f"{abs(exact):,.{decimals}f}"
    # A minus goes before a symbol (-$418.3) and after a code (JPY -96,644 million).
    figure = form.format(sign + number) if form[:1].isalpha() else sign + form.format(number)
    if question.operation == "grew_to":
        verb = (
            "grew to"
            if question.value > value(table, question.cells[1])
            else rng.choice(["fell to", "declined to"])
        )
        place = table.place(question.cells[0][1])
        if phrasing == "prompt_only":
            return Written(figure, f"It {verb} {figure}.", True, factor, generic=True)
        return Written(figure, f"{question.statement} {verb} {figure} {place}.", True, factor)
    if worded:
        if question.operation != "pp_diff" and converted is None and rng.random() < WITH_OPERANDS:
            sentence = with_operands(table, question, figure, form, exact < 0, rng)
            return Written(figure, sentence, True, factor, with_operands=True)
        if exact < 0:
            verb = rng.choice(["fell by", "decreased by", "was down", "was a decrease of"])
        else:
            verb = rng.choice(["rose by", "increased by", "was up", "was an increase of"])
        if question.operation == "pp_diff" or question.kind == "percent":
            verb = verb.replace("was a decrease of", "fell by").replace("was an increase of", "rose by")
        if question.kind == "percent" and rng.random() < 0.3:  # the sign word after the figure
            sign_word = "decrease" if exact < 0 else "increase"
            return Written(figure, f"It was a {figure} {sign_word}.", True, factor, generic=True)
        return Written(figure, f"It {verb} {figure}.", True, factor, generic=True)
    if phrasing == "restated" and rng.random() < 0.4:
        return Written(figure, f"{question.statement} was {figure}.", False, factor)
    sentences = [f"It is {figure}.", f"It was {figure}.", f"The answer is {figure}.", f"It is **{figure}**."]
    sentences += [f"Answer: {figure}", f"That comes to {figure}."]
    if phrasing == "prompt_only":
        sentences.append(figure)  # the figure is the whole answer
    return Written(figure, rng.choice(sentences), False, factor, generic=True)


def with_operands(table: Table, question: Ask, figure: str, form: str, fell: bool, rng: random.Random) -> str:
    """ "Revenue rose from $4,377.9 million to $4,812.6 million, an increase of $434.7 million.\""""
    (metric, new), (_, old) = question.cells
    spec = table.metrics[metric]
    cells = form if question.kind == spec.kind else template(table, spec.kind, rng, False)
    decimals = table.percent_decimals if spec.kind == "percent" else cell_decimals(table, spec.kind)
    before, after = (cells.format(f"{value(table, (metric, p)):,.{decimals}f}") for p in (old, new))
    verb = "fell" if fell else "rose"
    if question.operation == "pct_change":
        tail = rng.choice(
            [f"down {figure}" if fell else f"up {figure}", f"a {'decline' if fell else 'rise'} of {figure}"]
        )
    else:
        tail = f"a decrease of {figure}" if fell else f"an increase of {figure}"
    return f"{cap(spec.said)} {verb} from {before} to {after}, {tail}."
