"""Every panel query, as Grafana would send it, returns data from a Prometheus fed by the demo; the
annotation query is accepted there, and marks the service that scores with two policies in a second
Prometheus that scrapes two demo processes differing only in their policy."""

from __future__ import annotations

import json
import re
import time
from typing import Any, Protocol
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest
import yaml
from dashboard_json import Target, load, prometheus_annotations, prometheus_targets, variables
from two_policies import TwoPolicies

from dashboards import groundedness, promql

pytestmark = pytest.mark.e2e

BOARD = load()
# Wide enough to hold everything the fixture's Prometheus has scraped since it started.
LOOKBACK_S = 1800
# Grafana asks for about this many points per panel; it sets $__interval from it.
MAX_DATA_POINTS = 300
# "All" on a multi-value variable sends its allValue.
ALL = ".*"
_SELECTOR = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*\{[^}]*\}")


class RunningPrometheus(Protocol):
    url: str


def _get(prometheus: RunningPrometheus, path: str, **params: str) -> Any:
    with urlopen(f"{prometheus.url.rstrip('/')}{path}?{urlencode(params)}", timeout=10) as response:
        body = json.load(response)
    assert body["status"] == "success", body
    return body["data"]


def _seconds(duration: str) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    for suffix in sorted(units, key=len, reverse=True):
        if duration.endswith(suffix):
            return float(duration[: -len(suffix)]) * units[suffix]
    raise ValueError(duration)


def _scrape_interval_s(prometheus: RunningPrometheus) -> float:
    """The longest scrape interval Prometheus uses (what Grafana's data source setting should say)."""
    config = yaml.safe_load(_get(prometheus, "/api/v1/status/config")["yaml"])
    default = config.get("global", {}).get("scrape_interval", "1m")
    return max(_seconds(job.get("scrape_interval", default)) for job in config["scrape_configs"])


def _as_grafana_sends_it(expr: str, scrape_s: float) -> tuple[str, float]:
    """``expr`` with Grafana's interval and template variables substituted, and the query step."""
    step = max(scrape_s, LOOKBACK_S / MAX_DATA_POINTS)
    rate_interval = max(step + scrape_s, 4 * scrape_s)  # Grafana's $__rate_interval rule
    substitutions = {
        "$__rate_interval": f"{int(rate_interval)}s",
        "$__interval": f"{int(step)}s",
        "$__range": f"{LOOKBACK_S}s",
        f"${promql.SERVICE_VAR}": ALL,
        f"${promql.MODEL_VAR}": ALL,
        f"${promql.AGENT_VAR}": ALL,
        f"${promql.SCORER_VERSION_VAR}": ALL,
    }
    for variable, value in substitutions.items():
        expr = expr.replace(variable, value)
    assert "$" not in expr, f"unsubstituted Grafana variable in {expr!r}"
    return expr, step


def _series(prometheus: RunningPrometheus, target: Target, expr: str, step: float) -> list[Any]:
    now = time.time()
    if target.instant:
        result: list[Any] = _get(prometheus, "/api/v1/query", query=expr, time=f"{now:.3f}")["result"]
    else:
        result = _get(
            prometheus,
            "/api/v1/query_range",
            query=expr,
            start=f"{now - LOOKBACK_S:.3f}",
            end=f"{now:.3f}",
            step=f"{step:g}",
        )["result"]
    return result


@pytest.mark.parametrize("target", prometheus_targets(BOARD), ids=lambda target: target.name)
def test_panel_query_returns_series(prometheus_with_demo_traffic: RunningPrometheus, target: Target) -> None:
    prometheus = prometheus_with_demo_traffic
    expr, step = _as_grafana_sends_it(target.expr, _scrape_interval_s(prometheus))
    assert _series(prometheus, target, expr, step), f"{target.name}: no series for\n{expr}"
    if expr.endswith(promql.ZERO_FALLBACK):
        # The literal 0 always answers; the measured part must answer too unless its selectors match
        # nothing at all (no such event yet: counters are born with their first increment).
        measured = expr.removesuffix(promql.ZERO_FALLBACK).strip()
        if not _series(prometheus, target, measured, step):
            for selector in _SELECTOR.findall(measured):
                assert not _get(prometheus, "/api/v1/series", **{"match[]": selector}), (
                    f"{target.name}: {selector} has series but the panel query returns none"
                )


@pytest.mark.parametrize(
    "name", [promql.SERVICE_VAR, promql.MODEL_VAR, promql.AGENT_VAR, promql.SCORER_VERSION_VAR]
)
def test_template_variable_lists_values(prometheus_with_demo_traffic: RunningPrometheus, name: str) -> None:
    query = variables(BOARD)[name]["query"]
    series, label = query.removeprefix("label_values(").removesuffix(")").rsplit(", ", 1)
    selector, _ = _as_grafana_sends_it(series, _scrape_interval_s(prometheus_with_demo_traffic))
    values = _get(prometheus_with_demo_traffic, f"/api/v1/label/{label}/values", **{"match[]": selector})
    assert values, f"variable {name}: no values of {label} on {selector}"


def _annotation_series(prometheus: RunningPrometheus, annotation: dict[str, Any]) -> list[Any]:
    """The annotation's range query over the lookback as Grafana's Prometheus data source runs it: at its
    step or wider, with ``$__interval`` being that step (Grafana then turns every run of points of a
    series into one marked region)."""
    step = max(_seconds(annotation["step"]), LOOKBACK_S / MAX_DATA_POINTS)
    expr = annotation["expr"].replace("$__interval", f"{int(step)}s")
    expr, _ = _as_grafana_sends_it(expr, _scrape_interval_s(prometheus))
    target = Target(annotation["name"], "Anno", expr, instant=False)
    return _series(prometheus, target, expr, step)


@pytest.mark.parametrize(
    "annotation", prometheus_annotations(BOARD), ids=lambda annotation: annotation["name"]
)
def test_annotation_query_is_accepted(
    prometheus_with_demo_traffic: RunningPrometheus, annotation: dict[str, Any]
) -> None:
    # The demo scores with one policy per job, so no mark is expected here; Prometheus must accept and
    # evaluate the query (``_get`` fails on an error status).
    _annotation_series(prometheus_with_demo_traffic, annotation)


def _labels(sample: dict[str, Any]) -> tuple[str, str, str]:
    metric = sample["metric"]
    return metric["job"], metric[promql.EVALUATOR_VERSION_LABEL], metric[promql.POLICY_FINGERPRINT_LABEL]


def test_scorer_change_annotation_marks_the_service_with_two_policies(
    prometheus_with_two_policies: TwoPolicies,
) -> None:
    (annotation,) = prometheus_annotations(BOARD)
    setup = prometheus_with_two_policies
    found = _annotation_series(setup.prometheus, annotation)
    marked = [_labels(series) for series in found]
    # One mark per (version, fingerprint) of the changed service, none for the steady one.
    assert {job for job, _, _ in marked} == {setup.changed}, marked
    assert len({fingerprint for _, _, fingerprint in marked}) == 2 == len(marked), marked
    for series in found:
        assert series["values"][-1][1] == "1", series  # still marked at the end of the range


def test_scorer_table_shows_each_service_with_its_pairs(prometheus_with_two_policies: TwoPolicies) -> None:
    setup = prometheus_with_two_policies
    (target,) = [
        target for target in prometheus_targets(BOARD) if target.panel == groundedness.SCORER_PANEL_TITLE
    ]
    expr, step = _as_grafana_sends_it(target.expr, _scrape_interval_s(setup.prometheus))
    rows = [_labels(sample) for sample in _series(setup.prometheus, target, expr, step)]
    by_job = {
        job: sorted(fingerprint for row_job, _, fingerprint in rows if row_job == job) for job, _, _ in rows
    }
    assert set(by_job) == {setup.changed, setup.steady}, rows
    assert len(by_job[setup.changed]) == 2 and len(by_job[setup.steady]) == 1, rows
    assert set(by_job[setup.steady]) < set(by_job[setup.changed]), rows
