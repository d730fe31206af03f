"""Hard facts the scripted answers state, and the ways an answer writes them down.

A ``Fact`` keeps its true value and a rendering style, so a fault or a legitimate rewrite can
change the value or the style and re-render the text the way a model would.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal, TypeAlias

FactKind: TypeAlias = Literal["money", "number", "percent", "date", "identifier"]
Style: TypeAlias = Literal[
    "money_cents",  # $1,243,500.00
    "money_whole",  # $1,243,500 (only for whole amounts)
    "money_code",  # USD 1,243,500.00
    "money_rounded_whole",  # $48,214 (cents rounded away)
    "money_millions",  # $1.24 million (three significant digits)
    "number_grouped",  # 18,432,907
    "number_millions",  # 18.4 million
    "percent",  # 1.53% (value stored in percent units)
    "date_long",  # March 3, 2025
    "date_day_month",  # 3 March 2025
    "date_iso",  # 2025-03-03
    "identifier",  # INV-2210
]

_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of an answer: its kind, its value and how the answer spells it."""

    kind: FactKind
    value: Decimal | dt.date | str
    style: Style

    @property
    def text(self) -> str:
        """The fact as it appears in the answer."""
        return render(self.value, self.style)

    def with_value(self, value: Decimal | dt.date | str) -> Fact:
        """The same fact, same style, stating another value."""
        return replace(self, value=value)

    def with_style(self, style: Style) -> Fact:
        """The same value written another way."""
        return replace(self, style=style)


def render(value: Decimal | dt.date | str, style: Style) -> str:
    """Write ``value`` in ``style``."""
    if isinstance(value, dt.date):
        return _render_date(value, style)
    if isinstance(value, Decimal):
        return _render_decimal(value, style)
    return value


def _render_date(value: dt.date, style: Style) -> str:
    month = _MONTHS[value.month - 1]
    if style == "date_long":
        return f"{month} {value.day}, {value.year}"
    if style == "date_day_month":
        return f"{value.day} {month} {value.year}"
    if style == "date_iso":
        return value.isoformat()
    raise ValueError(f"style {style!r} does not apply to a date")


def _render_decimal(value: Decimal, style: Style) -> str:
    if style == "money_cents":
        return f"${value:,.2f}"
    if style == "money_whole":
        return f"${value:,.0f}"
    if style == "money_code":
        return f"USD {value:,.2f}"
    if style == "money_rounded_whole":
        return f"${value.quantize(Decimal(1), rounding=ROUND_HALF_UP):,.0f}"
    if style == "money_millions":
        return f"${three_significant(value / Decimal(1_000_000))} million"
    if style == "number_grouped":
        return f"{value:,.0f}"
    if style == "number_millions":
        return f"{three_significant(value / Decimal(1_000_000))} million"
    if style == "percent":
        return f"{value.normalize():f}%"
    raise ValueError(f"style {style!r} does not apply to a number")


def three_significant(value: Decimal) -> str:
    """``value`` rounded half-up to three significant digits, written without exponent."""
    exponent = value.adjusted() - 2
    rounded = value.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_UP)
    return f"{rounded:f}" if exponent < 0 else f"{rounded:.0f}"
