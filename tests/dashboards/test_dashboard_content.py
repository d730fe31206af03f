"""What the dashboard asks Prometheus and Jaeger: names from the specs, unique refIds, the agreed panels."""

from __future__ import annotations

import json
import re
from collections import Counter
from urllib.parse import parse_qs, urlsplit

import pytest
from dashboard_json import (
    Target,
    load,
    panels,
    prometheus_annotations,
    prometheus_targets,
    selectors,
    series_in,
    variables,
)

from dashboards import groundedness, promql
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.prometheus_names import PROMETHEUS_METRICS, label_name, series_owner

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
    assert len(queries) == 5
    for query in queries:
        assert series_in(query) <= OUR_SERIES, query


def test_template_variables_cover_datasource_service_model_agent_and_scorer_version() -> None:
    found = variables(BOARD)
    assert found["datasource"]["type"] == "datasource" and found["datasource"]["query"] == "prometheus"
    assert found["traces"]["query"] == "jaeger"
    # Jaeger searches one service at a time: a single value, never a regex.
    trace_service = found[promql.TRACE_SERVICE_VAR]
    assert trace_service["query"] == "label_values(groundedness_turns_total, job)"
    assert not trace_service["multi"] and not trace_service["includeAll"]
    turn_labels = {label_name(key) for key in names.METRIC_TURNS.attributes}
    for name, label in (
        ("service", "job"),
        ("model", promql.MODEL_LABEL),
        ("agent", promql.AGENT_LABEL),
        (promql.SCORER_VERSION_VAR, promql.EVALUATOR_VERSION_LABEL),
    ):
        assert found[name]["query"].endswith(f", {label})"), found[name]["query"]
        assert found[name]["multi"] and found[name]["includeAll"] and found[name]["allValue"] == ".*"
        assert label == "job" or label in turn_labels
    scorer = found[promql.SCORER_VERSION_VAR]
    assert scorer["label"] == "Scorer version"
    assert scorer["query"].startswith('label_values(groundedness_turns_total{job=~"$service"}, ')


_FILTERS = {
    names.ATTR_REQUEST_MODEL: f'{promql.MODEL_LABEL}=~"$model"',
    names.ATTR_AGENT_NAME: f'{promql.AGENT_LABEL}=~"$agent"',
    names.ATTR_METRIC_EVALUATOR_VERSION: f'{promql.EVALUATOR_VERSION_LABEL}=~"${promql.SCORER_VERSION_VAR}"',
}


def _selector_filters_on_the_variables(target_name: str, expr: str, *, every_version: bool) -> None:
    found = selectors(expr)
    assert found, expr
    for series, matchers in found:
        spec = series_owner(series)
        assert spec is not None, series
        assert 'job=~"$service"' in matchers, (target_name, series)
        for attribute, matcher in _FILTERS.items():
            wanted = attribute in spec.attributes
            if attribute == names.ATTR_METRIC_EVALUATOR_VERSION and every_version:
                wanted = False
            assert (matcher in matchers) == wanted, (target_name, series, matcher)


def test_every_selector_filters_on_each_variable_its_instrument_carries() -> None:
    # Health instruments carry no model, agent or version: service only. The provenance table shows
    # every scorer version whatever the variable says (that is its point), so it filters on service only.
    for target in prometheus_targets(BOARD):
        every_version = target.panel == groundedness.SCORER_PANEL_TITLE
        _selector_filters_on_the_variables(target.name, target.expr, every_version=every_version)


def test_scorer_version_filter_reaches_the_turn_score_and_atom_panels() -> None:
    version = _FILTERS[names.ATTR_METRIC_EVALUATOR_VERSION]
    filtered = {target.panel for target in prometheus_targets(BOARD) if version in target.expr}
    assert {"Turns evaluated", "p10 score", "Score distribution over time", "Atoms by kind and verdict"} <= (
        filtered
    )


def test_scorer_change_annotation_marks_several_pairs_per_service_from_the_info_gauge() -> None:
    (annotation,) = prometheus_annotations(BOARD)
    assert annotation["name"] == groundedness.SCORER_CHANGE_ANNOTATION and annotation["enable"] is True
    assert annotation["datasource"] == {"type": "prometheus", "uid": "$datasource"}
    info = PROMETHEUS_METRICS[names.METRIC_EVALUATOR_INFO.name]
    assert series_in(annotation["expr"]) == set(info.series)
    # Every version, or selecting the new one would hide the change from old to new.
    _selector_filters_on_the_variables(annotation["name"], annotation["expr"], every_version=True)
    assert "> 1" in annotation["expr"] and f"[{groundedness.SCORER_CHANGE_WINDOW}]" in annotation["expr"]
    # The window never shrinks below Grafana's step for the query, or a change could fall between steps.
    assert f"[{promql.INTERVAL_WINDOW}]" in annotation["expr"]
    assert annotation["step"] == groundedness.SCORER_CHANGE_STEP and annotation["tagKeys"] == "job"
    # Title and text name labels the query keeps: the service and the pair.
    pair = {"job", *info.labels}
    for key in ("titleFormat", "textFormat"):
        used = set(re.findall(r"\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}", annotation[key]))
        assert used and used <= pair, (key, used)
    assert {promql.EVALUATOR_VERSION_LABEL, promql.POLICY_FINGERPRINT_LABEL} <= set(
        re.findall(r"\{\{([a-zA-Z_0-9]+)\}\}", annotation["textFormat"])
    )
    for label in ("job", *info.labels):
        assert label in annotation["expr"].split("and on")[0], label


def test_scorer_table_lists_service_version_and_fingerprint() -> None:
    (table,) = [panel for panel in panels(BOARD) if panel["title"] == groundedness.SCORER_PANEL_TITLE]
    assert table["type"] == "table" and table["datasource"] == {"type": "prometheus", "uid": "$datasource"}
    (target,) = table["targets"]
    assert target["instant"] is True and target["format"] == "table"
    assert series_in(target["expr"]) == set(PROMETHEUS_METRICS[names.METRIC_EVALUATOR_INFO.name].series)
    (organize,) = table["transformations"]
    assert organize["id"] == "organize"
    columns = organize["options"]["renameByName"]
    assert columns == {
        "job": "Service",
        promql.EVALUATOR_VERSION_LABEL: "Scorer version",
        promql.POLICY_FINGERPRINT_LABEL: "Policy fingerprint",
    }
    assert f"by ({', '.join(columns)})" in target["expr"]
    health = [panel for panel in BOARD["panels"] if panel["type"] == "row"][-1]
    assert health["title"] == "Processor health" and table["gridPos"]["y"] > health["gridPos"]["y"]


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
        groundedness.SCORER_PANEL_TITLE: "table",
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
    assert query["datasource"] == {"type": "jaeger", "uid": "$traces"}
    return dict(query)


UNGROUNDED_SEARCH = {
    "queryType": "search",
    "service": "$trace_service",
    "tags": f"{names.ATTR_LABEL}=ungrounded",
}


def test_low_score_panels_link_to_a_jaeger_search_for_ungrounded_turns() -> None:
    linked = {
        panel["title"]: link["url"]
        for panel in panels(BOARD)
        for link in panel.get("fieldConfig", {}).get("defaults", {}).get("links", [])
        if link["title"] == "Ungrounded turns (traces)"
    }
    assert {
        "p10 score",
        "Contradicted atoms",
        "Score distribution over time",
        "p50 / p10 score by model",
        "Contradicted atoms over time",
    } <= set(linked)
    for url in linked.values():
        query = _explore_query(url)
        assert {key: query[key] for key in UNGROUNDED_SEARCH} == UNGROUNDED_SEARCH


def test_ungrounded_traces_table_searches_jaeger_on_the_label_attribute() -> None:
    (table,) = [panel for panel in panels(BOARD) if panel["datasource"]["type"] == "jaeger"]
    assert table["type"] == "table" and table["datasource"] == {"type": "jaeger", "uid": "$traces"}
    (target,) = table["targets"]
    assert {key: target[key] for key in UNGROUNDED_SEARCH} == UNGROUNDED_SEARCH
    assert target["limit"] >= 100


def test_score_distribution_requests_exemplars_in_heatmap_format() -> None:
    (heatmap,) = [panel for panel in panels(BOARD) if panel["type"] == "heatmap"]
    (target,) = heatmap["targets"]
    assert target["format"] == "heatmap" and target["exemplar"] is True
    assert heatmap["options"]["calculate"] is False
