"""Deterministic groundedness scoring: ``score(answer, evidence)`` (the native engine) and its types."""

from otel_groundedness.scoring.engine import score
from otel_groundedness.scoring.evidence import Evidence
from otel_groundedness.scoring.policy import GroundednessPolicy, PolicyFileError
from otel_groundedness.scoring.results import AtomVerdict, Citation, GroundednessReport

__all__ = [
    "AtomVerdict",
    "Citation",
    "Evidence",
    "GroundednessPolicy",
    "GroundednessReport",
    "PolicyFileError",
    "score",
]
