"""The engine reads every field of a policy as Python holds it, and defaults to the same values."""

from __future__ import annotations

import datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from otel_groundedness import _native
from otel_groundedness.scoring.atoms import ATOM_KINDS
from otel_groundedness.scoring.policy import LABEL_RULES, SUPPORTED_LOCALES, GroundednessPolicy


def test_the_engine_defaults_are_the_policy_defaults() -> None:
    assert _native.default_policy() == GroundednessPolicy().to_dict()


FIELDS = st.fixed_dictionaries(
    {
        "enabled_kinds": st.lists(st.sampled_from(ATOM_KINDS), min_size=1, unique=True).map(tuple),
        "include_user_prompt_as_evidence": st.booleans(),
        "contradicted_band": st.floats(0.0, 1.0),
        "min_alert_score": st.floats(0.0, 1.0),
        "max_evidence_bytes": st.integers(1, 1 << 40),
        "max_answer_chars": st.integers(1, 1 << 40),
        "work_budget": st.integers(1, 1 << 62),
        "min_number_digits": st.integers(1, 30),
        "locale": st.sampled_from(SUPPORTED_LOCALES),
        "label_rule": st.sampled_from(LABEL_RULES),
        "anchor_date": st.none() | st.dates(datetime.date(1, 1, 1), datetime.date(9999, 12, 31)),
        "derived_values": st.booleans(),
        "max_derivation_operands": st.integers(2, 1 << 20),
        "max_derivation_candidates": st.integers(1, 1 << 40),
    }
)


@settings(max_examples=500, derandomize=True)
@given(FIELDS)
def test_every_field_crosses_unchanged(fields: dict[str, Any]) -> None:
    policy = GroundednessPolicy(**fields)
    assert _native.policy_as_read(policy) == policy.to_dict()


def test_a_budget_beyond_the_engine_s_range_is_never_spent() -> None:
    read = _native.policy_as_read(GroundednessPolicy(work_budget=10**30))
    assert read["work_budget"] == 2**63 - 1
