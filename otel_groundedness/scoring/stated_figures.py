"""Short figures an answer states as what it answers: "It is 3.85.", "It decreased by 87.5.",
"It fell by 3.6 points.", "That comes to **2.55**.", "Answer: 2.55", or "2.55" alone.

Bare numbers with fewer than ``min_number_digits`` digits are noise in running text ("3 items",
"step 2") and are not extracted. A short number that ends a sentence right after a verb or "by"
is different: it is the answer to a question, typically a ratio or a change computed from a
table, and must be checked like any figure (so must an answer that is nothing but a number).
"N points" after such a verb is a change in percentage points (a percent atom with unit ``pp``).
One short match before each sentence end; the atoms found join the extracted ones where they
overlap none.
"""

from __future__ import annotations

import bisect
import re

from otel_groundedness.scoring.atoms import Atom, Quantity

# What ends a sentence, and the figure stated right before it (matched on the stretch before).
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)")
_STATED = re.compile(
    r"(?:(?:\b(?:is|was|are|were|be|been|by|of|to|equals?|totals?|totaled|totalled|reached|up|down)|[=:])\s+"
    r"|^\s*)(?:\*\*|__)?"  # after a verb, "by", "to", a colon; or the whole answer; maybe in bold
    r"(?P<figure>(?P<sign>[-−+])?(?P<digits>\d{1,3}(?:\.\d{1,6})?|\d+(?:\.\d{1,6})?))"
    r"(?P<points>\s+(?:percentage\s+)?points?\b|\s*pts\b)?"
    r"(?:\*\*|__)?\s*\Z",
    re.IGNORECASE,
)
# The words of ``_STATED``.
_STATING = frozenset({
    "is", "was", "are", "were", "be", "been", "by", "of", "to", "equal", "equals", "total", "totals",
    "totaled", "totalled", "reached", "up", "down",
})  # fmt: skip
_REACH = 80  # characters before a sentence end read for its stated figure


def _may_state(text: str, low: int, last: int) -> bool:
    """Whether the digits ending at ``last`` can be a stated figure (a necessary test, cheaper than
    searching ``_STATED`` over the stretch, the costly part of an answer's scan): past a sign and
    a bold mark, the start of the text, or spaces after "=", ":" or one of ``_STATING`` words.
    "$1,234.", "v2.5." and "due on August 21, 2025;" are not."""
    if not text[last - 1].isdigit():
        return True  # "points": left to ``_STATED``
    start = last - 1
    while start > low and (text[start - 1].isdigit() or text[start - 1] == "."):
        start -= 1
    if start > low and text[start - 1] in "-−+":
        start -= 1
    if start <= low:
        return True
    if text[start - 2 : start] in ("**", "__"):
        start -= 2
    space = start
    while space > low and text[space - 1].isspace():
        space -= 1
    if space == low:
        return True
    if space == start:
        return False
    if text[space - 1] in "=:":
        return True
    word = space
    while word > low and text[word - 1].isalpha():
        word -= 1
    return text[word:space].casefold() in _STATING


def stated_figures(text: str, atoms: list[Atom], min_number_digits: int) -> list[Atom]:
    """``atoms`` plus the short figures ``text`` states as answers, sorted by start."""
    found: list[Atom] = []
    starts = [atom.start for atom in atoms]
    ends = [match.start() for match in _SENTENCE_END.finditer(text)]
    tail = text[-_REACH:]
    last = len(text) - len(tail) + len(tail.rstrip())  # without copying a long text
    if not ends or ends[-1] < last:
        ends.append(last)  # an answer without a final full stop
    for sentence_end in ends:
        low = max(0, sentence_end - _REACH)
        last = sentence_end
        while last > low and text[last - 1] in " *_":
            last -= 1
        if last == low or not (text[last - 1].isdigit() or text[last - 1] in "sS"):
            continue  # no figure (nor "points") ends this sentence: most sentences, checked in O(1)
        if not _may_state(text, low, last):
            continue
        match = _STATED.search(text, low, sentence_end)
        if match is None:
            continue
        start, end = match.start("figure"), match.end("points") if match["points"] else match.end("figure")
        position = bisect.bisect_right(starts, start)
        if (position and atoms[position - 1].end > start) or (
            position < len(atoms) and atoms[position].start < end
        ):
            continue  # part of an atom already found
        digits = match["digits"]
        significant = digits.replace(".", "").lstrip("0") or "0"
        points = match["points"] is not None
        if not points and len(significant) >= min_number_digits:
            continue  # the extractor's own decision stands
        value = float(digits) * (-1.0 if match["sign"] in ("-", "−") else 1.0)
        decimals = len(digits.partition(".")[2])
        quantity = Quantity(value, 0.5 * 10.0**-decimals, significant, None, "pp" if points else None)
        found.append(Atom("percent" if points else "number", text[start:end], start, end, quantity))
    if not found:
        return atoms
    return sorted(atoms + found, key=lambda atom: atom.start)
