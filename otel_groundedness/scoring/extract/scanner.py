"""The extraction pass: e-mails and URLs are claimed first, the gaps between them are scanned once
with the master pattern, and each match is turned into an atom by the handler of its branch."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Sequence
from typing import TypeAlias

from otel_groundedness.scoring.atoms import Atom, CalendarDate, Identifier
from otel_groundedness.scoring.extract import dates, identifiers, month_words, years
from otel_groundedness.scoring.extract.grammar import (
    CURRENCY_CODES,
    CURRENCY_SYMBOLS,
    DOLLAR_PREFIXES,
    LEAD_CHARS,
    Grammar,
)
from otel_groundedness.scoring.extract.locales import LocalePack
from otel_groundedness.scoring.extract.month_words import is_word_month, led_as_date
from otel_groundedness.scoring.extract.quantities import quantity

Match: TypeAlias = re.Match[str]
Found: TypeAlias = Atom | tuple[Atom, ...] | None

_LEFT_WINDOW = 32
_SPACES = " \u00a0\u202f"
_NEGATIVE = frozenset("-−")
_HEDGE_SIGNS = frozenset("~≈")
_NO_DIGITS = str.maketrans("", "", "0123456789")


class Scan:
    """One extraction over one text; ``floor`` is where the last atom ended (nothing reaches back
    past it)."""

    __slots__ = (
        "anchor",
        "floor",
        "grammar",
        "group_separator",
        "hedge_tails",
        "min_digits",
        "pack",
        "short",
        "strip_groups",
        "text",
    )

    def __init__(
        self, text: str, pack: LocalePack, grammar: Grammar, min_digits: int, anchor: datetime.date | None
    ) -> None:
        self.text = text
        self.pack = pack
        self.grammar = grammar
        self.min_digits = min_digits
        self.short = min(min_digits, 4)  # a bare figure with fewer characters is dropped unless led
        self.anchor = anchor
        self.floor = 0
        self.strip_groups = str.maketrans("", "", pack.group_separators)
        self.group_separator = pack.group_separators if len(pack.group_separators) == 1 else ""
        self.hedge_tails = grammar.hedge_tails

    def run(self) -> list[Atom]:
        text = self.text
        claims: Sequence[Atom] = ()
        if "@" in text or "://" in text or "www." in text:
            claims = _non_overlapping([*identifiers.urls(text), *identifiers.emails(text)])
        atoms: list[Atom] = []
        start = 0
        for claim in claims:
            self._scan(start, claim.start, atoms)
            atoms.append(claim)
            start = claim.end
        self._scan(start, len(text), atoms)
        return atoms

    def _scan(self, start: int, end: int, atoms: list[Atom]) -> None:
        self.floor = start
        for match in self.grammar.master.finditer(self.text, start, end):
            found = _HANDLERS[match.lastgroup or ""](self, match)
            if found is None:
                continue
            if isinstance(found, Atom):
                atoms.append(found)
                self.floor = found.end
            else:
                atoms.extend(found)
                self.floor = found[-1].end

    # Figures -------------------------------------------------------------------------------

    def quantity(self, m: Match) -> Found:
        """A money, percent or number atom (or a bare year); the hot path, kept to few calls."""
        text, floor = self.text, self.floor
        start, end = m.span()
        core_end = m.end("q_core")
        before = text[start - 1] if start > floor else "\n"
        two_before = text[start - 2] if start - 1 > floor else "\n"
        led = (
            before in LEAD_CHARS
            or before.isalpha()
            or (before in _SPACES and (two_before in LEAD_CHARS or two_before.isupper()))
        )
        if not led and core_end == end and core_end - start < self.short:
            # Fewer characters than the digit floor (so no year), nothing after, nothing before:
            # the rule below drops it. Decided before any parsing, because junk the grammar's
            # own guard lets through can hold thousands of these.
            return None
        int_digits, frac = self._split(text[start:core_end])
        suffix_word, currency_word = m.group("q_suf", "q_cur")
        suffix = self.grammar.suffixes[suffix_word] if suffix_word else None
        if suffix is not None and suffix.role == "glued_unit" and text[core_end] in _SPACES:
            suffix, end = None, core_end  # "5 s": single-letter units count only when glued
        is_year = (
            suffix is None
            and core_end - start == len(int_digits) == 4
            and int_digits <= "2099"
            and (int_digits >= "1900" or (int_digits >= "1000" and years.in_year_context(text, start, floor)))
        )
        if is_year and not led:
            return self._year(start, end)
        if suffix is None and not led and len(int_digits) + len(frac) < self.min_digits:
            return None
        lead, negative, hedged, currency = 0, False, False, None
        if (
            led
            or before in _HEDGE_SIGNS
            or (before in _SPACES and text.endswith(self.hedge_tails, max(0, start - 24), start - 1))
        ):
            context = self.grammar.left_context.match(text[max(0, start - _LEFT_WINDOW) : start][::-1])
            assert context is not None  # every part of the left-context pattern is optional
            lead, negative, hedged, currency = _read_left(context, start - floor)
            if before.isalpha() and currency is None:
                return None  # glued to a word that is not a currency code ("ABC1234")
        if currency_word:
            currency = currency or self.grammar.suffixes[currency_word].label
        exponent, unit, kind = 0, None, "number"
        if suffix is not None:
            role = suffix.role
            if role == "percent":
                kind, exponent, unit = "percent", suffix.exponent, suffix.label
            elif role == "currency":
                currency = currency or suffix.label
            elif role == "magnitude" or (role == "money_magnitude" and currency):
                exponent = suffix.exponent
            elif suffix.label is None:
                return None  # "$250MM" is money; "9MM" is no figure at all
            else:  # a unit, or a money-only magnitude without money: "10m" is ten metres
                unit = suffix.label
        if kind == "number":
            if currency:
                kind, unit = "money", None
            elif is_year and not negative:
                return self._year(start, end)
            elif not (exponent or unit) and len(int_digits) + len(frac) < self.min_digits:
                return None
        opening = start - lead - 2
        if text.startswith(" )", end) and opening >= floor and text.startswith("( ", opening):
            # "( 1,234 )": a tokenised accounting negative. Unspaced "(1,234)" stays an aside.
            negative, lead, end = True, lead + 2, end + 2
        atom_start = start - lead
        value = quantity(int_digits, frac, exponent, negative, hedged, currency, unit)
        return Atom(kind, text[atom_start:end], atom_start, end, value)  # type: ignore[arg-type]

    def _split(self, core: str) -> tuple[str, str]:
        """(integer digits, fraction digits) of a figure as written in the locale."""
        decimal = self.pack.decimal_separator
        head, separator, frac = core.partition(decimal)
        if not separator and decimal != ".":
            dotted_head, dot, tail = core.rpartition(".")
            if dot and len(tail) != 3:  # the grammar allows "." here only as a decimal point
                head, frac = dotted_head, tail
        if len(head) > 3:
            head = (
                head.replace(self.group_separator, "")
                if self.group_separator
                else head.translate(self.strip_groups)
            )
        return head, frac

    # Dates ---------------------------------------------------------------------------------

    def iso_date(self, m: Match) -> Found:
        start, end = m.span()
        calendar = dates.single(
            int(self.text[start : start + 4]), int(m.group("iso_m")), int(m.group("iso_d"))
        )
        return self._date(start, end, calendar)

    def iso_month(self, m: Match) -> Found:
        start, end = m.span()
        return self._date(
            start, end, dates.single(int(self.text[start : start + 4]), int(m.group("im_m")), None)
        )

    def year_range(self, m: Match) -> Found:
        """Two years ("1810–1865", "2007 -- 08"), an ISO year-month ("2025-01"), or else the first
        year alone ("2025-13")."""
        start, end = m.span()
        first = int(self.text[start : start + 4])
        written = m.group("y_end")
        month = years.iso_month(first, self.text[start + 4 : m.start("y_end")], written)
        if month is not None:
            return self._date(start, end, dates.single(first, month, None))
        last = years.range_end(first, written)
        if last is None:
            return self._year(start, start + 4)
        second = Atom("date", written, end - len(written), end, CalendarDate(((last, None, None),)))
        return self._year(start, start + 4), second

    def _year(self, start: int, end: int) -> Atom:
        year = self.text[start:end]
        return Atom("date", year, start, end, CalendarDate(((int(year), None, None),)))

    def numeric_date(self, m: Match) -> Found:
        start, end = m.span()
        first = self.text[start : m.end("nd_a")]
        calendar = dates.numeric_readings(first, m.group("nd_b"), m.group("nd_y"), self.pack.date_orders)
        return self._date(start, end, calendar)

    def day_month(self, m: Match) -> Found:
        start, end = m.span()
        year = m.group("dm_y")
        word_end = m.end("dm_d")
        bare = not year and not self.text[word_end : m.start("dm_w")].strip()  # no ordinal, no "of"
        if bare and is_word_month(m.group("dm_w")) and not led_as_date(self.text, start, self.floor, False):
            return None  # "up to 30 may attend"
        month = self.pack.months[m.group("dm_w").lower()]
        day = int(self.text[start:word_end])
        return self._date(start, end, dates.single(int(year) if year else None, month, day))

    def month_first(self, m: Match) -> Found:
        start, end = m.span()
        month = self.pack.months[self.text[start : m.end("mf_w")].lower()]
        day, year = m.group("mf_d"), m.group("mf_y") or m.group("mf_yo")
        calendar = dates.single(int(year) if year else None, month, int(day) if day else None)
        return self._date(start, end, calendar)

    def lowercase_month_first(self, m: Match) -> Found:
        """A lower-case month name written first, matched from the digit after it."""
        digit_start, end = m.span()
        start = month_words.name_start(self.text, digit_start - 1)
        if start < self.floor:
            return None
        word = self.text[start : digit_start - 1]
        if m.group("lm_yo") is not None:
            day, year = None, self.text[digit_start:end]
        else:
            day, year = self.text[digit_start : m.end("lm_d")], m.group("lm_y")
            bare = not year and m.end("lm_d") == end  # no ordinal either
            if bare and is_word_month(word) and not led_as_date(self.text, start, self.floor, True):
                return None  # "you may 30 days later"
        month = self.pack.months[word]
        return self._date(
            start, end, dates.single(int(year) if year else None, month, int(day) if day else None)
        )

    def relative_word(self, m: Match) -> Found:
        start, end = m.span()
        word = self.text[start:end].lower().replace("’", "'")
        return self._relative(start, end, self.pack.relative_days[word])

    def relative_ago(self, m: Match) -> Found:
        start, end = m.span()
        count = int(self.text[start : m.end("ra_n")])
        return self._relative(start, end, -count * self.pack.day_units[m.group("ra_u").lower()])

    def relative_prefixed(self, m: Match) -> Found:
        start, end = m.span()
        count = int(self.text[start : m.end("rp_n")])
        past = m.group("rp_past") is not None
        days = count * self.pack.day_units[m.group("rp_u").lower()]
        before = self.text[max(0, start - 8) : start - 1].lower()
        prefixes = self.pack.past_prefixes if past else self.pack.future_prefixes
        prefix = next((p for p in prefixes if before.endswith(p)), "")
        return self._relative(start - len(prefix) - 1 if prefix else start, end, -days if past else days)

    def _relative(self, start: int, end: int, days: int) -> Found:
        assert self.anchor is not None  # relative branches exist only in anchored grammars
        return self._date(start, end, dates.shifted(self.anchor, days))

    def _date(self, start: int, end: int, calendar: CalendarDate | None) -> Found:
        return None if calendar is None else Atom("date", self.text[start:end], start, end, calendar)

    # Identifiers ---------------------------------------------------------------------------

    def _identifier(self, start: int, end: int, normalized: str, shape: str) -> Atom:
        return Atom("identifier", self.text[start:end], start, end, Identifier(normalized, shape))

    def skip(self, m: Match) -> Found:
        """A digit run too long for any atom, or a figure glued to a word: nothing to read in it."""
        return None

    def uuid(self, m: Match) -> Found:
        start, end = m.span()
        return self._identifier(start, end, self.text[start:end].lower(), "uuid")

    def hex_word(self, m: Match) -> Found:
        start, end = m.span()
        return self._identifier(start, end, self.text[start:end].lower(), "hash")

    def hex_inside(self, m: Match) -> Found:
        """A hex token whose leading letters the scan skipped ("a3f5c9d", "f47ac10b-58cc-...")."""
        digit_start, end = m.span()
        start = identifiers.hex_token_start(self.text, digit_start, self.floor)
        if start is None:
            return None
        token = self.text[start:end].lower()
        if "-" in token:
            return self._identifier(start, end, token, "uuid") if identifiers.is_uuid(token) else None
        return self._identifier(start, end, token, "hash") if len(token) >= 7 else None

    def ticket(self, m: Match) -> Found:
        code_start, end = m.span()
        text = self.text
        start = identifiers.ticket_prefix_start(text, code_start - 1, self.floor)
        if start is None:
            return None
        prefix, code = text[start : code_start - 1], text[code_start:end]
        if prefix.rstrip("0123456789").lower() in identifiers.NOT_TICKET_PREFIXES:
            is_year = len(code) == 4 and code.isdigit() and "1900" <= code <= "2099"
            return self._year(code_start, end) if is_year else None
        digits = len(code) if code.isdigit() else len(code) - len(code.translate(_NO_DIGITS))
        if digits < identifiers.TICKET_MIN_CODE_DIGITS and not identifiers.is_short_ticket(prefix, code):
            return None
        return self._identifier(start, end, f"{prefix}-{code}".upper(), "ticket")

    def code(self, m: Match) -> Found:
        digit_start, end = m.span()
        found = identifiers.glued_code(self.text, digit_start, end, self.floor)
        return None if found is None else self._identifier(found[0], end, found[1], "ticket")

    def hashtag(self, m: Match) -> Found:
        start, end = m.span()
        return self._identifier(start - 1, end, self.text[start - 1 : end], "ticket")

    def v_version(self, m: Match) -> Found:
        start, end = m.span()
        return self._identifier(start - 1, end, self.text[start:end].lower(), "version")

    def version(self, m: Match) -> Found:
        start, end = m.span()
        return self._identifier(start, end, self.text[start:end].lower(), "version")

    def ip(self, m: Match) -> Found:
        start, end = m.span()
        octets = [int(part) for part in self.text[start:end].split(".")]
        if max(octets) > 255:
            return None
        return self._identifier(start, end, ".".join(map(str, octets)), "ip")

    def phone(self, m: Match) -> Found:
        return self._phone(*m.span())

    def phone_paren(self, m: Match) -> Found:
        start, end = m.span()
        return self._phone(start - 1, end)

    def phone_international(self, m: Match) -> Found:
        start, end = m.span()
        return self._phone(start - 1, end)

    def _phone(self, start: int, end: int) -> Found:
        digits = identifiers.phone_digits(self.text[start:end])
        return None if digits is None else self._identifier(start, end, digits, "phone")


def _read_left(context: re.Match[str], room: int) -> tuple[int, bool, bool, str | None]:
    """(length of the lead that belongs to the atom, negative, hedged, currency) of a left context;
    nothing that reaches back more than ``room`` characters (into the previous atom) counts."""
    lead = context.end("lead")
    hedged = context.group("hedge") is not None and context.end() <= room
    if lead > room:
        return 0, False, hedged, None
    symbol, code = context.group("sym", "code")
    if code:
        currency: str | None = CURRENCY_CODES[code[::-1]]
    elif symbol is None:
        currency = None
    else:
        prefix = context.group("symp")
        currency = DOLLAR_PREFIXES[prefix[::-1]] if prefix and symbol == "$" else CURRENCY_SYMBOLS[symbol]
    negative = bool(_NEGATIVE.intersection(context.group("s1", "s2")))
    return lead, negative, hedged, currency


def _non_overlapping(claims: list[Atom]) -> list[Atom]:
    kept: list[Atom] = []
    for atom in sorted(claims, key=lambda a: (a.start, -a.end)):
        if not kept or atom.start >= kept[-1].end:
            kept.append(atom)
    return kept


_HANDLERS: dict[str, Callable[[Scan, Match], Found]] = {
    "qty": Scan.quantity,
    "skip": Scan.skip,
    "glued": Scan.skip,
    "uuid": Scan.uuid,
    "code": Scan.code,
    "hexmid": Scan.hex_inside,
    "hexword": Scan.hex_word,
    "ticket": Scan.ticket,
    "hashtag": Scan.hashtag,
    "vversion": Scan.v_version,
    "version": Scan.version,
    "phoneparen": Scan.phone_paren,
    "phoneintl": Scan.phone_international,
    "phone": Scan.phone,
    "ip": Scan.ip,
    "iso": Scan.iso_date,
    "years": Scan.year_range,
    "isomonth": Scan.iso_month,
    "numdate": Scan.numeric_date,
    "daymonth": Scan.day_month,
    "monthfirst": Scan.month_first,
    "lowmonth": Scan.lowercase_month_first,
    "relword": Scan.relative_word,
    "relago": Scan.relative_ago,
    "relpre": Scan.relative_prefixed,
}
