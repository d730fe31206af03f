"""The wording that says an answer figure was computed, and which operations it allows.

A derivation is looked for only when the words next to the figure name one ("total", "average",
"grew", "of", "each", "="): an unworded figure that matches no evidence value stays what it was.
The wording also narrows the operations tried, so fewer candidates compete for an accidental hit
(see ``scoring.derivations``), and it is what allows an absolute difference ("fell by $12,400").
"""

from __future__ import annotations

import re

from otel_groundedness.scoring.label_words import AtomContext
from otel_groundedness.scoring.results import DerivedOperation

_SUM = (
    r"total\w*|sum|sums|summed|combined|altogether|together|overall|aggregate\w*|cumulative\w*|"
    r"adds?\s+up|added\s+up|in\s+all"
)
_AVERAGE = r"average\w*|avg|mean|per"
_CHANGE = (
    r"difference|differ\w*|more|less|fewer|higher|lower|gap|grew|grow\w*|rose|rise|rises|rising|"
    r"increase\w*|decrease\w*|(?<!add\s)(?<!adds\s)(?<!added\s)up|down|fell|fall|falls|drop\w*|declin\w*|gain\w*|lost|loss|change\w*|"
    r"jump\w*|climb\w*|shr[iau]nk\w*|leaving|left|remaining|yoy|year[\s-]+over[\s-]+year|"
    r"year[\s-]+on[\s-]+year|month[\s-]+over[\s-]+month"
)
_SHARE = r"of|share|ratio|rate|margin|proportion|fraction|accounts?\s+for|represent\w*|out\s+of"
_EACH = r"each|apiece|per|times"
_PRODUCT = r"each|apiece|times|at|cost|costs|priced|worth"


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![^\W\d_])(?:{pattern})(?![^\W\d_])", re.IGNORECASE)


_SUM_WORDS = _words(_SUM)
_AVERAGE_WORDS = _words(_AVERAGE)
_CHANGE_WORDS = _words(_CHANGE)
_SHARE_WORDS = _words(_SHARE)
_EACH_WORDS = _words(_EACH)
_PRODUCT_WORDS = _words(_PRODUCT)
_EQUATION = re.compile(r"=")
_PLUS = re.compile(r"\+")
_TIMES = re.compile(r"[×*]|\d\s?x\b")
_OVER = re.compile(r"[/÷]")
_EVERY: frozenset[DerivedOperation] = frozenset(
    ("sum", "difference", "pct_change", "ratio", "average", "product")
)


def cued_operations(around: AtomContext, percent: bool) -> frozenset[DerivedOperation]:
    """The operations the wording around the figure allows: read between the neighbouring atoms,
    and in the sentence when that stretch names none. A percent is a change or a share; money and
    plain numbers are sums, differences, averages, products or per-unit ratios."""
    for near in (True, False):
        before, after = around.window_text(near)
        found = _operations(before + " " + after, percent)
        if found:
            return found
    return frozenset()


def _operations(text: str, percent: bool) -> frozenset[DerivedOperation]:
    found: set[DerivedOperation] = set()
    if _EQUATION.search(text):
        found |= _EVERY
    if percent:
        if _CHANGE_WORDS.search(text):
            found.add("pct_change")
        if _SHARE_WORDS.search(text) or _OVER.search(text):
            found.add("ratio")
        return frozenset(found & {"pct_change", "ratio"})
    if _SUM_WORDS.search(text) or _PLUS.search(text):
        found.add("sum")
    if _AVERAGE_WORDS.search(text):
        found.add("average")
    if _CHANGE_WORDS.search(text):
        found.add("difference")
    if _EACH_WORDS.search(text) or _OVER.search(text):
        found.add("ratio")
    if _PRODUCT_WORDS.search(text) or _TIMES.search(text):
        found.add("product")
    return frozenset(found - {"pct_change"})
