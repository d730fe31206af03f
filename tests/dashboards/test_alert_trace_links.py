"""Each groundedness alert's trace links search the scored span alone, for the alert's agent, model and
the ``ungrounded`` label, under the attribute names the scorer writes (``telemetry.names``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from dashboards import alerts
from dashboards.promql import AGENT_LABEL, LABEL_UNGROUNDED, MODEL_LABEL
from otel_groundedness.telemetry import names

RULES: dict[str, dict[str, Any]] = {
    rule["alert"]: rule
    for group in yaml.safe_load(alerts.PROMETHEUS_RULES.read_text(encoding="utf-8"))["groups"]
    for rule in group["rules"]
    if "traces" in rule.get("annotations", {})
}


def test_the_answer_quality_alerts_carry_trace_links() -> None:
    assert set(RULES) == {
        "GroundednessUngroundedShareHigh",
        "GroundednessP10ScoreLow",
        "GroundednessContradictedAtoms",
    }


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_jaeger_link_matches_the_agent_model_and_label_on_one_span(name: str) -> None:
    traces = RULES[name]["annotations"]["traces"]
    # Jaeger's tags are a JSON object: every key is matched on one span.
    assert f'"{names.ATTR_AGENT_NAME}" $labels.{AGENT_LABEL}' in traces
    assert traces.count(f'"{names.ATTR_REQUEST_MODEL}" $labels.{MODEL_LABEL}') == 2  # with and without agent
    assert traces.count(f'"{names.ATTR_LABEL}" "{LABEL_UNGROUNDED}"') == 2
    assert f"{{{{ if $labels.{AGENT_LABEL} }}}}" in traces


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_traceql_link_is_one_span_selector(name: str) -> None:
    traceql = RULES[name]["annotations"]["traceql"]
    selectors = re.sub(r"\{\{.*?\}\}", "", traceql)  # without the template's actions
    assert ">>" not in selectors and selectors.count("{") == 1
    for attribute in (names.ATTR_AGENT_NAME, names.ATTR_REQUEST_MODEL, names.ATTR_LABEL):
        assert f'span."{attribute}"' in traceql
