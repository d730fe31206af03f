"""``Derivation``: how an answer figure was computed from evidence figures, and its citation."""

from __future__ import annotations

from dataclasses import dataclass

from otel_groundedness.scoring.index import Hit
from otel_groundedness.scoring.results import Citation, DerivedOperation, Reason, derivation_formula

DERIVED_REASONS: dict[DerivedOperation, Reason] = {
    "sum": "derived_sum",
    "difference": "derived_difference",
    "pct_change": "derived_pct_change",
    "ratio": "derived_ratio",
    "average": "derived_average",
    "product": "derived_product",
    "pp_difference": "derived_pp_difference",
}


@dataclass(frozen=True, slots=True)
class Derivation:
    """``operation`` over ``operands`` (in formula order: minuend, numerator, the newer value of a
    change first) gives ``value``, which the answer states at its precision."""

    operation: DerivedOperation
    operands: tuple[Hit, ...]
    value: float

    @property
    def reason(self) -> Reason:
        return DERIVED_REASONS[self.operation]

    def citation(self) -> Citation:
        """Every operand's own citation under one naming the operation; its item fields are the
        first operand's and its text the computation over the operands' texts."""
        cited = tuple(operand.citation() for operand in self.operands)
        first = cited[0]
        return Citation(
            evidence_index=first.evidence_index,
            source_id=first.source_id,
            source_kind=first.source_kind,
            name=first.name,
            path=None,
            start=None,
            end=None,
            text=derivation_formula(self.operation, [operand.text for operand in cited]),
            operation=self.operation,
            operands=cited,
        )
