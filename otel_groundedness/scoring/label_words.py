"""Label words around a figure: what ties an answer atom to one specific evidence value.

Two atoms share context when their label words intersect (``revenue`` in the answer sentence and
in the JSON key ``total_revenue``); a near miss counts as a contradiction only with such a tie.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

_WORD = re.compile(r"[^\W\d_]{3,}")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Words that appear next to any figure and so tie nothing to anything.
_STOPWORD_TEXT = """
    the and was were are for with from that this these those has have had its our your their you
    they them than then there which who whom what when where while will would could should can may
    might about around approximately roughly nearly almost some over under more less into onto per
    not but all any each every also just only very was been being is be of in on at by to as an or
    usd eur gbp jpy dollar dollars euro euros pound pounds percent per cent percentage point points
    thousand thousands million millions billion billions trillion value values number figure figures"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
BEFORE_WINDOW = 60  # characters of label text read before a figure
AFTER_WINDOW = 30  # and after it (labels mostly precede figures: "Revenue: $1.2M")
# The most of a figure's sentence (and of the one before) read for the computation it names.
SENTENCE_BEFORE = 300
SENTENCE_AFTER = 100
_MAX_SIBLING_LABEL = 40
# Sibling keys whose string value names the record's figures ([{"metric": "revenue", "value": 1243500}]).
_LABEL_KEYS = ("name", "label", "metric", "title", "field", "kind", "type", "category", "description")


def words(text: str) -> set[str]:
    """Normalised label words of ``text``: lower-case, camelCase split, plural made singular."""
    found: set[str] = set()
    for match in _WORD.finditer(_CAMEL_BOUNDARY.sub(" ", text)):
        word = _singular(match.group().lower())
        if word not in _STOPWORDS:
            found.add(word)
    return found


# Plural endings and what replaces them, longest first; "-ss", "-us" and "-is" words are no plurals.
_PLURAL_ENDINGS = (("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"), ("ies", "y"))
_NOT_PLURAL = ("ss", "us", "is")


def _singular(word: str) -> str:
    if len(word) <= 3:
        return word
    if not word.endswith("s"):
        # Singulars the plural rules would not give back ("caches" -> "cach", "movies" -> "movy")
        # are cut the same way, so a singular and its plural still meet; "-ches" is cut only after
        # two letters, so "-che" is too.
        if word.endswith("ie"):
            return word[:-2] + "y"
        return word[:-1] if word.endswith("che") and len(word) > 4 else word
    if word.endswith(_NOT_PLURAL):
        return word
    for ending, replacement in _PLURAL_ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) + 1:
            return word[: -len(ending)] + replacement
    return word[:-1]


def window_words(text: str, start: int, end: int, lower: int = 0, upper: int | None = None) -> set[str]:
    """Label words near ``text[start:end]`` (the figure itself excluded), kept inside [lower, upper)."""
    upper = len(text) if upper is None else upper
    before_start = max(lower, start - BEFORE_WINDOW)
    line_break = text.rfind("\n", before_start, start)
    if line_break >= 0:
        before_start = line_break + 1
    after_end = min(upper, end + AFTER_WINDOW)
    line_break = text.find("\n", end, after_end)
    if line_break >= 0:
        after_end = line_break
    return words(text[before_start:start]) | words(text[end:after_end])


def json_words(keys: Iterable[str], siblings: Mapping[Any, Any] | None) -> set[str]:
    """Label words of a JSON value: its keys up to the root and short sibling labels ("name": "Revenue")."""
    found: set[str] = set()
    for key in keys:
        found |= words(key)
    if siblings is not None:
        for key in _LABEL_KEYS:
            value = siblings.get(key)
            if isinstance(value, str) and len(value) <= _MAX_SIBLING_LABEL:
                found |= words(value)
    return found


# A positive figure after one of these words states a negative amount ("revenue fell 15.3%",
# "a refund of $89.50" against a ledger's -89.5).
_DECREASE_TEXT = (
    "down fell fall falls decreased decrease decline declined dropped drop drops lower loss lost minus "
    "negative reduced reduction cut shrank shrunk refund refunded credit credited chargeback"
)
_DECREASE_WORDS = frozenset(_DECREASE_TEXT.split())
_DECREASE_WINDOW = 30
_PLAIN_WORD = re.compile(r"[^\W\d_]+")


class AtomContext:
    """What the answer says around one atom, computed only when a rule asks.

    Label words are read between the neighbouring atoms first ("subtotal $1,579.88, tax
    $126.39": "tax" labels the second figure); only when that stretch has none is the whole
    sentence window used ("Revenue for 2024 was $1.2M").
    """

    __slots__ = ("_text", "_words", "end", "lower", "near_lower", "near_upper", "previous", "start", "upper")

    def __init__(
        self,
        text: str,
        start: int,
        end: int,
        sentence: tuple[int, int],
        neighbours: tuple[int, int],
        previous: tuple[int, int] | None = None,
    ) -> None:
        self._text = text
        self.start = start
        self.end = end
        self.lower, self.upper = sentence
        self.near_lower = max(self.lower, neighbours[0])  # end of the previous atom
        self.near_upper = min(self.upper, neighbours[1])  # start of the next atom
        self.previous = previous  # the span of the sentence before, if any
        self._words: set[str] | None = None

    def sentence_text(self) -> str:
        """The figure's sentence, at most ``SENTENCE_BEFORE``/``SENTENCE_AFTER`` characters around
        it: read once per unmatched figure, so a 32K "sentence" must not make that quadratic."""
        return self._text[
            max(self.lower, self.start - SENTENCE_BEFORE) : min(self.upper, self.end + SENTENCE_AFTER)
        ]

    def beyond_window(self) -> bool:
        """Whether the sentence reaches past the window ``window_text`` reads around the atom."""
        return self.start - self.lower > BEFORE_WINDOW or self.upper - self.end > AFTER_WINDOW

    def previous_text(self) -> str:
        """The answer's sentence before this one ("What was X?" restated before "It is 3.85%."),
        its last ``SENTENCE_BEFORE`` characters."""
        if self.previous is None:
            return ""
        low, high = self.previous
        return self._text[max(low, high - SENTENCE_BEFORE) : high]

    def previous_question(self) -> str:
        """The previous sentence when it asks a question (the answer restating what it answers)."""
        previous = self.previous_text().rstrip()
        return previous if previous.endswith("?") else ""

    def words(self) -> set[str]:
        if self._words is None:
            text, start, end = self._text, self.start, self.end
            found = window_words(text, start, end, self.near_lower, self.near_upper)
            self._words = found or window_words(text, start, end, self.lower, self.upper)
        return self._words

    def window_text(self, near: bool) -> tuple[str, str]:
        """The text before and after the atom, ``BEFORE_WINDOW``/``AFTER_WINDOW`` characters at most,
        kept between the neighbouring atoms (``near``) or inside the sentence."""
        lower, upper = (self.near_lower, self.near_upper) if near else (self.lower, self.upper)
        text, start, end = self._text, self.start, self.end
        return text[max(lower, start - BEFORE_WINDOW) : start], text[end : min(upper, end + AFTER_WINDOW)]

    def states_decrease(self) -> bool:
        """True when a decrease word closely precedes the atom ("down 15.3%")."""
        before = self._text[max(self.lower, self.start - _DECREASE_WINDOW) : self.start]
        found = _PLAIN_WORD.findall(before.lower())
        return any(word in _DECREASE_WORDS for word in found[-3:])

    def names_decrease(self) -> bool:
        """A decrease word closely before the atom, or right after it ("a 22.58% decrease")."""
        if self.states_decrease():
            return True
        after = _PLAIN_WORD.findall(
            self._text[self.end : min(self.upper, self.end + _DECREASE_WINDOW)].lower()
        )
        return bool(after) and after[0] in _DECREASE_WORDS
