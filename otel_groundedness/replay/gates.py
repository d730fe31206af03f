"""Release gates over replayed turns: a floor on the mean score, a cap on contradicted atoms."""

from __future__ import annotations

from dataclasses import dataclass

from otel_groundedness.replay.summary import Totals


@dataclass(frozen=True, slots=True)
class GateOutcome:
    """Whether the gates passed, with one line per gate that was checked."""

    passed: bool
    lines: tuple[str, ...]


def check_gates(totals: Totals, *, fail_under: float | None, max_contradicted: int | None) -> GateOutcome:
    """``fail_under``: the mean score of scored turns must be >= it (no scored turn fails the gate).
    ``max_contradicted``: contradicted atoms over all turns must be <= it."""
    lines: list[str] = []
    passed = True
    if fail_under is not None:
        mean = totals.mean_score
        if mean is None:
            passed = False
            lines.append(f"FAIL mean score: no scored turns (required >= {fail_under:.3f})")
        else:
            ok = mean >= fail_under
            passed = passed and ok
            lines.append(f"{'PASS' if ok else 'FAIL'} mean score {mean:.3f} (required >= {fail_under:.3f})")
    if max_contradicted is not None:
        ok = totals.contradicted <= max_contradicted
        passed = passed and ok
        verdict = "PASS" if ok else "FAIL"
        lines.append(f"{verdict} contradicted atoms {totals.contradicted} (allowed <= {max_contradicted})")
    return GateOutcome(passed, tuple(lines))
