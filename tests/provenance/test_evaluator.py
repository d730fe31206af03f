"""Provenance: the policy fingerprint is stable across processes and Python versions, and moves
with every setting."""

from __future__ import annotations

import dataclasses
import datetime
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from otel_groundedness.evaluator import EVALUATOR_ID, EVALUATOR_TYPE, describe, policy_fingerprint
from otel_groundedness.scoring import GroundednessPolicy

ROOT = Path(__file__).resolve().parents[2]
PRINT_FINGERPRINTS = (
    "import datetime;"
    "from otel_groundedness.evaluator import policy_fingerprint;"
    "from otel_groundedness.scoring import GroundednessPolicy as P;"
    "print(policy_fingerprint(P()));"
    "print(policy_fingerprint(P(locale='de-DE', contradicted_band=0.1,"
    " anchor_date=datetime.date(2025, 3, 3))))"
)


def other_interpreters() -> list[str]:
    """Every other CPython 3.11+ on the machine (pyenv keeps several): the fingerprint must match there."""
    found = {str(Path(sys.executable).resolve())}
    # pyenv's shims only run the version selected for the directory, so the real binaries are used.
    candidates = [shutil.which(f"python3.{minor}") for minor in range(11, 15)]
    candidates = [path for path in candidates if path and "/shims/" not in path]
    candidates += [str(path) for path in Path("/root/.pyenv/versions").glob("3.1[1-9]*/bin/python3")]
    interpreters = []
    for candidate in candidates:
        if candidate and Path(candidate).resolve().as_posix() not in found:
            found.add(Path(candidate).resolve().as_posix())
            interpreters.append(candidate)
    return interpreters


def fingerprints_in(python: str, hash_seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [python, "-c", PRINT_FINGERPRINTS], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    )
    return result.stdout.split()


def test_fingerprint_is_the_same_in_other_processes_and_python_versions() -> None:
    here = [
        policy_fingerprint(GroundednessPolicy()),
        policy_fingerprint(
            GroundednessPolicy(locale="de-DE", contradicted_band=0.1, anchor_date=datetime.date(2025, 3, 3))
        ),
    ]
    runs = [(sys.executable, seed) for seed in ("0", "1", "4242")]
    runs += [(python, "7") for python in other_interpreters()]
    for python, seed in runs:
        assert fingerprints_in(python, seed) == here, (python, seed)


def test_fingerprint_is_short_hex() -> None:
    fingerprint = policy_fingerprint(GroundednessPolicy())
    assert len(fingerprint) == 12 and int(fingerprint, 16) >= 0


def changed(field: dataclasses.Field[object]) -> GroundednessPolicy:
    """A policy that differs from the default in ``field`` alone."""
    default = getattr(GroundednessPolicy(), field.name)
    if isinstance(default, bool):
        return dataclasses.replace(GroundednessPolicy(), **{field.name: not default})
    if isinstance(default, float):
        return dataclasses.replace(GroundednessPolicy(), **{field.name: default / 2})
    if isinstance(default, int):
        return dataclasses.replace(GroundednessPolicy(), **{field.name: default + 1})
    if isinstance(default, tuple):
        return dataclasses.replace(GroundednessPolicy(), **{field.name: default[:-1]})
    if field.name == "locale":
        return GroundednessPolicy(locale="fr-FR")
    if field.name == "label_rule":
        return GroundednessPolicy(label_rule="strict")
    if field.name == "anchor_date":
        return GroundednessPolicy(anchor_date=datetime.date(2025, 1, 1))
    raise AssertionError(f"teach this test how to change {field.name}")


@pytest.mark.parametrize("field", dataclasses.fields(GroundednessPolicy), ids=lambda field: field.name)
def test_every_setting_moves_the_fingerprint(field: dataclasses.Field[object]) -> None:
    assert policy_fingerprint(changed(field)) != policy_fingerprint(GroundednessPolicy())


def test_describe_names_the_evaluator_and_its_version() -> None:
    evaluator = describe(GroundednessPolicy())
    assert (evaluator.id, evaluator.type) == (EVALUATOR_ID, EVALUATOR_TYPE)
    assert evaluator.version.split(".")[0].isdigit()
    assert evaluator.policy_fingerprint == policy_fingerprint(GroundednessPolicy())


def test_every_result_carries_its_provenance() -> None:
    from otel_groundedness.telemetry import names
    from otel_groundedness.telemetry.evaluation import evaluation_attributes, span_attributes
    from tests.telemetry.test_evaluation import MIXED

    evaluator = describe(GroundednessPolicy())
    expected = {
        names.ATTR_EVALUATOR_ID: EVALUATOR_ID,
        names.ATTR_EVALUATOR_VERSION: evaluator.version,
        names.ATTR_EVALUATOR_TYPE: EVALUATOR_TYPE,
        names.ATTR_POLICY_FINGERPRINT: evaluator.policy_fingerprint,
    }
    for attributes in (
        span_attributes(MIXED, False, evaluator),
        evaluation_attributes(MIXED, None, evaluator),
    ):
        assert expected.items() <= attributes.items()
