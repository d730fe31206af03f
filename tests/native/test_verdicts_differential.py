"""The native comparison rules (``verdicts.rs``, with ``cell_hit`` of ``table_book.rs``) judge as
``scoring/verdicts.py`` does: ``score()`` of both engines with derived values off (the native
derivation search is still a stub), report for report, on the dev sets (at the default budget and
a small one) and generated answer/evidence pairs.

The one difference allowed is the documented one of extraction (docs/native.md): a lone surrogate
in an answer identifier reaches the native engine as U+FFFD, so its normalised ``value`` differs.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from tests.native.score_cases import Case, devset_cases, difference, generate

OFF = {"derived_values": False}
DEVSET = [(name, replace(case, policy={**case.policy, **OFF})) for name, case in devset_cases()]
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_VALUE = re.compile(r'"value": "[^"]*"')


def _agree(case: Case) -> bool:
    found = difference(case)
    if found is None:
        return True
    expected, got = found
    restored = _VALUE.sub(lambda value: _SURROGATE.sub("\ufffd", value.group(0)), expected)
    return restored == got


@pytest.mark.parametrize(("name", "case"), DEVSET, ids=[name for name, _ in DEVSET])
def test_devset_judgements_agree(name: str, case: Case) -> None:
    assert _agree(case), name


def test_generated_judgements_agree() -> None:
    rng = random.Random(20261203)
    cases = (generate(rng) for _ in range(2000))
    failures = [case for case in cases if not _agree(replace(case, policy={**case.policy, **OFF}))]
    assert not failures, f"{len(failures)} of 2000 differ; first: {failures[0]!r}"
