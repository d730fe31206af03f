"""GroundednessPolicy: defaults of the reference, validation, dict and environment construction."""

from __future__ import annotations

import datetime

import pytest

from otel_groundedness.scoring import GroundednessPolicy


def test_defaults_match_the_reference_knobs() -> None:
    policy = GroundednessPolicy()
    assert policy.enabled_kinds == ("money", "percent", "number", "date", "identifier")
    assert policy.include_user_prompt_as_evidence is True
    assert policy.contradicted_band == 0.15
    assert policy.min_alert_score == 0.8
    assert policy.max_evidence_bytes == 262_144
    assert policy.min_number_digits == 4
    assert policy.locale == "en-US"
    assert policy.label_rule == "atom_ratio"
    assert policy.anchor_date is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("enabled_kinds", ["money", "weather"]),
        ("enabled_kinds", []),
        ("include_user_prompt_as_evidence", "yes"),
        ("contradicted_band", 1.5),
        ("contradicted_band", -0.1),
        ("contradicted_band", float("nan")),
        ("min_alert_score", True),
        ("max_evidence_bytes", 0),
        ("max_evidence_bytes", 10.5),
        ("min_number_digits", 0),
        ("locale", "xx-XX"),
        ("label_rule", "vibes"),
        ("anchor_date", "03/03/2025"),
    ],
)
def test_bad_values_raise_naming_the_field_and_value(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field) as error:
        GroundednessPolicy(**{field: value})  # type: ignore[arg-type]
    assert repr(value)[:8] in str(error.value)


def test_kinds_are_normalised_to_canonical_order() -> None:
    policy = GroundednessPolicy(enabled_kinds=["date", "money"])  # type: ignore[arg-type]
    assert policy.enabled_kinds == ("money", "date")


def test_from_dict_round_trips_and_rejects_unknown_keys() -> None:
    policy = GroundednessPolicy(contradicted_band=0.1, anchor_date=datetime.date(2025, 3, 3), locale="de-DE")
    assert GroundednessPolicy.from_dict(policy.to_dict()) == policy
    with pytest.raises(ValueError, match="contradicted_bnad"):
        GroundednessPolicy.from_dict({"contradicted_bnad": 0.1})
    with pytest.raises(ValueError, match="mapping"):
        GroundednessPolicy.from_dict([("locale", "en-GB")])  # type: ignore[arg-type]


def test_from_env_reads_every_knob() -> None:
    environ = {
        "OTEL_GROUNDEDNESS_ENABLED_KINDS": "money, percent",
        "OTEL_GROUNDEDNESS_INCLUDE_USER_PROMPT_AS_EVIDENCE": "false",
        "OTEL_GROUNDEDNESS_CONTRADICTED_BAND": "0.1",
        "OTEL_GROUNDEDNESS_MIN_ALERT_SCORE": "0.9",
        "OTEL_GROUNDEDNESS_MAX_EVIDENCE_BYTES": "1048576",
        "OTEL_GROUNDEDNESS_MIN_NUMBER_DIGITS": "3",
        "OTEL_GROUNDEDNESS_LOCALE": "fr-FR",
        "OTEL_GROUNDEDNESS_LABEL_RULE": "strict",
        "OTEL_GROUNDEDNESS_ANCHOR_DATE": "2025-03-03",
        "OTEL_GROUNDEDNESS_ENABLED": "true",  # the processor's switch, not a policy knob
    }
    assert GroundednessPolicy.from_env(environ) == GroundednessPolicy(
        enabled_kinds=("money", "percent"),
        include_user_prompt_as_evidence=False,
        contradicted_band=0.1,
        min_alert_score=0.9,
        max_evidence_bytes=1_048_576,
        min_number_digits=3,
        locale="fr-FR",
        label_rule="strict",
        anchor_date=datetime.date(2025, 3, 3),
    )


def test_from_env_treats_empty_values_as_unset() -> None:
    assert GroundednessPolicy.from_env({"OTEL_GROUNDEDNESS_CONTRADICTED_BAND": " "}) == GroundednessPolicy()


@pytest.mark.parametrize(
    ("variable", "raw"),
    [
        ("OTEL_GROUNDEDNESS_CONTRADICTED_BAND", "ten percent"),
        ("OTEL_GROUNDEDNESS_CONTRADICTED_BAND", "2"),
        ("OTEL_GROUNDEDNESS_INCLUDE_USER_PROMPT_AS_EVIDENCE", "maybe"),
        ("OTEL_GROUNDEDNESS_MAX_EVIDENCE_BYTES", "1e6"),
        ("OTEL_GROUNDEDNESS_ENABLED_KINDS", "money,colour"),
        ("OTEL_GROUNDEDNESS_LOCALE", "klingon"),
    ],
)
def test_from_env_errors_name_the_variable(variable: str, raw: str) -> None:
    with pytest.raises(ValueError, match=variable):
        GroundednessPolicy.from_env({variable: raw})
