"""The native ``score()`` gives the Python engine's report, ``to_json()`` text for text: on every
dev-set case (at the default budget and a small one), the benchmark shapes, hostile evidence and
generated answer/evidence pairs (``tests.native.score_cases``; long runs: ``make fuzz-native``)."""

from __future__ import annotations

import random
from itertools import islice

import pytest

from otel_groundedness.scoring.evidence import Evidence
from tests.native.score_cases import Case, devset_cases, difference, generate
from tests.native.test_evidence_differential import benchmark_cases, hostile_cases

DEVSET = list(devset_cases())


@pytest.mark.parametrize(("name", "case"), DEVSET, ids=[name for name, _ in DEVSET])
def test_devset_reports_agree(name: str, case: Case) -> None:
    assert difference(case) is None, name


def test_benchmark_shapes_agree() -> None:
    answers = (
        "Revenue was $1,243,500 in 2024, up 12.5% from $1,105,333; order ORD-99812 shipped 2025-03-04.",
        "Total 4,812 units; the average was 1,604 and the difference 3,208.",
    )
    for name, items, prompt in islice(benchmark_cases(), 40):
        for answer in answers:
            assert difference(Case(answer, items, prompt)) is None, name


def test_hostile_evidence_agrees() -> None:
    for name, items, prompt in hostile_cases():
        assert difference(Case("It cost $1,000,000 on 2024-01-02, ticket #4521.", items, prompt)) is None, (
            name
        )


def test_evidence_labels_and_surrogates_agree() -> None:
    evidence = [
        Evidence({"total": 1200.5}, source_id="call-1", kind="tool_result", name="crm"),
        "ok \ud800 $5,000",
    ]
    for answer in ("Total $1,200.50 \udc00 and $5,000.", "\ud800$1,200.51", "x" * 40 + " $5,001"):
        assert difference(Case(answer, evidence, "What was the total?")) is None


def test_generated_pairs_agree() -> None:
    rng = random.Random(20261202)
    failures = [(case, found) for case in (generate(rng) for _ in range(1500)) if (found := difference(case))]
    assert not failures, f"{len(failures)} of 1500 differ; first: {failures[0][0]!r}\n{failures[0][1]}"
