"""The regular grammar of atoms: one compiled master pattern per locale pack.

Speed: the master pattern opens with one character class (digits and month-name initials), which
lets ``re`` skip every other character in C. Each branch re-checks the consumed first character
with a one-character lookbehind, and families of branches sit behind one cheap guard each, so a
plain figure fails a handful of guards instead of entering every branch. Word lists are compiled
as prefix tries, and every word that may follow a figure is one trie whose meaning is looked up
in ``Grammar.suffixes``. Currency signs and codes, signs and hedge words are never scan anchors:
they are read leftwards from a figure with ``Grammar.left_context`` on the reversed text.
Safety: lookbehinds are fixed width, repetitions are bounded or possessive, and no two adjacent
quantifiers can take the same characters, so matching cost is linear in the text.
No pattern crosses a line break (callers join separate texts with newlines).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from otel_groundedness.scoring.extract.locales import LocalePack

CURRENCY_SYMBOLS: dict[str, str] = {
    "$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY",
    "₪": "ILS", "₫": "VND", "฿": "THB", "₱": "PHP", "₦": "NGN", "₴": "UAH",
}  # fmt: skip
# Letters glued before "$" that name another dollar ("US$", "C$", "HK$").
DOLLAR_PREFIXES: dict[str, str] = {
    "US": "USD", "AU": "AUD", "A": "AUD", "CA": "CAD", "C": "CAD", "NZ": "NZD", "HK": "HKD",
    "S": "SGD", "R": "BRL", "MX": "MXN",
}  # fmt: skip
ISO_CURRENCIES: frozenset[str] = frozenset({
    "USD", "EUR", "GBP", "JPY", "CNY", "INR", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN",
    "CZK", "HUF", "BRL", "MXN", "ZAR", "SGD", "HKD", "KRW", "RUB", "TRY", "ILS", "AED", "SAR", "THB",
    "IDR", "MYR", "PHP", "VND", "NGN", "EGP", "ARS", "CLP", "COP", "TWD", "PKR", "BDT", "KES", "KWD",
    "QAR", "RON", "BGN", "ISK", "UAH", "KZT",
})  # fmt: skip
# Every code read before or after a figure, with the ISO code it stands for: filings write the
# Chinese yuan "RMB" (glued, "RMB12,345 million").
CURRENCY_CODES: dict[str, str] = {**{code: code for code in ISO_CURRENCIES}, "RMB": "CNY"}
CURRENCY_WORDS: dict[str, str] = {
    "dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "buck": "USD", "bucks": "USD",
    "quid": "GBP",
}  # fmt: skip
# Characters that lead a figure into the atom when written just before it: signs, currency signs.
LEAD_CHARS: frozenset[str] = frozenset(CURRENCY_SYMBOLS) | frozenset("-−+")

# Magnitude letters are case-sensitive ("M" is million, "m" is metres unless money is meant).
# Wire services and filings abbreviate too: "mln", "bln" (Reuters, Interfax), "$250MM" (US finance).
MAGNITUDE_LETTERS: dict[str, int] = {
    "k": 3, "K": 3, "M": 6, "B": 9, "bn": 9, "Bn": 9, "BN": 9, "tn": 12, "Tn": 12, "mln": 6, "Mln": 6,
    "MLN": 6, "bln": 9, "Bln": 9, "BLN": 9,
}  # fmt: skip
MONEY_ONLY_MAGNITUDES: dict[str, int] = {"m": 6, "mn": 6, "mm": 6, "b": 9}
# Finance abbreviations that mean nothing after a figure that is not money ("9MM", "5 MN").
MONEY_ONLY_ABBREVIATIONS: dict[str, int] = {"Mn": 6, "MN": 6, "MM": 6}
# Units: written glued or after one space; single letters only glued ("5s", "3h").
UNITS: tuple[str, ...] = (
    "ns", "µs", "μs", "us", "ms", "sec", "secs", "min", "mins", "hr", "hrs", "kg", "mg", "lb", "lbs",
    "oz", "km", "cm", "mm", "mi", "ft", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB",
    "TiB", "kbps", "Kbps", "Mbps", "Gbps", "Hz", "kHz", "MHz", "GHz", "kW", "kWh", "MW", "MWh",
    "GW", "GWh", "mAh", "rpm", "fps", "rps", "qps", "tps", "°C", "°F",
)  # fmt: skip
GLUED_UNITS: tuple[str, ...] = ("s", "h", "d", "g", "W", "V", "x")

SuffixRole = Literal["magnitude", "money_magnitude", "percent", "currency", "unit", "glued_unit"]


@dataclass(frozen=True, slots=True)
class Suffix:
    """Meaning of a word written after a figure: ``exponent`` is its power of ten, ``label`` the
    unit, percent unit (``%``/``pp``) or ISO currency code it stands for."""

    role: SuffixRole
    exponent: int = 0
    label: str | None = None


_SPACE = "[ \u00a0\u202f]"
_NOT_LETTER_AFTER = r"(?![^\W\d_])"
# The comma before a date's year, also as tokenisers write it ("December 6 , 1975").
_DATE_COMMA = rf"(?:{_SPACE}?,)?{_SPACE}"
_HEX = "[0-9a-fA-F]"


def _alt(words: Iterable[str]) -> str:
    """Alternation of literal words as a prefix trie, longer words first.

    ``re`` tries the alternatives of a branch one by one, but skips one whose first literal
    differs in a single comparison; a trie keeps those lists short, and a wide first level gets a
    one-class lookahead in front.
    """
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = ""
    return _trie_pattern(trie, 0)


def _trie_pattern(node: dict[str, Any], depth: int) -> str:
    children = sorted(char for char in node if char)
    branches = [re.escape(char) + _trie_pattern(node[char], depth + 1) for char in children]
    if "" in node:
        branches.append(node[""])
    if len(branches) == 1:
        return branches[0]
    guard = ""
    if depth == 0 and len(children) > 4 and "" not in node:
        guard = "(?=[" + re.escape("".join(children)) + "])"
    return guard + "(?:" + "|".join(branches) + ")"


def _any_case(words: Iterable[str]) -> set[str]:
    """Lower, capitalised and upper-case spellings (scoped ``(?i)`` would defeat the fast skip)."""
    return {spelling for word in words for spelling in (word.lower(), word.capitalize(), word.upper())}


def _initial_dispatch(words: Iterable[str]) -> tuple[str, str]:
    """(first letters, pattern for the rest of each word once its first letter is consumed).

    The rests form one trie; where a rest ends, a fixed-width lookbehind checks that the consumed
    first letter belongs to a word with that rest.
    """
    firsts: dict[str, set[str]] = {}
    for word in words:
        firsts.setdefault(word[1:], set()).add(word[0])
    trie: dict[str, Any] = {}
    for rest, letters in firsts.items():
        node = trie
        for char in rest:
            node = node.setdefault(char, {})
        node[""] = "(?<=[" + re.escape("".join(sorted(letters))) + "]" + "." * len(rest) + ")"
    initials = "".join(sorted(set().union(*firsts.values())))
    return initials, _trie_pattern(trie, 0)


def _number_core(pack: LocalePack) -> str:
    """A figure after its first digit has been consumed (integer part at most 24 digits)."""
    group = "[" + re.escape(pack.group_separators) + "]"
    grouped = r"[0-9]{0,2}(?:" + group + r"[0-9]{3}){1,8}+"
    plain = r"[0-9]{0,23}+"
    if pack.decimal_separator == ".":
        return f"(?:{grouped}|{plain})(?:\\.[0-9]{{1,15}}+)?"
    decimal = re.escape(pack.decimal_separator) + "[0-9]{1,15}+"
    # "1234.5" from an English-formatted tool output; "1.234" stays a grouped integer.
    dotted = r"\.(?![0-9]{3}(?![0-9]))[0-9]{1,15}+"
    return f"(?:{grouped}(?:{decimal})?|{plain}(?:{decimal}|{dotted})?)"


def suffix_table(pack: LocalePack) -> dict[str, Suffix]:
    """Every word that may follow a figure, spelled as the grammar matches it, with its meaning."""
    table: dict[str, Suffix] = {unit: Suffix("unit", label=unit) for unit in UNITS}
    table.update({unit: Suffix("glued_unit", label=unit) for unit in GLUED_UNITS})
    table.update({symbol: Suffix("currency", label=code) for symbol, code in CURRENCY_SYMBOLS.items()})
    table.update({code: Suffix("currency", label=iso) for code, iso in CURRENCY_CODES.items()})
    for word, code in CURRENCY_WORDS.items():
        table.update(dict.fromkeys(_any_case([word]), Suffix("currency", label=code)))
    for word, kind in pack.percent_words.items():
        meaning = Suffix("percent", -2, "pp") if kind == "bp" else Suffix("percent", 0, kind)
        table.update(dict.fromkeys(_any_case([word]), meaning))
    for word, exponent in pack.magnitudes.items():
        table.update(dict.fromkeys(_any_case([word]), Suffix("magnitude", exponent)))
    table.update({letters: Suffix("magnitude", exponent) for letters, exponent in MAGNITUDE_LETTERS.items()})
    table.update(
        {letters: Suffix("money_magnitude", e, letters) for letters, e in MONEY_ONLY_MAGNITUDES.items()}
    )
    table.update({letters: Suffix("money_magnitude", e) for letters, e in MONEY_ONLY_ABBREVIATIONS.items()})
    return table


def _short_bare(pack: LocalePack, table: dict[str, Suffix], short: int) -> str:
    """A guard at a figure's second character that fails the figure when the scanner would drop it:
    fewer than ``short`` digits (so no year), no sign, currency or letter before it (nor before the
    one space before it), and after it nothing that continues the figure or starts a suffix. Junk
    such as "1,1,1,..." then costs the regex engine alone; anything in doubt is left to the scanner.
    """
    if short < 2:
        return ""
    lead = re.escape("".join(sorted(LEAD_CHARS)))
    # A decimal mark (or a "." read as one) continues a figure before a digit, a group mark only
    # before a whole group; one space continues it before a suffix ("12 kg"), or before a whole
    # group where spaces group thousands ("12 345").
    decimal = {pack.decimal_separator, "."}
    group = {char for char in pack.group_separators if not char.isspace()} - decimal
    marks = re.escape("".join(sorted(decimal | group)))
    suffix_starts = re.escape("".join(sorted({word[0] for word in table if not re.match(r"\w", word[0])})))
    space_group = "|[0-9]{3}" if any(char.isspace() for char in pack.group_separators) else ""
    stop = (
        rf"[^\w\s{marks}{suffix_starts}]|[{re.escape(''.join(sorted(decimal)))}](?![0-9])"
        rf"|{_SPACE}(?![^\W\d_]|[{suffix_starts}]{space_group})|\Z"
    )
    if group:
        stop += rf"|[{re.escape(''.join(sorted(group)))}](?![0-9]{{3}})"
    # Not led: the character before is neither a word, space nor lead character, or it is one space
    # after a digit, a lower-case letter or punctuation (the scanner reads a space after a lead
    # character or a capital as leading).
    unled = rf"(?<=[^\w\s{lead}].)|(?<=[0-9a-z,.;:!?)\]}}\"'\\]{_SPACE}.)"
    return rf"(?!(?:{unled})[0-9]{{0,{short - 2}}}(?:{stop}))"


def _lowercase_month_first(pack: LocalePack) -> str:
    """A date whose lower-case month name comes first ("may 30, 2024", "mars 2025"), found from its
    first digit: lower-case letters as scan anchors would stop the scan in every other word.

    One fixed-width lookbehind per word length finds the month name before the space.
    """
    by_length: dict[int, list[str]] = {}
    for word in pack.months:
        by_length.setdefault(len(word), []).append(word)
    names = "|".join(rf"(?<=(?<![\w]){_alt(words)}{_SPACE}.)" for _, words in sorted(by_length.items()))
    last_letters = re.escape("".join(sorted({word[-1] for word in pack.months})))
    year = r"(?![\w]|[.,][0-9])"
    return (
        rf"(?P<lowmonth>(?<=[{last_letters}]{_SPACE}.)(?:{names})"
        rf"(?:(?P<lm_d>[0-9]?)(?:st|nd|rd|th|er)?(?![\w]|[.,:][0-9]|{_SPACE}?%)"
        rf"(?:{_DATE_COMMA}(?P<lm_y>[0-9]{{4}}){year})?|(?P<lm_yo>[0-9]{{3}}){year}))"
    )


def _digit_branches(pack: LocalePack, anchored: bool, short: int) -> str:
    """Everything that starts at a consumed digit, in priority order: identifiers, dates, figures.
    ``short``: bare figures with fewer digits are dropped (``_short_bare``)."""
    months = _any_case(pack.months)
    not_after_word = r"(?<![\w.].)"
    date_seps = "[" + re.escape(pack.numeric_date_separators) + "]"
    after_mark = [  # the digit follows "-", "#", "(" or "+"
        r"(?P<ticket>(?<=[A-Za-z]-.)[A-Za-z0-9]*+(?:-[A-Za-z0-9]++)*+)",
        r"(?P<hashtag>(?<=#.)(?<![\w&]#.)[0-9]{2,}+(?![\w-]))",
        r"(?P<phoneparen>(?<=\(.)(?<![\w]\(.)[0-9]{2}\)[ ]?[0-9]{3}[-. ][0-9]{4}(?![\w]|[-.]?[0-9]))",
        r"(?P<phoneintl>(?<=\+.)(?<![\w+]\+.)(?<![0-9.]\.\+.)"
        r"[0-9]{0,2}(?:[ .-]\(?[0-9]{1,4}\)?){2,6}(?![\w]|[-.]?[0-9]))",
    ]
    hexadecimal = [  # seven hex characters follow
        rf"(?P<uuid>(?<![\w-].){_HEX}{{7}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}(?![\w-]))",
        r"(?P<hexword>(?<![\w-].)[0-9]*+[a-fA-F][0-9a-fA-F]*+(?![\w-]))",
    ]
    version_guard = ""
    if "." in pack.group_separators:  # "1.234.567" is a number there, not a version
        version_guard = r"(?![0-9]{0,2}(?:\.[0-9]{3})++(?![0-9]|\.[0-9]))"
    separated = [  # digits joined by separators: phones, IPs, numeric dates, year ranges, versions
        # After a full stop only when a word ends there ("booked.212-555-0100"), never a number.
        r"(?P<phone>(?<![\w+].)(?<![0-9.]\..)(?:[0-9]{2}(?P<ps>[-. ])[0-9]{3}(?P=ps)[0-9]{4}"
        r"|(?<=1)(?P<ps1>[-. ])[0-9]{3}(?P=ps1)[0-9]{3}(?P=ps1)[0-9]{4})(?![\w]|[-.]?[0-9]))",
        rf"(?P<ip>{not_after_word}[0-9]{{0,2}}(?:\.[0-9]{{1,3}}){{3}}(?![\w]|\.?[0-9]))",
        r"(?P<iso>(?<![\w.\-/].)[0-9]{3}(?P<isep>[-/])(?P<iso_m>[0-9]{1,2})(?P=isep)(?P<iso_d>[0-9]{1,2})"
        r"(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]{1,9})?)?(?:Z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?"
        r"(?![\w]|[-/.:]?[0-9]))",
        # Two years 1000-2099, the second in full or as two digits ("2007 -- 08"); a round pair
        # before 1900 ("1200-1500 words") is a quantity range. ``Scan.year_range`` reads the rest.
        r"(?P<years>(?<![\w.\-/].)(?:(?<=1)[0-9]|(?<=2)0)[0-9]{2}"
        r"(?!(?<=1[0-8][05]0)[ ]?(?:--|[-–—])[ ]?(?:[0-9]{2})?[05]0(?![0-9]))"
        r"[ ]?(?:--|[-–—])[ ]?(?P<y_end>(?:1[0-9]|20)[0-9]{2}|[0-9]{2})(?![\w%]|[-–/.,]?[0-9]))",
        # An ISO year-month ("2025-01"): a month number after the hyphen, nothing numeric after it.
        r"(?P<isomonth>(?<![\w.\-/].)(?:(?<=1)9|(?<=2)0)[0-9]{2}-(?P<im_m>0[1-9]|1[0-2])"
        r"(?![\w]|[-/.:,]?[0-9]))",
        rf"(?P<numdate>(?<![\w.\-/].)(?P<nd_a>[0-9]?)(?P<nsep>{date_seps})(?P<nd_b>[0-9]{{1,2}})(?P=nsep)"
        r"(?P<nd_y>[0-9]{4}|[0-9]{2})(?![\w]|[-/.,:]?[0-9]))",
        rf"(?P<version>{not_after_word}{version_guard}(?:[0-9]{{0,3}}+(?:\.[0-9]++){{2,3}}+(?![\w]|\.[0-9])"
        r"|[0-9]{0,3}+\.[0-9]++(?:a|b|rc)[0-9]++(?![\w])))",
    ]
    separated_ahead = (  # two separators, a year range or a pre-release version
        r"(?=[0-9]{0,3}[-/.:–— ][0-9]{1,4}[-/.:–— ]|[0-9]{3}[ ]?[-–—]|[0-9]{0,3}\.[0-9]{1,4}(?:a|b|rc)[0-9])"
    )
    worded = [  # a word follows: "3 March", "3rd of March", "3 days ago"
        rf"(?P<daymonth>{not_after_word}(?P<dm_d>[0-9]?)(?:st|nd|rd|th|er|\.)?{_SPACE}(?:of )?"
        rf"(?P<dm_w>{_alt(months)}){_NOT_LETTER_AFTER}\.?"
        rf"(?:{_DATE_COMMA}(?P<dm_y>[0-9]{{4}})(?![\w]|[.,][0-9]))?)",
    ]
    word_initials = {m[0] for m in months}
    if anchored:
        units = _any_case(pack.day_units)
        word_initials |= {u[0] for u in units}
        past = "|".join(rf"(?<=\b(?i:{re.escape(p)}) .)" for p in pack.past_prefixes) or "(?!)"
        future = "|".join(rf"(?<=\b(?i:{re.escape(p)}) .)" for p in pack.future_prefixes) or "(?!)"
        worded += [
            rf"(?P<relago>(?P<ra_n>[0-9]{{0,2}}+){_SPACE}(?P<ra_u>{_alt(units)}){_NOT_LETTER_AFTER}"
            rf"{_SPACE}{_alt(_any_case(pack.past_suffixes))}{_NOT_LETTER_AFTER})",
            rf"(?P<relpre>(?:(?P<rp_past>{past})|{future})(?P<rp_n>[0-9]{{0,2}}+){_SPACE}"
            rf"(?P<rp_u>{_alt(units)}){_NOT_LETTER_AFTER})",
        ]
    initials = "[" + re.escape("".join(sorted(word_initials))) + "]"
    worded_ahead = rf"(?=[0-9]{{0,2}}(?:st|nd|rd|th|er|\.)?{_SPACE}(?:of )?{initials})"
    families = (
        rf"(?<=[-#(+].)(?:{'|'.join(after_mark)})"
        rf"|(?=[0-9a-fA-F]{{6}})(?:{'|'.join(hexadecimal)})"
        rf"|{separated_ahead}(?:{'|'.join(separated)})"
        rf"|{worded_ahead}(?:{'|'.join(worded)})"
        rf"|{_lowercase_month_first(pack)}"
    )
    # A figure glued to a word nothing else reads ("abc12,345", "Rs12,345") is consumed whole, so
    # the scan never starts again inside it and reads its tail ("345") as a figure of its own. Only
    # a mark inside lets the scan start again, so a figure without one ("a1") costs no match; after
    # three capitals the figure branch decides ("USD2,500" is money, "ABC12,345" nothing).
    marks = re.escape("".join(sorted({".", ",", pack.decimal_separator, *pack.group_separators})))
    glued = rf"(?P<glued>(?=[0-9]*+[{marks}][0-9])(?<![A-Z]{{3}}.)(?:{_number_core(pack)})(?![0-9]))"
    after_letter = [  # "KX750", "a3f5c9d" (not "USD2,500": a currency code glued to a figure)
        rf"(?P<code>(?<=[A-Z].)(?:(?<=\b[A-Z]{{2}}.)|(?<=\b[A-Z]{{3}}.)|(?<=\b[A-Z]{{4}}.))(?<!{_alt(CURRENCY_CODES)}.)"
        r"[0-9]{2,7}+(?![\w]|[-.,/][0-9A-Za-z]))",
        rf"(?P<hexmid>(?<=[a-fA-F].)(?<!{_alt(CURRENCY_CODES)}.)[0-9a-fA-F]*+(?:-[0-9a-fA-F]++){{0,4}}+"
        r"(?![\w-]|[.,][0-9]))",
        r"(?P<vversion>(?<=[vV].)(?<![\w][vV].)[0-9]*+(?:\.[0-9]++){1,3}+"
        r"(?:-[0-9A-Za-z]++(?:\.[0-9A-Za-z]++)*+)?(?![\w]|\.[0-9]))",
        glued,
    ]
    table = suffix_table(pack)
    currencies = [word for word, meaning in table.items() if meaning.role == "currency"]
    end = r"(?![\w]|\.[0-9])" if pack.decimal_separator == "." else r"(?![\w]|[.,][0-9])"
    # A figure: not glued to a word ("A320") unless to a currency code ("USD2,500"), and not the
    # tail of a hyphenated name ("COVID-19"); a digit range ("10-15%") is fine.
    figure = (
        r"(?P<qty>(?:(?<![\w.].)|(?<=[A-Z]{3}.))(?<![^\W\d_][-–].)"
        rf"{_short_bare(pack, table, short)}(?P<q_core>{_number_core(pack)})"
        rf"(?:{_SPACE}?(?P<q_suf>{_alt(table)}){_NOT_LETTER_AFTER}"
        rf"(?:{_SPACE}?(?P<q_cur>{_alt(currencies)}){_NOT_LETTER_AFTER})?)?{end})"
    )
    # No match starts at a digit after a digit, so a long run that nothing above takes is one
    # match ("skip") instead of one failed attempt per digit.
    skip = r"(?P<skip>[0-9]{15,}+)"
    return rf"(?:(?<![\w].)(?:{families})|(?<=[^\W\d_].)(?:{'|'.join(after_letter)})|{figure}|{skip})"


@dataclass(frozen=True)
class Grammar:
    """Compiled patterns of one locale pack (with or without relative dates)."""

    master: re.Pattern[str]
    left_context: re.Pattern[str]
    suffixes: dict[str, Suffix]
    hedge_tails: tuple[str, ...]  # every spelling of every hedge, for a quick ``str.endswith`` test


def _left_context(pack: LocalePack) -> re.Pattern[str]:
    """What may stand left of a figure, matched on the reversed text before it.

    Group ``lead`` (sign, currency symbol or code, sign) belongs to the atom; ``hedge`` does not.
    """
    sign = r"[-−+](?![\w.])"
    symbols = "[" + re.escape("".join(CURRENCY_SYMBOLS)) + "]"
    prefixes = _alt(p[::-1] for p in DOLLAR_PREFIXES)
    codes = _alt(c[::-1] for c in CURRENCY_CODES)
    hedge_words = [h[::-1] for h in _any_case(pack.hedges) if h[-1].isalpha() or h.endswith(".")]
    hedge_signs = "".join(h for h in pack.hedges if not (h[-1].isalpha() or h.endswith(".")))
    return re.compile(
        rf"(?P<lead>(?P<s1>{sign})?"
        rf"(?:{_SPACE}?(?:(?P<sym>{symbols})(?P<symp>{prefixes})?|(?P<code>{codes}))(?![A-Za-z]))?"
        rf"(?P<s2>{sign})?)"
        rf"(?:{_SPACE}*(?P<hedge>{_alt(hedge_words)}{_NOT_LETTER_AFTER}|[{re.escape(hedge_signs)}]))?"
    )


@cache
def grammar_for(pack: LocalePack, anchored: bool, short: int = 0) -> Grammar:
    """The compiled grammar of ``pack``; relative-date branches only when ``anchored``; bare figures
    of fewer than ``short`` digits (at most 4) left out where the pattern can tell."""
    # Capitalised and upper-case names only: lower-case ones are found from their digits.
    month_first, month_rest = _initial_dispatch({s for w in pack.months for s in (w.capitalize(), w.upper())})
    after_letter = r"(?<![\w].)"
    branches = [
        f"(?<=[0-9]){_digit_branches(pack, anchored, short)}",
        rf"(?P<monthfirst>{after_letter}(?P<mf_w>{month_rest}){_NOT_LETTER_AFTER}\.?"
        rf"(?:{_SPACE}(?P<mf_d>[0-9]{{1,2}})(?:st|nd|rd|th|er)?(?![\w]|[.,:][0-9]|{_SPACE}?%)"
        rf"(?:{_DATE_COMMA}(?P<mf_y>[0-9]{{4}})(?![\w]|[.,][0-9]))?"
        rf"|{_DATE_COMMA}(?P<mf_yo>[0-9]{{4}})(?![\w]|[.,][0-9])))",
    ]
    initials = month_first
    if anchored:
        words = _any_case(pack.relative_days)
        words |= {w.replace("'", "’") for w in words}
        relative_first, relative_rest = _initial_dispatch(words)
        branches.append(rf"(?P<relword>{after_letter}(?P<rw_w>{relative_rest}){_NOT_LETTER_AFTER})")
        initials += relative_first
    first = "[0-9" + re.escape("".join(sorted(set(initials)))) + "]"
    master = re.compile(first + "(?:" + "|".join(branches) + ")")
    return Grammar(
        master=master,
        left_context=_left_context(pack),
        suffixes=suffix_table(pack),
        hedge_tails=tuple(sorted(_any_case(pack.hedges))),
    )
