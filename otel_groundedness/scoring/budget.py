"""The per-call work budget of ``score()``.

Every lookup reads a bounded number of evidence candidates, so judging one atom is bounded; but an
answer holds up to thousands of atoms, and each near miss runs the digit-relation, magnitude and
near-identifier searches. The budget counts that work in units weighted to cost about the same
(roughly a microsecond of CPU each): ``ATOM`` per atom judged (its context, verdict and citation),
``CANDIDATE`` per evidence value, date or identifier a lookup reads (the caller tests each), and
``PROBE`` per bisection, digit-variant window or identifier variant. The scorer starts no atom
once it is spent; the atom in flight finishes (its work is bounded), so every verdict given is
the one an unlimited call gives, and the rest get none.

The derivation search is the exception to "the atom in flight finishes": building its operand
families reads every evidence figure once per call, work that grows with the evidence rather than
with the atom. It ``pay``s before each step instead, and when the budget cannot cover one the atom
in flight gets no verdict either (``BudgetSpent``).
"""

from __future__ import annotations

ATOM = 10
CANDIDATE = 5
PROBE = 1


class BudgetSpent(Exception):
    """Work the budget cannot pay for was about to start: the atom being judged gets no verdict."""


class WorkBudget:
    """Units of lookup work left in one call; lookups charge ``left`` directly (hot paths)."""

    __slots__ = ("left",)

    def __init__(self, units: int) -> None:
        self.left = units

    @property
    def spent(self) -> bool:
        return self.left <= 0

    def pay(self, units: int) -> None:
        """Take ``units`` for work about to start, or raise ``BudgetSpent`` (taking nothing) when
        fewer are left: a search cut short half-way could not give the verdict an unlimited call gives."""
        if units > self.left:
            raise BudgetSpent
        self.left -= units
