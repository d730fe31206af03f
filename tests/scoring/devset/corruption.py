"""The one-digit corruption of an answer figure, drawn so that the evidence cannot support it.

A corrupted figure must be genuinely unsupported or contradicted: it is re-drawn while its value,
at the precision it is written with, equals any cell or printed number of the evidence, or any
simple value derived from them (sums, differences, averages, ratios, percentages and percentage
changes of two; sums and averages of three or more along a row, of three down a column).
"""

from __future__ import annotations

import bisect
import itertools
import random
import re
from collections.abc import Sequence
from decimal import Decimal

NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
# A minus or an opening parenthesis is a sign only after a delimiter (not inside "2025-01").
SIGNED = re.compile(r"(?:(?<=[\s\"'>|,\[$€£¥:=/])|^)([-(])?(?<![\d.])(\d[\d,]*(?:\.\d+)?)")
Grid = Sequence[Sequence[float | None]]  # one table's rows (metrics) by columns (periods)


def figure_number(figure: str) -> tuple[Decimal, int]:
    """The figure's number as written (no sign, no scale) and how many decimals it states."""
    found = NUMBER.search(figure)
    assert found is not None, figure
    text = found.group().replace(",", "")
    return Decimal(text), len(text.split(".")[1]) if "." in text else 0


def half_unit(number: Decimal, decimals: int) -> Decimal:
    """Half a unit of the figure's last stated digit; trailing zeros of an integer state less."""
    if decimals:
        return Decimal(1).scaleb(-decimals) / 2
    digits = str(abs(int(number)))
    zeros = len(digits) - len(digits.rstrip("0")) if number else 0
    return Decimal(10) ** zeros / 2


def printed_numbers(text: str) -> list[float]:
    """Every number of the text, negative after a minus or in parentheses ("(4,066)"); "680,595"
    is read both as one number and, as the unquoted fields of a CSV line, as two."""
    out = []
    for found in SIGNED.finditer(text):
        sign = -1.0 if found.group(1) else 1.0
        number = found.group(2)
        out.append(sign * float(number.replace(",", "")))
        if "," in number:
            out += [float(piece) for piece in number.split(",") if piece]
    return out


def simple_values(grids: Sequence[Grid], printed: Sequence[float], group_limit: int = 8) -> list[float]:
    """Sorted magnitudes of every number and of the simple values derived from them; sums and
    averages of up to ``group_limit`` figures of a row or column (of any printed numbers when no
    grid is known)."""
    numbers = [v for grid in grids for row in grid for v in row if v is not None] + list(printed)
    out = {abs(v) for v in numbers}
    out.update([v / 100 for v in out])
    for a, b in itertools.permutations(set(numbers), 2):
        out.update((abs(a + b), abs(a - b), abs(a + b) / 2))
        if b:
            out.update((abs(a / b), abs(a / b * 100), abs((a - b) / b * 100)))
    lines: list[list[float]] = []
    for grid in grids:
        lines += [[v for v in row if v is not None] for row in grid]
        lines += [[v for v in column if v is not None] for column in itertools.zip_longest(*grid)]
    if not grids:  # no known structure: every three printed numbers
        lines = [list(printed)]
    for line in lines:
        for size in range(3, min(len(line), group_limit) + 1):
            for group in itertools.combinations(line, size):
                out.update((abs(sum(group)), abs(sum(group) / size)))
    return sorted(out)


def corrupt(
    figure: str, candidates: list[float], rng: random.Random, factor: Decimal = Decimal(1)
) -> str | None:
    """One digit of ``figure`` changed, such that no candidate value reads as it at its precision
    (``factor`` takes the figure's number to the candidates' units: 1000 for "$1.46 billion"
    against cells in millions)."""
    found = NUMBER.search(figure)
    assert found is not None
    positions = [i for i in range(found.start(), found.end()) if figure[i].isdigit()]
    options = [(i, d) for i in positions for d in "0123456789" if d != figure[i]]
    rng.shuffle(options)
    for i, digit in options:
        if i == positions[0] and digit == "0":
            continue
        changed = figure[:i] + digit + figure[i + 1 :]
        if not supported_by(changed, candidates, factor):
            return changed
    return None


def supported_by(figure: str, candidates: list[float], factor: Decimal = Decimal(1)) -> bool:
    """Some candidate is the figure's value at its precision."""
    number, decimals = figure_number(figure)
    target = float(number * factor)
    tolerance = float(half_unit(number, decimals) * factor) + 1e-9
    lo = bisect.bisect_left(candidates, target - tolerance)
    return lo < len(candidates) and candidates[lo] <= target + tolerance
