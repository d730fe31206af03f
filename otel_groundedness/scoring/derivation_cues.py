"""The wording that says an answer figure was computed, and which operations it allows.

A derivation is looked for only when the words next to the figure name one ("total", "average",
"grew", "of", "each", "="): an unworded figure that matches no evidence value stays what it was.
The wording also narrows the operations tried, so fewer candidates compete for an accidental hit
(see ``scoring.derivations``), and it is what allows an absolute difference ("fell by $12,400").
Words are compared as a set (one tokenising pass): this runs for every unmatched figure.
"""

from __future__ import annotations

import re
from itertools import pairwise

from otel_groundedness.scoring.label_words import AtomContext
from otel_groundedness.scoring.results import DerivedOperation

_SUM = frozenset(
    [
        "total",
        "totals",
        "totaled",
        "totalled",
        "totaling",
        "totalling",
        "sum",
        "sums",
        "summed",
        "combined",
        "altogether",
        "together",
        "overall",
        "aggregate",
        "cumulative",
    ]
)
_AVERAGE = frozenset(["average", "averages", "averaged", "averaging", "avg", "mean", "per"])
_CHANGE = frozenset(
    [
        "difference",
        "differ",
        "differs",
        "differed",
        "more",
        "less",
        "fewer",
        "higher",
        "lower",
        "gap",
        "grew",
        "grow",
        "grows",
        "growth",
        "growing",
        "rose",
        "rise",
        "rises",
        "rising",
        "increase",
        "increased",
        "increases",
        "increasing",
        "decrease",
        "decreased",
        "decreases",
        "decreasing",
        "up",
        "down",
        "fell",
        "fall",
        "falls",
        "drop",
        "drops",
        "dropped",
        "decline",
        "declined",
        "declines",
        "declining",
        "gain",
        "gained",
        "gains",
        "lost",
        "loss",
        "change",
        "changed",
        "changes",
        "jump",
        "jumped",
        "climb",
        "climbed",
        "shrank",
        "shrunk",
        "shrink",
        "leaving",
        "left",
        "remaining",
        "yoy",
    ]
)
# Words that name a change: they say what is computed, never which table row or column.
CHANGE_WORDS = _CHANGE
_SHARE = frozenset(
    [
        "of",
        "share",
        "ratio",
        "rate",
        "margin",
        "proportion",
        "fraction",
        "represents",
        "represent",
        "represented",
    ]
)
_EACH = frozenset(["each", "apiece", "per", "times"])
_PRODUCT = frozenset(["each", "apiece", "times", "at", "cost", "costs", "priced", "worth"])
# Two-word cues: "add up to" sums (its "up" is no increase), "accounts for" is a share, and "year
# over year" a change.
_SUM_PAIRS = frozenset({("add", "up"), ("adds", "up"), ("added", "up"), ("in", "all")})
_SHARE_PAIRS = frozenset({("accounts", "for"), ("account", "for")})
_CHANGE_PAIRS = frozenset({("year", "over"), ("year", "on"), ("month", "over"), ("quarter", "over")})
_TOKEN = re.compile(r"[^\W\d_]+")
_TIMES_X = re.compile(r"\d\s?x\b")
_EVERY: frozenset[DerivedOperation] = frozenset(
    ("sum", "difference", "pct_change", "ratio", "average", "product", "pp_difference")
)


def cued_operations(around: AtomContext, percent: bool) -> frozenset[DerivedOperation]:
    """The operations the wording around the figure allows: read between the neighbouring atoms,
    and in the sentence when that stretch names none. A percent is a change or a share; money and
    plain numbers are sums, differences, averages, products or per-unit ratios. A figure right
    after "to" ("grew to $1.5M") is where a change ended, a value as it stands: no change."""
    for near in (True, False):
        before, after = around.window_text(near)
        found = operations_in(before + " " + after, percent)
        if found:
            return found - _CHANGES if _ends_change(before) else found
    return frozenset()


def table_operations(
    operations: frozenset[DerivedOperation], around: AtomContext, percent: bool
) -> frozenset[DerivedOperation]:
    """``operations`` and those the figure's whole sentence names, for the label-chosen table
    search (whose candidates are few); still no change for a figure right after "to"."""
    found = operations | operations_in(around.sentence_text(), percent)
    return found - _CHANGES if _ends_change(around.window_text(True)[0]) else found


def _ends_change(before: str) -> bool:
    """The figure ends a change ("grew to", "fell sharply to"); "comes to" names none."""
    tokens = _TOKEN.findall(before.lower())
    return tokens[-1:] == ["to"] and not _CHANGE.isdisjoint(tokens[-3:-1])


_CHANGES: frozenset[DerivedOperation] = frozenset(("difference", "pct_change", "pp_difference"))


def operations_in(text: str, percent: bool) -> frozenset[DerivedOperation]:
    """The operations ``text`` names (the wording near a figure, or the question it answers)."""
    if not text:
        return frozenset()
    text = text.replace("**", " ")  # markdown bold ("It is **3.85**."), no multiplication
    tokens = _TOKEN.findall(text.lower())
    words = set(tokens)
    pairs = set(pairwise(tokens))
    found: set[DerivedOperation] = set()
    if "=" in text:
        found |= _EVERY
    change = not words.isdisjoint(_CHANGE) and not (words & _CHANGE == {"up"} and pairs & _SUM_PAIRS)
    change = change or not pairs.isdisjoint(_CHANGE_PAIRS)
    if percent:
        if change:
            found |= {"pct_change", "pp_difference"}
        if not words.isdisjoint(_SHARE) or not pairs.isdisjoint(_SHARE_PAIRS) or "/" in text or "÷" in text:
            found.add("ratio")
        if not words.isdisjoint(_AVERAGE - {"per"}):
            found.add("average")
        return frozenset(found & {"pct_change", "ratio", "pp_difference", "average"})
    if not words.isdisjoint(_SUM) or not pairs.isdisjoint(_SUM_PAIRS) or "+" in text:
        found.add("sum")
    if not words.isdisjoint(_AVERAGE):
        found.add("average")
    if change:
        found.add("difference")
    if not words.isdisjoint(_EACH) or "ratio" in words or "/" in text or "÷" in text:
        found.add("ratio")
    if not words.isdisjoint(_PRODUCT) or "×" in text or "*" in text or _TIMES_X.search(text):
        found.add("product")
    return frozenset(found - {"pct_change", "pp_difference"})
