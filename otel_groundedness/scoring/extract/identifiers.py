"""Identifier rules: e-mail and URL pre-pass, ticket-code checks, normalised forms.

Ticket codes are ``PREFIX-CODE`` with a 2-12 letter prefix (optionally followed by up to four
digits) and at least three digits in the code (``INV-2210``, ``ORD-2024-0042``; not ``SARS-CoV-2``).
A code of one or two digits is a ticket only behind a prefix of capital letters (the Jira key
``PROJ-12``, ``ORD-7``; not ``Phase-2``). ``NOT_TICKET_PREFIXES`` names well-known standards, models,
names and English prefixes whose codes are not ids (``ISO-8601``, ``SHA-256``, ``GPT-4``,
``COVID-19``, ``AK-47``, ``mid-2025``); a year after such a prefix still counts as a year.
``#4521`` is a ticket of three or more digits.
Glued codes are product, flight and model codes written without a separator: two to four
capital letters and three to eight digits (``KX750``, ``ZT9000``, ``AB1234``); they are tickets
whose hyphen was left out, so ``KX750`` and ``KX-750`` normalise alike. A currency code stays money
(``USD1000``), and a prefix of ``NOT_TICKET_PREFIXES`` (``SHA256``, ``FY2024``) or a year as the
digits (``CES2025``) is a name, not a code. Shorter digit runs are names and units (``MP3``,
``COVID19``, ``5G``), and so are single letters (``A320``, ``H264``).
Phones: every form is reduced to its digits; a North American number written with the ``+1`` or
``1-`` country/trunk prefix drops it, so ``+1 555 123 4567`` and ``(555) 123-4567`` both become
``5551234567``; any other ``+CC`` number keeps ``+`` and its country code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from otel_groundedness.scoring.atoms import Atom, Identifier

NOT_TICKET_PREFIXES: frozenset[str] = frozenset({
    "iso", "iec", "utf", "ieee", "ansi", "din", "rfc", "sha", "md", "aes", "rsa", "des", "crc",
    "covid", "sars", "mers", "gpt", "pep", "mid", "pre", "post", "non", "anti", "early", "late", "end",
    "by", "since", "from", "until", "circa", "year", "fy", "cy", "ak", "wd", "il", "ww",
})  # fmt: skip
TICKET_MIN_CODE_DIGITS = 3

_EMAIL_DOMAIN = re.compile(r"@([A-Za-z0-9](?:[A-Za-z0-9-]{0,62}+)(?:\.[A-Za-z0-9-]{1,63}+){1,8}+)")
_EMAIL_LOCAL_REVERSED = re.compile(r"[\w%+-](?:[\w.%+-]{0,63}+)")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"'`\x1e]++")
_URL_SCHEME = re.compile(r"(?i:https?://)")
_TRAILING_PUNCTUATION = ".,;:!?'\""
_CLOSERS = {")": "(", "]": "[", "}": "{"}
# Reversed text left of "-" in a ticket: optional digits then the letters of the prefix.
TICKET_PREFIX_REVERSED = re.compile(r"[0-9]{0,4}[A-Za-z]{2,12}(?![\w-])")
CODE_LETTERS_REVERSED = re.compile(r"[A-Z]{2,4}(?![\w])")
HEX_REVERSED = re.compile(r"[0-9a-fA-F]{1,128}(?![\w-])")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _identifier(text: str, start: int, end: int, normalized: str, shape: str) -> Atom:
    return Atom("identifier", text[start:end], start, end, Identifier(normalized, shape))


def emails(text: str) -> Iterator[Atom]:
    """E-mail addresses, found from their ``@`` (case-folded)."""
    for match in _EMAIL_DOMAIN.finditer(text):
        at = match.start()
        local = _EMAIL_LOCAL_REVERSED.match(text[max(0, at - 64) : at][::-1])
        if local is None:
            continue
        start = at - len(local.group().rstrip("."))
        if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._%+-"):
            continue  # the local part is longer than 64 characters: not an address
        end = match.end()
        if text[end - 1] == "-":
            continue
        yield _identifier(text, start, end, text[start:end].casefold(), "email")


def urls(text: str) -> Iterator[Atom]:
    """``http(s)://`` and ``www.`` URLs without trailing punctuation or an unbalanced closer."""
    for match in _URL.finditer(text):
        start, end = match.span()
        if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._-"):
            continue
        end = _trimmed_end(text, start, end)
        normalized = normalize_url(text[start:end])
        if normalized[:1].isalnum() and normalized != "www.":
            yield _identifier(text, start, end, normalized, "url")


def _trimmed_end(text: str, start: int, end: int) -> int:
    # Bracket counts are taken once and updated as closers are trimmed: recounting the URL for
    # each trimmed character would cost its length squared on a long run of ")".
    counts: dict[str, int] = {}
    while end > start:
        last = text[end - 1]
        if last in _CLOSERS:
            if not counts:
                counts = {char: text.count(char, start, end) for char in "()[]{}"}
            if counts[_CLOSERS[last]] >= counts[last]:
                break
            counts[last] -= 1
        elif last not in _TRAILING_PUNCTUATION:
            break
        end -= 1
    return end


def normalize_url(url: str) -> str:
    """Scheme dropped, host lower-cased, one trailing ``/`` dropped."""
    host, slash, path = _URL_SCHEME.sub("", url, count=1).removesuffix("/").partition("/")
    return host.lower() + slash + path


def ticket_prefix_start(text: str, dash: int, floor: int) -> int | None:
    """Start of the ticket prefix that ends at ``text[dash] == "-"``, or ``None`` (none, or it would
    reach back before ``floor``, into the previous atom)."""
    match = TICKET_PREFIX_REVERSED.match(text[max(0, dash - 17) : dash][::-1])
    return dash - match.end() if match and dash - match.end() >= floor else None


def is_short_ticket(prefix: str, code: str) -> bool:
    """Whether a code of fewer than ``TICKET_MIN_CODE_DIGITS`` digits is still a ticket: all digits,
    behind a prefix of capital letters only (``PROJ-12``), as project and order keys are written."""
    return code.isdigit() and prefix.isascii() and prefix.isalpha() and prefix.isupper()


def glued_code(text: str, digit_start: int, end: int, floor: int) -> tuple[int, str] | None:
    """(start, normalised form) of the glued code whose digits are ``text[digit_start:end]``, or
    ``None`` when its letters name something else or reach back before ``floor``."""
    match = CODE_LETTERS_REVERSED.match(text[max(0, digit_start - 5) : digit_start][::-1])
    if match is None or digit_start - match.end() < floor:
        return None
    letters, digits = match.group()[::-1], text[digit_start:end]
    if letters.lower() in NOT_TICKET_PREFIXES or (len(digits) == 4 and "1900" <= digits <= "2099"):
        return None
    return digit_start - match.end(), f"{letters}-{digits}"


def hex_token_start(text: str, start: int, floor: int) -> int | None:
    """Start of the hex token whose letters run left of ``start``, or ``None`` if glued to a word."""
    match = HEX_REVERSED.match(text[max(0, start - 129) : start][::-1])
    return start - match.end() if match and start - match.end() >= floor else None


def is_uuid(token: str) -> bool:
    return _UUID.fullmatch(token) is not None


def phone_digits(written: str) -> str | None:
    """Normalised phone number (see the module docstring), ``None`` if it cannot be one."""
    digits = "".join(ch for ch in written if ch.isdigit())
    international = written.startswith("+")
    if len(digits) == 11 and digits[0] == "1":
        return digits[1:]
    if international:
        return "+" + digits if 8 <= len(digits) <= 15 else None
    return digits if len(digits) == 10 else None
