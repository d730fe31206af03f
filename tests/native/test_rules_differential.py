"""The native label rules give the Python rules' figures and label for any verdicts."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring import rules
from otel_groundedness.scoring.policy import LABEL_RULES, LabelRule
from otel_groundedness.scoring.results import Verdict

VERDICTS: tuple[Verdict, ...] = get_args(Verdict)


@settings(max_examples=3000, derandomize=True)
@given(
    st.sampled_from(LABEL_RULES),
    st.lists(st.tuples(st.sampled_from(VERDICTS), st.integers(0, 6)), min_size=1, max_size=30),
    st.floats(0.0, 1.0),
)
def test_native_rules_agree(rule: LabelRule, atoms: list[tuple[Verdict, int]], min_alert: float) -> None:
    verdicts = [verdict for verdict, _ in atoms]
    sentence_of = [sentence for _, sentence in atoms]
    ratio = rules.atom_ratio(verdicts)
    sentences = rules.sentence_score(verdicts, sentence_of)
    strict = rules.strict_pass(verdicts)
    contradicted = verdicts.count("contradicted")
    expected = (
        ratio,
        sentences,
        strict,
        rules.label(rule, ratio, sentences, strict, contradicted, min_alert),
    )
    assert _native.rule_figures(rule, verdicts, sentence_of, min_alert) == expected


def test_unknown_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown label rule"):
        _native.rule_figures("majority", ["supported"], [0], 0.8)
    with pytest.raises(ValueError, match="unknown verdict"):
        _native.rule_figures("strict", ["maybe"], [0], 0.8)
