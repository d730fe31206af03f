"""Prometheus series and label names for every metric in ``names.METRICS``.

Both the Collector's ``prometheus`` exporter and the Python ``PrometheusMetricReader`` expose the same
names (verified live by tests/e2e); alert rules and dashboards take their names from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from otel_groundedness.telemetry.names import METRICS, MetricSpec

# Unit suffixes both exporters append. Annotations in braces ({turn}) add nothing, and unit "1"
# adds "_ratio" only to gauges, which none of our dimensionless instruments are (checked below).
_UNIT_SUFFIXES = {"s": "seconds", "1": "", "By": "bytes"}
_INVALID_NAME_CHARS = re.compile(r"[^a-zA-Z0-9_]")

# Semantic-convention metrics of the GenAI instrumentation libraries, not emitted by this package; the
# "no evaluations while GenAI traffic flows" alert compares against the first.
_GENAI_CLIENT_ATTRS = (
    "gen_ai.operation.name",
    "gen_ai.provider.name",
    "gen_ai.request.model",
    "gen_ai.response.model",
)
GENAI_CLIENT_OPERATION_DURATION = MetricSpec(
    "gen_ai.client.operation.duration",
    "histogram",
    "s",
    "GenAI client operation duration",
    _GENAI_CLIENT_ATTRS,
)
GENAI_CLIENT_TOKEN_USAGE = MetricSpec(
    "gen_ai.client.token.usage",
    "histogram",
    "{token}",
    "Input and output tokens per GenAI client operation",
    (*_GENAI_CLIENT_ATTRS, "gen_ai.token.type"),
)
UPSTREAM_METRICS: tuple[MetricSpec, ...] = (GENAI_CLIENT_OPERATION_DURATION, GENAI_CLIENT_TOKEN_USAGE)


@dataclass(frozen=True, slots=True)
class PrometheusMetric:
    """How one OpenTelemetry instrument appears in a Prometheus scrape."""

    spec: MetricSpec
    family: str
    series: tuple[str, ...]
    labels: tuple[str, ...]


def label_name(attribute_key: str) -> str:
    """The Prometheus label an OpenTelemetry attribute key becomes (dots and dashes to underscores)."""
    return _INVALID_NAME_CHARS.sub("_", attribute_key)


def family_name(spec: MetricSpec) -> str:
    """The metric family name: sanitised name, unit suffix, and ``_total`` for counters."""
    if spec.unit.startswith("{") and spec.unit.endswith("}"):
        suffix = ""
    elif spec.unit in _UNIT_SUFFIXES:
        suffix = _UNIT_SUFFIXES[spec.unit]
    else:
        raise ValueError(f"no Prometheus naming rule for unit {spec.unit!r} of {spec.name}")
    if spec.unit == "1" and spec.instrument == "observable_gauge":
        raise ValueError(f"{spec.name}: a dimensionless gauge would gain _ratio; add that rule first")
    base = _INVALID_NAME_CHARS.sub("_", spec.name)
    if suffix and not base.endswith("_" + suffix):
        base = f"{base}_{suffix}"
    if spec.instrument == "counter":
        base += "_total"
    return base


def prometheus_metric(spec: MetricSpec) -> PrometheusMetric:
    """The family, the series names a scrape exposes, and the label names of one instrument."""
    family = family_name(spec)
    if spec.instrument == "histogram":
        series: tuple[str, ...] = (f"{family}_bucket", f"{family}_sum", f"{family}_count")
    else:
        series = (family,)
    return PrometheusMetric(spec, family, series, tuple(label_name(key) for key in spec.attributes))


PROMETHEUS_METRICS: dict[str, PrometheusMetric] = {spec.name: prometheus_metric(spec) for spec in METRICS}
UPSTREAM_PROMETHEUS_METRICS: dict[str, PrometheusMetric] = {
    spec.name: prometheus_metric(spec) for spec in UPSTREAM_METRICS
}


def series_owner(series: str) -> MetricSpec | None:
    """The spec (ours or upstream) that exposes a Prometheus series name, or None if no spec does."""
    for metric in (*PROMETHEUS_METRICS.values(), *UPSTREAM_PROMETHEUS_METRICS.values()):
        if series in metric.series:
            return metric.spec
    return None
