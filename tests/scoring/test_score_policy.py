"""GroundednessPolicy: defaults of the reference, validation, dict and environment construction."""

from __future__ import annotations

import datetime
import json
import logging
from pathlib import Path

import pytest

from otel_groundedness.env_config import EnvProblem
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.scoring.policy import PolicyFileError


def test_defaults_match_the_reference_knobs() -> None:
    policy = GroundednessPolicy()
    assert policy.enabled_kinds == ("money", "percent", "number", "date", "identifier", "time")
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
        ("OTEL_GROUNDEDNESS_WORK_BUDGET", "0"),
        ("OTEL_GROUNDEDNESS_ANCHOR_DATE", "yesterday"),
    ],
)
def test_a_bad_variable_warns_and_keeps_only_its_own_default(
    caplog: pytest.LogCaptureFixture, variable: str, raw: str
) -> None:
    environ = {
        variable: raw,
        "OTEL_GROUNDEDNESS_MIN_ALERT_SCORE": "0.6",
        "OTEL_GROUNDEDNESS_LABEL_RULE": "strict",
    }
    with caplog.at_level(logging.WARNING, logger="otel_groundedness.config"):
        policy = GroundednessPolicy.from_env(environ)
    # The good variables still apply; the bad one keeps its default.
    assert policy == GroundednessPolicy(min_alert_score=0.6, label_rule="strict")
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == 1
    assert variable in warnings[0] and repr(raw) in warnings[0] and "default" in warnings[0]


def test_from_env_can_collect_problems_instead_of_warning(caplog: pytest.LogCaptureFixture) -> None:
    problems: list[EnvProblem] = []
    with caplog.at_level(logging.WARNING):
        policy = GroundednessPolicy.from_env(
            {"OTEL_GROUNDEDNESS_LOCALE": "klingon", "OTEL_GROUNDEDNESS_MIN_NUMBER_DIGITS": "3"},
            problems=problems,
        )
    assert policy == GroundednessPolicy(min_number_digits=3)
    assert [problem.variable for problem in problems] == ["OTEL_GROUNDEDNESS_LOCALE"]
    assert "klingon" in str(problems[0]) and "locale must be one of" in str(problems[0])
    assert caplog.records == []


def test_from_file_reads_a_json_policy(tmp_path: Path) -> None:
    path = tmp_path / "policy.json"
    path.write_text(
        json.dumps({"min_alert_score": 0.7, "enabled_kinds": ["money", "date"]}), encoding="utf-8"
    )
    assert GroundednessPolicy.from_file(path) == GroundednessPolicy(
        min_alert_score=0.7, enabled_kinds=("money", "date")
    )
    assert GroundednessPolicy.from_file(str(path)) == GroundednessPolicy.from_file(path)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "cannot read policy file .*policy.json"),
        (b"\xff\xfe", "invalid policy file .*policy.json: not UTF-8"),
        (b"{min_alert_score: 0.7}", "invalid policy file .*policy.json: not valid JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "invalid policy file .*: not valid JSON"),
        (b'{"min_alert_score": 7}', "invalid policy file .*: min_alert_score must be a number from 0 to 1"),
        (b'{"contradicted_bnad": 0.1}', "invalid policy file .*: unknown policy field"),
        (b'["money"]', "invalid policy file .*: policy must be a JSON object"),
        (b'{"enabled_kinds": 5}', "invalid policy file .*: enabled_kinds must be"),
        (b'{"max_answer_chars": ' + b"9" * 5000 + b"}", "invalid policy file .*"),
    ],
)
def test_from_file_errors_name_the_file_and_the_problem(
    tmp_path: Path, content: bytes | None, expected: str
) -> None:
    path = tmp_path / "policy.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(PolicyFileError, match=expected):
        GroundednessPolicy.from_file(path)
