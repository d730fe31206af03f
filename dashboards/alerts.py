"""Grafana-managed alert rules mirroring the Prometheus alerting rules in ``collector-config/prometheus/``.

Each Prometheus rule becomes one Grafana rule with the same PromQL, ``for``, labels and annotations:
query ``A`` runs the rule's expression as an instant query and condition ``B`` fires for every series
it returns, which is exactly when Prometheus would fire. Teams that alert from Grafana rather than
Alertmanager get the same alerts, linked to the dashboard panel that explains them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml
from grafana_foundation_sdk.builders import alerting, expr, prometheus
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models import alerting as alerting_models
from grafana_foundation_sdk.models import dashboard

from dashboards import groundedness

PROMETHEUS_RULES = (
    Path(__file__).resolve().parent.parent / "collector-config/prometheus/groundedness-rules.yml"
)
PROMETHEUS_DATASOURCE_UID = "prometheus"  # as provisioned in provisioning/datasources/
EXPRESSION_DATASOURCE_UID = "__expr__"
FOLDER = groundedness.TITLE
EVALUATION_INTERVAL = "1m"
QUERY_WINDOW_S = 600  # instant queries; the window only bounds what Grafana fetches

# The panel each alert links to (Grafana shows it next to the alert); a new Prometheus rule without
# an entry here fails generation, so every alert keeps a place to start the investigation.
PANEL_FOR_ALERT = {
    "GroundednessUngroundedShareHigh": "Share of turns per label",
    "GroundednessP10ScoreLow": "p50 / p10 score by agent",
    "GroundednessContradictedAtoms": "Contradicted atoms over time",
    "GroundednessScoringQueueDropping": "Scoring queue",
    "GroundednessSkipRateHigh": "Skipped turns by reason",
    "GroundednessNoEvaluations": "Turns evaluated",
}

# Fires for every series the PromQL returns, whatever its value (the PromQL already filtered).
_ANY_SERIES = "is_number($A) || is_nan($A) || is_inf($A)"
# Prometheus templates read the alert value as $value; Grafana exposes each query's value instead.
_PROMETHEUS_VALUE = re.compile(r"\$value\b(?!s)")
# A template calling Prometheus' `query` function (the trace-store link computes its window that way);
# Grafana's annotation templates have no such function, so the Grafana rule leaves it out: its
# dashboard panel carries the same trace search.
_PROMETHEUS_QUERY_CALL = re.compile(r"\bquery\s+\"")


def provisioning(rules_yaml: str, board: dashboard.Dashboard) -> dict[str, Any]:
    """The alerting provisioning document (``apiVersion: 1``, one Grafana group per Prometheus group)."""
    panel_ids = {panel.title: panel.id_val for panel in board.panels or [] if panel.title}
    groups = []
    for group in yaml.safe_load(rules_yaml)["groups"]:
        rules = [_rule(rule, board.uid or "", panel_ids) for rule in group["rules"] if "alert" in rule]
        groups.append(
            {
                "orgId": 1,
                "name": group["name"],
                "folder": FOLDER,
                "interval": EVALUATION_INTERVAL,
                "rules": rules,
            }
        )
    return {"apiVersion": 1, "groups": groups}


def _rule(rule: dict[str, Any], dashboard_uid: str, panel_ids: dict[str, int | None]) -> dict[str, Any]:
    name = rule["alert"]
    panel = PANEL_FOR_ALERT.get(name)
    if panel is None or panel_ids.get(panel) is None:
        raise KeyError(f"alert {name}: map it to an existing dashboard panel in PANEL_FOR_ALERT")
    annotations = {
        key: _PROMETHEUS_VALUE.sub("$values.A.Value", text)
        for key, text in rule["annotations"].items()
        if not prometheus_only(text)
    }
    annotations["__dashboardUid__"] = dashboard_uid
    annotations["__panelId__"] = str(panel_ids[panel])
    built = (
        alerting.Rule(name)
        .uid(_uid(name))
        .condition("B")
        .queries(
            [
                alerting.Query("A")
                .datasource_uid(PROMETHEUS_DATASOURCE_UID)
                .relative_time_range(alerting_models.RelativeTimeRange(from_val=QUERY_WINDOW_S, to=0))
                .model(prometheus.Dataquery().ref_id("A").expr(_escape(rule["expr"].strip())).instant()),
                alerting.Query("B")
                .datasource_uid(EXPRESSION_DATASOURCE_UID)
                .model(expr.TypeMath().ref_id("B").expression(_escape(_ANY_SERIES))),
            ]
        )
        .for_val(rule.get("for", "0s"))
        .labels({key: _escape(value) for key, value in rule.get("labels", {}).items()})
        .annotations(annotations)
        .no_data_state("OK")  # an empty result is the healthy case for a filtering PromQL rule
        .exec_err_state("Error")
        .is_paused(False)
        .build()
    )
    encoded: dict[str, Any] = json.loads(json.dumps(built, cls=JSONEncoder))
    # Group-level fields live on the group in a provisioning file.
    for key in ("folderUID", "orgID", "ruleGroup"):
        encoded.pop(key, None)
    return encoded


def prometheus_only(annotation: str) -> bool:
    """True for an annotation template that only Prometheus can render."""
    return _PROMETHEUS_QUERY_CALL.search(annotation) is not None


def _uid(alert: str) -> str:
    """A stable rule uid (Grafana allows at most 40 characters)."""
    return re.sub(r"[^a-z0-9-]", "-", alert.lower())[:40]


def _escape(value: str) -> str:
    """Grafana expands ``$NAME`` from its environment in queries and labels (not in annotations)."""
    return value.replace("$", "$$")
