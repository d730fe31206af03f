"""Release gates over replayed turns: absolute ones (a floor on the mean score, a cap on contradicted
atoms) and ones against a baseline report (regressed turns, the mean score drop, new contradictions)."""

from __future__ import annotations

from dataclasses import dataclass

from otel_groundedness.replay.diff import DiffTotals
from otel_groundedness.replay.summary import Totals


@dataclass(frozen=True, slots=True)
class GateLimits:
    """The requested gates; ``None`` is a gate not checked. The last three compare with a baseline."""

    fail_under: float | None = None
    max_contradicted: int | None = None
    max_regressed: int | None = None
    max_score_drop: float | None = None
    max_new_contradicted: int | None = None

    def baseline_gates(self) -> list[str]:
        """The options of the requested gates that need a baseline."""
        options = {
            "--max-regressed": self.max_regressed,
            "--max-score-drop": self.max_score_drop,
            "--max-new-contradicted": self.max_new_contradicted,
        }
        return [option for option, limit in options.items() if limit is not None]


@dataclass(frozen=True, slots=True)
class GateOutcome:
    """Whether the gates passed, with one line per gate that was checked."""

    passed: bool
    lines: tuple[str, ...]


def check_gates(totals: Totals, limits: GateLimits, diff: DiffTotals | None = None) -> GateOutcome:
    """``fail_under``: the mean score of scored turns must be >= it (no scored turn fails the gate).
    ``max_contradicted``: contradicted atoms over all turns must be <= it. With ``diff``:
    ``max_regressed`` caps turns whose score fell, ``max_score_drop`` the mean fall over turns scored
    in both runs (none fails the gate), ``max_new_contradicted`` atoms contradicted now and not before."""
    if diff is None and limits.baseline_gates():
        raise ValueError(f"{', '.join(limits.baseline_gates())} need a baseline")
    checks: list[tuple[bool, str]] = []
    if limits.fail_under is not None:
        floor = limits.fail_under
        mean = totals.mean_score
        if mean is None:
            checks.append((False, f"mean score: no scored turns (required >= {floor:.3f})"))
        else:
            checks.append((mean >= floor, f"mean score {mean:.3f} (required >= {floor:.3f})"))
    if limits.max_contradicted is not None:
        checks.append(_at_most("contradicted atoms", totals.contradicted, limits.max_contradicted))
    if diff is not None and limits.max_regressed is not None:
        checks.append(_at_most("regressed turns", diff.regressed, limits.max_regressed))
    if diff is not None and limits.max_score_drop is not None:
        cap, drop = limits.max_score_drop, diff.mean_score_drop
        if drop is None:
            checks.append((False, f"mean score drop: no turn scored in both runs (allowed <= {cap:.3f})"))
        else:
            over = f"over {diff.scored_in_both} turns scored in both runs"
            checks.append((drop <= cap, f"mean score drop {drop:.3f} {over} (allowed <= {cap:.3f})"))
    if diff is not None and limits.max_new_contradicted is not None:
        checks.append(_at_most("new contradicted atoms", diff.new_contradicted, limits.max_new_contradicted))
    return GateOutcome(
        all(ok for ok, _ in checks), tuple(f"{'PASS' if ok else 'FAIL'} {text}" for ok, text in checks)
    )


def _at_most(what: str, count: int, limit: int) -> tuple[bool, str]:
    return count <= limit, f"{what} {count} (allowed <= {limit})"
