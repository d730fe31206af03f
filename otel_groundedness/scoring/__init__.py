"""Deterministic groundedness scoring (stdlib only): ``score(answer, evidence)`` and its types."""

from otel_groundedness.scoring.evidence import Evidence
from otel_groundedness.scoring.policy import GroundednessPolicy, PolicyFileError
from otel_groundedness.scoring.results import AtomVerdict, Citation, GroundednessReport
from otel_groundedness.scoring.scorer import score

__all__ = [
    "AtomVerdict",
    "Citation",
    "Evidence",
    "GroundednessPolicy",
    "GroundednessReport",
    "PolicyFileError",
    "score",
]
