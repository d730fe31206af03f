"""Calendar readings of date atoms: validation, numeric orders, two-digit years, relative days.

Two-digit years follow POSIX ``strptime``: 00-68 are 2000-2068, 69-99 are 1969-1999.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import get_args

from otel_groundedness.scoring.atoms import CalendarDate
from otel_groundedness.scoring.extract.locales import DateOrder

Reading = tuple[int | None, int | None, int | None]

_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_valid(year: int | None, month: int | None, day: int | None) -> bool:
    """Whether the components name a real date; a missing year allows 29 February."""
    if month is None:
        return day is None and year is not None
    if not 1 <= month <= 12:
        return False
    if day is None:
        return True
    if month == 2 and day == 29 and year is not None:
        return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= _DAYS_IN_MONTH[month - 1]


def full_year(written: str) -> int:
    """The year of a written year; two digits pivot at 69 like POSIX."""
    year = int(written)
    if len(written) == 2:
        year += 2000 if year < 69 else 1900
    return year


def numeric_readings(first: str, second: str, year: str, orders: Iterable[DateOrder]) -> CalendarDate | None:
    """Every valid reading of ``first/second/year`` under the given orders; when none is valid, the
    reading of another order (``15/04/2025`` in en-US: a day over 12 leaves no doubt); ``None``
    when no order reads a real date."""
    y, a, b = full_year(year), int(first), int(second)
    allowed = tuple(orders)
    others = tuple(order for order in get_args(DateOrder) if order not in allowed)
    readings = _readings(y, a, b, allowed) or _readings(y, a, b, others)
    return CalendarDate(readings) if readings else None


def _readings(year: int, a: int, b: int, orders: tuple[DateOrder, ...]) -> tuple[Reading, ...]:
    readings: list[Reading] = []
    for order in orders:
        month, day = (a, b) if order == "MDY" else (b, a)
        if is_valid(year, month, day) and (year, month, day) not in readings:
            readings.append((year, month, day))
    return tuple(readings)


def single(year: int | None, month: int | None, day: int | None) -> CalendarDate | None:
    """One reading, or ``None`` if it is not a real date."""
    return CalendarDate(((year, month, day),)) if is_valid(year, month, day) else None


def shifted(anchor: datetime.date, days: int) -> CalendarDate | None:
    """The day ``days`` after ``anchor`` (negative: before); ``None`` outside the calendar."""
    try:
        day = anchor + datetime.timedelta(days=days)
    except OverflowError:
        return None
    return CalendarDate(((day.year, day.month, day.day),))
