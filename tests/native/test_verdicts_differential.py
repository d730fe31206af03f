"""The native comparison rules (``verdicts.rs``, with ``cell_hit`` of ``table_book.rs``) judge as
``scoring/verdicts.py`` does where no derivation can hide them: ``score()`` of both engines with
derived values off, report for report, on the dev sets (at the default budget and a small one) and
generated answer/evidence pairs.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.native.score_cases import Case, devset_cases, difference, generate

OFF = {"derived_values": False}
DEVSET = [(name, replace(case, policy={**case.policy, **OFF})) for name, case in devset_cases()]


@pytest.mark.parametrize(("name", "case"), DEVSET, ids=[name for name, _ in DEVSET])
def test_devset_judgements_agree(name: str, case: Case) -> None:
    assert difference(case) is None, name


def test_generated_judgements_agree() -> None:
    rng = random.Random(20261203)
    failures: list[Case] = []
    for _ in range(2000):
        case = generate(rng)
        case = replace(case, policy={**case.policy, **OFF})
        if difference(case) is not None:
            failures.append(case)
    assert not failures, f"{len(failures)} of 2000 differ; first: {failures[0]!r}"
