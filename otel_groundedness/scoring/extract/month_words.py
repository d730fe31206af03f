"""When a lower-case month name that is also an English word is a date.

Month names are read in any case (pipelines lower-case text: "may 30", "28 october"), but "may",
"march" and "mar" are also a verb or a noun, and a count can follow them ("you may 30 days later",
"up to 30 may attend", "troops march 30 miles"). Written in lower case, such a word is a date only
when the date says so itself: it states a year ("may 30, 2024", "30 may 2024", "may 2024") or an
ordinal ("march 4th", "4th of march"), or it follows a word that introduces a date ("on", "by",
"until", ...), punctuation (a field label "date: may 30"), or nothing at all. Capitalised and
upper-case spellings are always names.
"""

from __future__ import annotations

WORD_MONTHS: frozenset[str] = frozenset({"may", "march", "mar"})
DATE_LEAD_WORDS: frozenset[str] = frozenset({
    "on", "by", "until", "till", "til", "since", "from", "before", "after", "due", "effective",
    "starting", "ending", "expires", "expired", "dated", "as", "in", "of",
})  # fmt: skip
# Words that continue a list or range of dates ("may 1 to may 30"), but also stand before a count
# ("up to 30 may attend"): they lead only a month written first.
RANGE_WORDS: frozenset[str] = frozenset({"to", "and", "or", "through", "thru", "between"})
_LOOK_BACK = 16


def is_word_month(written: str) -> bool:
    """Whether ``written`` is a lower-case month name that is also an English word."""
    return written in WORD_MONTHS


def name_start(text: str, space: int) -> int:
    """Start of the word that ends just before ``text[space]`` (month names are at most 9 letters)."""
    start = space
    while start > max(0, space - 10) and text[start - 1].isalpha():
        start -= 1
    return start


def led_as_date(text: str, start: int, floor: int, month_first: bool) -> bool:
    """Whether what precedes ``text[start]`` introduces a date: a date word (or a range word before a
    month written first), punctuation, or nothing (the start of the text or of a line, or the end
    of the previous atom)."""
    window = text[max(floor, start - _LOOK_BACK) : start]
    before = window.rstrip()
    if not before or "\n" in window[len(before) :]:
        return True
    if not before[-1].isalnum():
        return True
    word = before.rsplit(None, 1)[-1].lower()
    return word in DATE_LEAD_WORDS or (month_first and word in RANGE_WORDS)
