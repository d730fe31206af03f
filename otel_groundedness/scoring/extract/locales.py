"""Locale packs: the words and separators extraction reads in each supported locale.

English words (month names, magnitudes, percent words, hedges) are understood in every locale
because tool outputs are usually English; a pack adds its own language on top.

Numeric date orders: ``en-US`` reads ``03/04/2025`` as month/day only; ``en-GB``, ``de-DE`` and
``fr-FR`` read it as day/month only. A pack may list several orders (an atom then carries every
reading that is a real calendar date); none of the shipped packs needs to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

DateOrder = Literal["MDY", "DMY"]


def _frozen(mapping: dict[str, int]) -> Mapping[str, int]:
    return MappingProxyType(mapping)


@dataclass(frozen=True, eq=False)  # packs are singletons: identity hashing keeps them cacheable
class LocalePack:
    """Everything locale-specific. Word maps are lower-case; words match in lower, capitalised and
    upper case (``mars``, ``March``, ``MAY``; see ``month_words`` for "may" and "march")."""

    name: str
    group_separators: str  # characters that group thousands: "," / "." / spaces
    decimal_separator: str
    dotted_decimal_fallback: bool  # read "1234.5" as a decimal although "." is not the separator
    date_orders: tuple[DateOrder, ...]
    numeric_date_separators: str
    months: Mapping[str, int]
    magnitudes: Mapping[str, int]  # word -> power of ten, matched case-insensitively
    percent_words: Mapping[str, str]  # word -> "%", "pp" or "bp"
    hedges: tuple[str, ...]
    relative_days: Mapping[str, int] = field(default_factory=lambda: _frozen({}))
    day_units: Mapping[str, int] = field(default_factory=lambda: _frozen({}))  # word -> days
    past_suffixes: tuple[str, ...] = ()  # "3 days ago"
    past_prefixes: tuple[str, ...] = ()  # "vor 3 Tagen", "il y a 3 jours"
    future_prefixes: tuple[str, ...] = ()  # "in 3 days", "dans 3 jours"


ENGLISH_MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12,
    "dec": 12,
}  # fmt: skip
GERMAN_MONTHS: dict[str, int] = {
    "januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "mär": 3, "mrz": 3, "mai": 5,
    "juni": 6, "juli": 7, "oktober": 10, "okt": 10, "dezember": 12, "dez": 12,
}  # fmt: skip
GERMAN_MAGNITUDES: dict[str, int] = {
    "tsd": 3, "tsd.": 3, "mio": 6, "mio.": 6, "millionen": 6, "mrd": 9, "mrd.": 9, "milliarde": 9,
    "milliarden": 9,
}  # fmt: skip
FRENCH_MONTHS: dict[str, int] = {
    "janvier": 1, "janv": 1, "février": 2, "fevrier": 2, "févr": 2, "fevr": 2, "mars": 3,
    "avril": 4, "avr": 4, "mai": 5, "juin": 6, "juillet": 7, "juil": 7, "août": 8, "aout": 8,
    "septembre": 9, "octobre": 10, "novembre": 11, "décembre": 12, "decembre": 12, "déc": 12,
}  # fmt: skip

ENGLISH_MAGNITUDES: dict[str, int] = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}
ENGLISH_PERCENT: dict[str, str] = {
    "%": "%", "percent": "%", "per cent": "%", "pct": "%",
    "percentage points": "pp", "percentage point": "pp", "pp": "pp", "ppt": "pp", "ppts": "pp",
    "pts": "pp", "basis points": "bp", "basis point": "bp", "bps": "bp", "bp": "bp",
}  # fmt: skip
ENGLISH_HEDGES: tuple[str, ...] = (
    "about", "around", "approximately", "approx.", "approx", "roughly", "nearly", "almost", "some",
    "circa", "ca.", "close to", "an estimated", "estimated", "~", "≈",
)  # fmt: skip
ENGLISH_RELATIVE: dict[str, int] = {"today": 0, "yesterday": -1, "tomorrow": 1}
ENGLISH_DAY_UNITS: dict[str, int] = {"day": 1, "days": 1, "week": 7, "weeks": 7}


def _pack(
    name: str,
    *,
    groups: str,
    decimal: str,
    orders: tuple[DateOrder, ...],
    date_separators: str,
    months: dict[str, int] | None = None,
    magnitudes: dict[str, int] | None = None,
    percent_words: dict[str, str] | None = None,
    hedges: tuple[str, ...] = (),
    relative_days: dict[str, int] | None = None,
    day_units: dict[str, int] | None = None,
    past_prefixes: tuple[str, ...] = (),
    future_prefixes: tuple[str, ...] = (),
) -> LocalePack:
    return LocalePack(
        name=name,
        group_separators=groups,
        decimal_separator=decimal,
        dotted_decimal_fallback=decimal != ".",
        date_orders=orders,
        numeric_date_separators=date_separators,
        months=_frozen({**ENGLISH_MONTHS, **(months or {})}),
        magnitudes=_frozen({**ENGLISH_MAGNITUDES, **(magnitudes or {})}),
        percent_words=MappingProxyType({**ENGLISH_PERCENT, **(percent_words or {})}),
        hedges=ENGLISH_HEDGES + hedges,
        relative_days=_frozen({**ENGLISH_RELATIVE, **(relative_days or {})}),
        day_units=_frozen({**ENGLISH_DAY_UNITS, **(day_units or {})}),
        past_suffixes=("ago",),
        past_prefixes=past_prefixes,
        future_prefixes=("in", *future_prefixes),
    )


_SPACES = " \u00a0\u202f"

PACKS: Mapping[str, LocalePack] = MappingProxyType(
    {
        "en-US": _pack("en-US", groups=",", decimal=".", orders=("MDY",), date_separators="/-"),
        "en-GB": _pack("en-GB", groups=",", decimal=".", orders=("DMY",), date_separators="/-."),
        "de-DE": _pack(
            "de-DE",
            groups=".",
            decimal=",",
            orders=("DMY",),
            date_separators="./",
            months=GERMAN_MONTHS,
            magnitudes=GERMAN_MAGNITUDES,
            percent_words={"prozent": "%", "prozentpunkte": "pp", "prozentpunkt": "pp", "basispunkte": "bp"},
            hedges=("etwa", "rund", "ungefähr", "circa", "knapp", "annähernd", "fast"),
            relative_days={"heute": 0, "gestern": -1, "morgen": 1},
            day_units={"tag": 1, "tage": 1, "tagen": 1, "woche": 7, "wochen": 7},
            past_prefixes=("vor",),
        ),
        "fr-FR": _pack(
            "fr-FR",
            groups=_SPACES,
            decimal=",",
            orders=("DMY",),
            date_separators="/.-",
            months=FRENCH_MONTHS,
            magnitudes={"mille": 3, "millions": 6, "milliard": 9, "milliards": 9, "md": 9, "mds": 9},
            percent_words={
                "pour cent": "%",
                "points de pourcentage": "pp",
                "point de pourcentage": "pp",
                "points de base": "bp",
                "pb": "bp",
            },
            hedges=("environ", "près de", "presque", "quelque", "à peu près", "autour de", "env."),
            relative_days={"aujourd'hui": 0, "hier": -1, "demain": 1},
            day_units={"jour": 1, "jours": 1, "semaine": 7, "semaines": 7},
            past_prefixes=("il y a",),
            future_prefixes=("dans",),
        ),
    }
)

SUPPORTED_LOCALES: tuple[str, ...] = tuple(PACKS)


def pack_for(locale: str) -> LocalePack:
    """The pack for ``locale``; an unknown locale is a ``ValueError`` naming the supported ones."""
    try:
        return PACKS[locale]
    except (KeyError, TypeError):
        raise ValueError(
            f"unsupported locale {locale!r}; supported: {', '.join(SUPPORTED_LOCALES)}"
        ) from None
