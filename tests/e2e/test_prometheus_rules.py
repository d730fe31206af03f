"""The alert rules: promtool accepts them and their unit tests pass, every alert is tested firing and
silent, every alert is actionable, and every series they read belongs to an instrument we define."""

from __future__ import annotations

import json
import re
import subprocess
from collections import defaultdict
from typing import Any

import pytest
import yaml

from otel_groundedness.telemetry.names import METRICS
from otel_groundedness.telemetry.prometheus_names import UPSTREAM_METRICS, label_name, series_owner

from .services import PROMETHEUS_DIR, REPO

pytestmark = pytest.mark.e2e

RULES = PROMETHEUS_DIR / "groundedness-rules.yml"
RULE_TESTS = PROMETHEUS_DIR / "groundedness-rules.test.yml"
DASHBOARD = REPO / "dashboards/grafana/llm-groundedness.json"

# PromQL words that are not series names: functions (followed by "("), operators and modifiers.
_KEYWORDS = {
    "and",
    "or",
    "unless",
    "by",
    "without",
    "on",
    "ignoring",
    "group_left",
    "group_right",
    "offset",
    "bool",
}
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACES = re.compile(r"\{[^{}]*\}")
_RANGE = re.compile(r"\[[^\[\]]*\]")
_LABEL_LIST = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^()]*)\)")
# Not preceded by a digit or name character, so the "m" of "offset 10m" is not read as a name.
_IDENTIFIER = re.compile(r"(?<![0-9A-Za-z_.:])[a-zA-Z_:][a-zA-Z0-9_:]*")


def _alerting_rules() -> list[dict[str, Any]]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return [rule for group in groups for rule in group["rules"] if "alert" in rule]


def series_in(expr: str) -> set[str]:
    """Series names a PromQL expression selects (strings, matchers, ranges and label lists removed)."""
    text = _RANGE.sub(" ", _BRACES.sub(" ", _STRING.sub(" ", expr)))
    text = _LABEL_LIST.sub(" ", text)
    names = set()
    for match in _IDENTIFIER.finditer(text):
        followed_by = text[match.end() :].lstrip()[:1]
        if match.group() not in _KEYWORDS and followed_by != "(":
            names.add(match.group())
    return names


def labels_in(expr: str) -> set[str]:
    """Label names used in matchers and in by/without/on/ignoring lists."""
    labels = set()
    for block in _BRACES.findall(_STRING.sub('""', expr)):
        labels.update(re.findall(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)", block))
    for block in _LABEL_LIST.findall(expr):
        labels.update(name.strip() for name in block.split(",") if name.strip())
    return labels


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, cwd=PROMETHEUS_DIR, timeout=120)


def test_promtool_accepts_the_rules() -> None:
    result = _run("promtool", "check", "rules", RULES.name)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(_alerting_rules())} rules found" in result.stdout


def test_promtool_unit_tests_pass() -> None:
    result = _run("promtool", "test", "rules", RULE_TESTS.name)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_alert_is_unit_tested_firing_and_silent() -> None:
    outcomes: dict[str, set[bool]] = defaultdict(set)
    for case in yaml.safe_load(RULE_TESTS.read_text())["tests"]:
        for check in case.get("alert_rule_test", []):
            outcomes[check["alertname"]].add(bool(check.get("exp_alerts")))
    for rule in _alerting_rules():
        assert outcomes[rule["alert"]] == {True, False}, f"{rule['alert']} lacks a firing or a silent case"


def test_sample_configs_are_valid() -> None:
    prometheus = _run("promtool", "check", "config", "prometheus.yml")
    assert prometheus.returncode == 0, prometheus.stdout + prometheus.stderr
    alertmanager = _run("amtool", "check-config", "alertmanager.yml")
    assert alertmanager.returncode == 0, alertmanager.stdout + alertmanager.stderr


@pytest.mark.parametrize("rule", _alerting_rules(), ids=lambda rule: rule["alert"])
def test_alert_is_actionable(rule: dict[str, Any]) -> None:
    assert rule["labels"]["severity"] in {"critical", "warning"}
    assert rule["labels"]["category"].startswith("groundedness")
    annotations = rule["annotations"]
    assert annotations["summary"] and "{{ $labels." in annotations["summary"]
    assert len(annotations["description"]) > 200, "the description must say what to check"
    board = json.loads(DASHBOARD.read_text())
    assert annotations["dashboard"].startswith(f"Grafana: {board['title']} dashboard, ")
    # Every quoted name is a panel or row the on-call person will find on that dashboard.
    titles = {panel["title"] for panel in _panels(board["panels"])}
    quoted = re.findall(r"'([^']+)'", annotations["dashboard"])
    assert quoted and set(quoted) <= titles, set(quoted) - titles
    doc, anchor = annotations["runbook"].split("#")
    headings = re.findall(r"^#+ (.+)$", (REPO / doc).read_text(), flags=re.MULTILINE)
    assert anchor in {heading.strip().lower() for heading in headings}, f"{doc} has no section {anchor}"


def test_rules_read_only_series_and_labels_of_defined_instruments() -> None:
    known_labels = {"le", "job", "instance"} | {
        label_name(key) for spec in (*METRICS, *UPSTREAM_METRICS) for key in spec.attributes
    }
    used_specs = set()
    for rule in _alerting_rules():
        for series in series_in(rule["expr"]):
            owner = series_owner(series)
            assert owner is not None, (
                f"{rule['alert']} reads {series}, which no instrument in names.METRICS emits"
            )
            used_specs.add(owner.name)
        assert labels_in(rule["expr"]) <= known_labels, rule["alert"]
    assert {"gen_ai.evaluation.score", "groundedness.turns", "groundedness.atoms"} <= used_specs


def test_series_extraction_sees_renamed_metrics() -> None:
    expr = (
        'sum by (le) (rate(groundedness_scores_renamed_bucket{gen_ai_agent_name="a"}[5m])) > 0'
        " unless groundedness_turns_total offset 10m"
    )
    assert series_in(expr) == {"groundedness_scores_renamed_bucket", "groundedness_turns_total"}
    assert series_owner("groundedness_scores_renamed_bucket") is None
    assert labels_in(expr) == {"le", "gen_ai_agent_name"}


def _panels(panels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Panels and rows, including those nested in collapsed rows."""
    return [item for panel in panels for item in (panel, *_panels(panel.get("panels", [])))]
