"""Who scored a turn: the evaluator's id, version and type, and a fingerprint of its policy.

A moved score has two causes, the answers or the scorer; these four values on every result tell
them apart. The fingerprint is a hash of the policy's canonical JSON (every setting, sorted keys),
so it is the same in every process and Python version for the same settings. Stdlib only.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from typing import Any

from otel_groundedness.scoring import GroundednessPolicy

EVALUATOR_ID = "otel-groundedness"
EVALUATOR_TYPE = "deterministic"
_DISTRIBUTION = "otel-groundedness"
_FINGERPRINT_HEX_CHARS = 12


@dataclass(frozen=True, slots=True)
class Evaluator:
    """The provenance stamped on every result."""

    id: str
    version: str
    type: str
    policy_fingerprint: str


@lru_cache(maxsize=1)
def evaluator_version() -> str:
    """The installed package's version; ``0+unknown`` when running from a bare source tree."""
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


def _canonical(value: Any) -> Any:
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, tuple | list | frozenset | set):
        items = [_canonical(item) for item in value]
        return sorted(items, key=repr) if isinstance(value, frozenset | set) else items
    return value


def policy_fingerprint(policy: GroundednessPolicy) -> str:
    """Twelve hex characters of the SHA-256 of the policy's canonical JSON."""
    settings = {field.name: _canonical(getattr(policy, field.name)) for field in dataclasses.fields(policy)}
    canonical = json.dumps(
        settings, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()[:_FINGERPRINT_HEX_CHARS]


@lru_cache(maxsize=16)  # every scored trace asks (one core per trace); a policy is frozen and hashable
def describe(policy: GroundednessPolicy) -> Evaluator:
    """The provenance of results scored with ``policy`` by this installation."""
    return Evaluator(EVALUATOR_ID, evaluator_version(), EVALUATOR_TYPE, policy_fingerprint(policy))
