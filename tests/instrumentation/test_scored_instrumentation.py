"""The GroundednessSpanProcessor registered in front of the exporters, fed by real instrumentation.

Same scenario runs as ``test_real_instrumentation`` (own interpreter each, ``--score``): the
grounded answer must be scored once per trace as grounded, the corrupted one ($1,234,500 instead of
$1,243,500) must be caught, and every span must still be exported exactly once.
"""

from __future__ import annotations

from typing import Any

import pytest

from otel_groundedness.telemetry import names
from tests.instrumentation.scenarios import legacy_openllmetry, scenario

pytestmark = pytest.mark.instrumentation

SCENARIOS = (
    "openai_v2_latest",
    "openai_v2_legacy_events",
    "openllmetry",
    "openllmetry_events",
    "openllmetry_legacy",
    "openinference",
    "pydantic_ai",
)


def scored(name: str) -> dict[str, Any]:
    return legacy_openllmetry() if name == "openllmetry_legacy" else scenario(name)


def scored_spans(run: dict[str, Any]) -> list[dict[str, Any]]:
    return [span for span in run["spans"] if names.ATTR_SCORE in span["groundedness"]]


@pytest.mark.parametrize("name", SCENARIOS)
def test_grounded_answer_is_scored_once_per_trace(name: str) -> None:
    result = scored(name)
    for mode in ("nonstream", "stream"):
        run = result["runs"][mode]
        assert len(run["spans"]) == 4, mode  # every span exported exactly once
        (span,) = scored_spans(run)
        attributes = span["groundedness"]
        assert attributes[names.ATTR_SCORE] == 1.0
        assert attributes[names.ATTR_SCORE_PERCENT] == 100
        assert attributes[names.ATTR_LABEL] == "grounded"
        assert attributes[names.ATTR_ATOMS_CONTRADICTED] == 0
        assert attributes[names.ATTR_ATOMS_SUPPORTED] >= 3  # the total, the invoice id, the due date
        assert names.EVENT_EVALUATION_RESULT in span["events"]
        results = [log for log in run["logs"] if log["event_name"] == names.EVENT_EVALUATION_RESULT]
        assert [log["attributes"][names.ATTR_EVALUATION_NAME] for log in results] == [names.EVALUATION_NAME]
        assert results[0]["span_id"] == span["span_id"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_corrupted_total_is_contradicted(name: str) -> None:
    run = scored(name)["runs"]["corrupted"]
    (span,) = scored_spans(run)
    attributes = span["groundedness"]
    assert attributes[names.ATTR_ATOMS_CONTRADICTED] >= 1
    assert attributes[names.ATTR_SCORE] < 1.0
    assert attributes[names.ATTR_LABEL] != "grounded"
