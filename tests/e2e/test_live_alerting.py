"""A real Prometheus scrapes the app's own endpoint and the Collector's exporter, evaluates the alert
rules, and a real Alertmanager delivers the contradicted-atoms and ungrounded-share alerts to a local
webhook."""

from __future__ import annotations

from typing import Any

import pytest

from otel_groundedness.telemetry.prometheus_names import series_owner

from .promql import APP_JOB, query, scraped_series_by_job
from .services import http_get_json, wait_for
from .stack import Prometheus, WebhookSink

pytestmark = pytest.mark.e2e


def test_both_metric_paths_carry_the_same_series_names(prometheus_with_demo_traffic: Prometheus) -> None:
    by_job = scraped_series_by_job(prometheus_with_demo_traffic.url)
    from_app = by_job.pop(APP_JOB)
    assert by_job, "nothing arrived through the Collector's exporter"
    (through_collector,) = by_job.values()
    assert from_app == through_collector
    assert all(series_owner(name) is not None for name in from_app)


def test_rules_are_loaded_and_evaluated(prometheus_with_demo_traffic: Prometheus) -> None:
    groups = http_get_json(f"{prometheus_with_demo_traffic.url}/api/v1/rules")["data"]["groups"]
    rules = [rule for group in groups for rule in group["rules"]]
    assert len(rules) == 6
    assert all(rule["health"] == "ok" for rule in rules), [rule.get("lastError") for rule in rules]


def _delivered(webhook: WebhookSink, alertname: str) -> list[dict[str, Any]] | None:
    alerts = [alert for alert in webhook.alerts() if alert["labels"].get("alertname") == alertname]
    return alerts or None


def test_contradicted_atoms_alert_reaches_the_webhook(
    prometheus_with_demo_traffic: Prometheus, alert_webhook: WebhookSink
) -> None:
    selector = f'job="{APP_JOB}",groundedness_atom_verdict="contradicted"'
    contradicted = query(
        prometheus_with_demo_traffic.url,
        f"sum by (gen_ai_agent_name) (groundedness_atoms_total{{{selector}}})",
    )
    assert contradicted, "the demo produced no contradicted atom to alert on"

    alerts = wait_for(
        "GroundednessContradictedAtoms at the webhook",
        lambda: _delivered(alert_webhook, "GroundednessContradictedAtoms"),
        timeout=60,
    )
    print(f"\nwebhook received: {sorted({a['labels']['alertname'] for a in alert_webhook.alerts()})}")
    alert = alerts[0]
    assert alert["status"] == "firing"
    assert alert["labels"]["severity"] == "critical"
    agents = {sample["metric"]["gen_ai_agent_name"] for sample in contradicted}
    assert alert["labels"]["gen_ai_agent_name"] in agents
    assert "contradicted" in alert["annotations"]["summary"]
    assert alert["annotations"]["runbook"].startswith("docs/collector.md#")


def test_ungrounded_share_alert_reaches_the_webhook(
    prometheus_with_demo_traffic: Prometheus, alert_webhook: WebhookSink
) -> None:
    # Ground truth from the app's own counters (whole-run totals, one job so nothing is counted twice):
    # the (agent, model) pairs with >= 20 scored turns of which more than 10% were ungrounded.
    pair = "gen_ai_agent_name, gen_ai_request_model"
    scored = (
        f'sum by ({pair}) (groundedness_turns_total{{job="{APP_JOB}",'
        'gen_ai_evaluation_score_label=~"grounded|partially_grounded|ungrounded"})'
    )
    ungrounded = (
        f'sum by ({pair}) (groundedness_turns_total{{job="{APP_JOB}",'
        'gen_ai_evaluation_score_label="ungrounded"})'
    )
    over_threshold = query(
        prometheus_with_demo_traffic.url, f"({ungrounded} / {scored}) > 0.10 and on ({pair}) {scored} >= 20"
    )
    assert over_threshold, "no agent/model pair had enough ungrounded turns to alert on"
    pairs = {(s["metric"]["gen_ai_agent_name"], s["metric"]["gen_ai_request_model"]) for s in over_threshold}

    alerts = wait_for(
        "GroundednessUngroundedShareHigh at the webhook",
        lambda: _delivered(alert_webhook, "GroundednessUngroundedShareHigh"),
        timeout=60,
    )
    print(f"\nungrounded share > 10%: {sorted(pairs)}; alerted: {len(alerts)}")
    for alert in alerts:
        assert alert["status"] == "firing"
        assert alert["labels"]["severity"] == "warning"
        assert (alert["labels"]["gen_ai_agent_name"], alert["labels"]["gen_ai_request_model"]) in pairs
        assert "ungrounded" in alert["annotations"]["summary"]
        assert alert["labels"]["gen_ai_agent_name"] in alert["annotations"]["summary"]
        assert alert["annotations"]["runbook"] == "docs/collector.md#groundednessungroundedsharehigh"
