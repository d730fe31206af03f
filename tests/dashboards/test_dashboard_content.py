"""What the dashboard asks Prometheus and Tempo: names from the specs, unique refIds, the agreed panels."""

from __future__ import annotations

import json
from collections import Counter
from urllib.parse import parse_qs, urlsplit

import pytest
from dashboard_json import Target, load, panels, prometheus_targets, series_in, variables

from dashboards import promql
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.prometheus_names import PROMETHEUS_METRICS, label_name

BOARD = load()
OUR_SERIES = {series for metric in PROMETHEUS_METRICS.values() for series in metric.series}


@pytest.mark.parametrize("panel", panels(BOARD), ids=lambda panel: panel["title"])
def test_ref_ids_are_non_empty_and_unique_per_panel(panel: dict[str, object]) -> None:
    targets = panel["targets"]
    assert isinstance(targets, list) and targets
    ref_ids = [target["refId"] for target in targets]
    assert all(ref_ids), ref_ids
    assert len(set(ref_ids)) == len(ref_ids), ref_ids


def test_panel_ids_are_unique() -> None:
    ids = Counter(panel["id"] for panel in BOARD["panels"])
    assert all(count == 1 for count in ids.values()), ids


@pytest.mark.parametrize("target", prometheus_targets(BOARD), ids=lambda target: target.name)
def test_every_series_a_query_uses_is_one_the_processor_emits(target: Target) -> None:
    used = series_in(target.expr)
    assert used, f"no metric selector found in {target.expr!r}"
    assert used <= OUR_SERIES, f"not emitted by any spec in names.METRICS: {sorted(used - OUR_SERIES)}"


def test_variable_queries_use_emitted_series_and_labels() -> None:
    queries = [var["query"] for var in variables(BOARD).values() if var["type"] == "query"]
    assert len(queries) == 3
    for query in queries:
        assert series_in(query) <= OUR_SERIES, query


def test_template_variables_cover_datasource_service_model_and_agent() -> None:
    found = variables(BOARD)
    assert found["datasource"]["type"] == "datasource" and found["datasource"]["query"] == "prometheus"
    assert found["traces"]["query"] == "tempo"
    turn_labels = {label_name(key) for key in names.METRIC_TURNS.attributes}
    for name, label in (("service", "job"), ("model", promql.MODEL_LABEL), ("agent", promql.AGENT_LABEL)):
        assert found[name]["query"].endswith(f", {label})"), found[name]["query"]
        assert found[name]["includeAll"] and found[name]["allValue"] == ".*"
        assert label == "job" or label in turn_labels


def test_turn_panels_filter_on_every_variable_and_health_panels_on_service() -> None:
    for target in prometheus_targets(BOARD):
        assert 'job=~"$service"' in target.expr, target.name
        if "groundedness_turns_total" in target.expr or "gen_ai_evaluation_score" in target.expr:
            assert f'{promql.MODEL_LABEL}=~"$model"' in target.expr, target.name
            assert f'{promql.AGENT_LABEL}=~"$agent"' in target.expr, target.name


def test_required_panels_are_present() -> None:
    titles = {panel["title"]: panel["type"] for panel in panels(BOARD)}
    expected = {
        "Score distribution over time": "heatmap",
        "Score histogram": "bargauge",
        "p50 / p10 score by model": "timeseries",
        "p50 / p10 score by agent": "timeseries",
        "Share of turns per label": "timeseries",
        "Atoms by kind and verdict": "bargauge",
        "Contradicted atoms over time": "timeseries",
        "Turns with no evidence / no factual content": "timeseries",
        "Scorer latency": "timeseries",
        "Scoring queue": "timeseries",
        "Skipped turns by reason": "timeseries",
        "Pairing buffer evictions": "timeseries",
    }
    for title, panel_type in expected.items():
        assert titles.get(title) == panel_type, title


@pytest.mark.parametrize("panel", panels(BOARD), ids=lambda panel: panel["title"])
def test_every_panel_says_what_healthy_looks_like(panel: dict[str, str]) -> None:
    assert "Healthy:" in panel.get("description", ""), panel["title"]


def _explore_query(url: str) -> dict[str, object]:
    panes = json.loads(parse_qs(urlsplit(url).query)["panes"][0])
    (pane,) = panes.values()
    assert pane["range"] == {"from": "$__from", "to": "$__to"}
    (query,) = pane["queries"]
    assert query["datasource"] == {"type": "tempo", "uid": "$traces"}
    return dict(query)


def test_low_score_panels_link_to_a_tempo_search_for_low_scores() -> None:
    linked = {
        panel["title"]: link["url"]
        for panel in panels(BOARD)
        for link in panel.get("fieldConfig", {}).get("defaults", {}).get("links", [])
        if "score <" in link["title"]
    }
    assert {"p10 score", "Score distribution over time", "p50 / p10 score by model"} <= set(linked)
    for url in linked.values():
        query = _explore_query(url)
        assert query["queryType"] == "traceql"
        assert query["query"] == f'{{ span."{names.ATTR_SCORE}" < 0.5 }}'


def test_low_score_traces_table_queries_tempo_on_the_score_attribute() -> None:
    (table,) = [panel for panel in panels(BOARD) if panel["type"] == "table"]
    assert table["datasource"] == {"type": "tempo", "uid": "$traces"}
    (target,) = table["targets"]
    assert target["queryType"] == "traceql" and names.ATTR_SCORE in target["query"]


def test_score_distribution_requests_exemplars_in_heatmap_format() -> None:
    (heatmap,) = [panel for panel in panels(BOARD) if panel["type"] == "heatmap"]
    (target,) = heatmap["targets"]
    assert target["format"] == "heatmap" and target["exemplar"] is True
    assert heatmap["options"]["calculate"] is False
