"""Shape of the Grafana provisioning files, and the alert rules against the Prometheus rules they mirror."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from dashboard_json import load, panels, series_in

from dashboards import alerts, generate, groundedness
from otel_groundedness.telemetry.prometheus_names import series_owner

PROVISIONING = generate.ROOT / "provisioning"
ENV_FILE = PROVISIONING / "env.sh"
PROMETHEUS_RULES = yaml.safe_load(alerts.PROMETHEUS_RULES.read_text(encoding="utf-8"))
GRAFANA_RULES = yaml.safe_load(generate.ALERT_RULES_YAML.read_text(encoding="utf-8"))
# A bare $NAME or ${NAME} that Grafana would replace from its environment ($$ is a literal dollar).
_ENV_REFERENCE = re.compile(r"(?<!\$)\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def _yaml(relative: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((PROVISIONING / relative).read_text(encoding="utf-8"))
    assert data["apiVersion"] == 1
    return data


def _env_defaults() -> set[str]:
    return set(re.findall(r"^([A-Z_]+)=", ENV_FILE.read_text(encoding="utf-8"), flags=re.MULTILINE))


def _interpolated_strings(node: Any) -> list[str]:
    """String values Grafana interpolates: everything but alert annotations (those stay raw)."""
    if isinstance(node, dict):
        return [
            text
            for key, value in node.items()
            if key != "annotations"
            for text in _interpolated_strings(value)
        ]
    if isinstance(node, list):
        return [text for item in node for text in _interpolated_strings(item)]
    return [node] if isinstance(node, str) else []


def _env_references(path: Path) -> set[str]:
    values = _interpolated_strings(yaml.safe_load(path.read_text(encoding="utf-8")))
    return {name for value in values for name in _ENV_REFERENCE.findall(value.replace("$$", ""))}


def test_datasources_are_prometheus_jaeger_tempo_and_loki_with_urls_from_the_environment() -> None:
    sources = {source["uid"]: source for source in _yaml("datasources/groundedness.yaml")["datasources"]}
    assert {uid: source["type"] for uid, source in sources.items()} == {
        "prometheus": "prometheus",
        "jaeger": "jaeger",
        "tempo": "tempo",
        "loki": "loki",
    }
    for source in sources.values():
        assert re.fullmatch(r"\$\{[A-Z_]+_URL\}", source["url"]), source["url"]
    assert [source for source in sources.values() if source.get("isDefault")] == [sources["prometheus"]]
    # Exemplars and log records open their trace in Jaeger, the stack's trace store.
    (destination,) = sources["prometheus"]["jsonData"]["exemplarTraceIdDestinations"]
    assert destination == {"name": "trace_id", "datasourceUid": "jaeger"}
    (derived,) = sources["loki"]["jsonData"]["derivedFields"]
    assert derived["datasourceUid"] == "jaeger" and derived["url"] == "$${__value.raw}"
    for traces in ("jaeger", "tempo"):
        assert sources[traces]["jsonData"]["tracesToLogsV2"]["datasourceUid"] == "loki"


def test_dashboard_provider_loads_the_generated_json_directory() -> None:
    (provider,) = _yaml("dashboards/groundedness.yaml")["providers"]
    assert provider["type"] == "file" and provider["folder"] == groundedness.TITLE
    assert provider["options"]["path"] == "${GROUNDEDNESS_DASHBOARDS_PATH}"


@pytest.mark.parametrize(
    "path", sorted(PROVISIONING.rglob("*.yaml")), ids=lambda path: str(path.relative_to(PROVISIONING))
)
def test_every_environment_variable_a_provisioning_file_reads_has_a_default(path: Path) -> None:
    assert _env_references(path) <= _env_defaults(), path


def _rules(document: dict[str, Any], key: str) -> dict[str, dict[str, Any]]:
    return {rule[key]: rule for group in document["groups"] for rule in group["rules"] if key in rule}


PROMETHEUS_ALERTS = _rules(PROMETHEUS_RULES, "alert")
GRAFANA_ALERTS = _rules(GRAFANA_RULES, "title")


def test_alert_groups_mirror_the_prometheus_groups() -> None:
    assert [group["name"] for group in GRAFANA_RULES["groups"]] == [
        group["name"] for group in PROMETHEUS_RULES["groups"]
    ]
    for group in GRAFANA_RULES["groups"]:
        assert group["orgId"] == 1 and group["folder"] == groundedness.TITLE and group["interval"] == "1m"
    assert set(GRAFANA_ALERTS) == set(PROMETHEUS_ALERTS) and PROMETHEUS_ALERTS
    uids = [rule["uid"] for rule in GRAFANA_ALERTS.values()]
    assert len(set(uids)) == len(uids) and all(0 < len(uid) <= 40 for uid in uids)


@pytest.mark.parametrize("name", sorted(PROMETHEUS_ALERTS))
def test_grafana_rule_runs_the_same_promql_with_the_same_for_labels_and_texts(name: str) -> None:
    source, rule = PROMETHEUS_ALERTS[name], GRAFANA_ALERTS[name]
    data = {query["refId"]: query for query in rule["data"]}
    assert rule["condition"] in data and len(data) == len(rule["data"])
    query = data["A"]
    assert query["datasourceUid"] == "prometheus" and query["model"]["instant"] is True
    # Grafana expands $NAME in queries and labels; the generator writes every dollar as $$.
    assert query["model"]["expr"].replace("$$", "$") == source["expr"].strip()
    assert data[rule["condition"]]["datasourceUid"] == "__expr__"
    assert data[rule["condition"]]["model"]["expression"] == "is_number($$A) || is_nan($$A) || is_inf($$A)"
    assert rule["for"] == source.get("for", "0s")
    assert rule["labels"] == source["labels"]
    assert rule["noDataState"] == "OK" and rule["execErrState"] == "Error"
    for key, text in source["annotations"].items():
        if alerts.prometheus_only(text):  # the trace link's window comes from Prometheus' `query`
            assert key not in rule["annotations"], key
            continue
        assert rule["annotations"][key] == text.replace("$value", "$values.A.Value"), key
    assert "$value " not in str(rule["annotations"]) and "$value}" not in str(rule["annotations"])


@pytest.mark.parametrize("name", sorted(PROMETHEUS_ALERTS))
def test_grafana_rule_links_to_an_existing_dashboard_panel(name: str) -> None:
    rule = GRAFANA_ALERTS[name]
    by_id = {panel["id"]: panel["title"] for panel in panels(load())}
    assert rule["annotations"]["__dashboardUid__"] == groundedness.UID
    assert by_id[int(rule["annotations"]["__panelId__"])] == alerts.PANEL_FOR_ALERT[name]


@pytest.mark.parametrize("name", sorted(PROMETHEUS_ALERTS))
def test_every_series_an_alert_uses_is_emitted_by_a_known_instrument(name: str) -> None:
    used = series_in(GRAFANA_ALERTS[name]["data"][0]["model"]["expr"])
    assert used and all(series_owner(series) is not None for series in used), used


def test_dashboard_thresholds_match_the_alert_thresholds() -> None:
    assert f") < {groundedness.LOW_SCORE}" in PROMETHEUS_ALERTS["GroundednessP10ScoreLow"]["expr"]
    share = f") > {groundedness.UNGROUNDED_SHARE_ALERT:.2f}"
    assert share in PROMETHEUS_ALERTS["GroundednessUngroundedShareHigh"]["expr"]
