"""PromQL building blocks for the dashboards: series and label names come from ``telemetry.names``.

Every metric and label name a panel uses is derived from a ``MetricSpec`` here, so renaming an
instrument changes the generated JSON (and fails the committed-JSON test) instead of silently
breaking a panel.
"""

from __future__ import annotations

from collections.abc import Mapping

from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.names import MetricSpec
from otel_groundedness.telemetry.prometheus_names import family_name, label_name

# Grafana template variables; each one filters one label.
SERVICE_VAR = "service"
MODEL_VAR = "model"
AGENT_VAR = "agent"
SCORER_VERSION_VAR = "scorer_version"
DATASOURCE_VAR = "datasource"
TRACES_DATASOURCE_VAR = "traces"
# The one service.name a trace search runs on (Jaeger requires one).
TRACE_SERVICE_VAR = "trace_service"

# `job` is what both the Collector's exporter (from service.name) and a direct scrape of the
# app's endpoint (the scrape job) put on every series.
SERVICE_LABEL = "job"
MODEL_LABEL = label_name(names.ATTR_REQUEST_MODEL)
AGENT_LABEL = label_name(names.ATTR_AGENT_NAME)
SCORE_LABEL = label_name(names.ATTR_EVALUATION_SCORE_LABEL)
ATOM_KIND_LABEL = label_name(names.ATTR_ATOM_KIND)
ATOM_VERDICT_LABEL = label_name(names.ATTR_ATOM_VERDICT)
SKIP_REASON_LABEL = label_name(names.ATTR_SKIP_REASON)
EVICTION_REASON_LABEL = label_name(names.ATTR_EVICTION_REASON)
EVALUATOR_VERSION_LABEL = label_name(names.ATTR_METRIC_EVALUATOR_VERSION)
POLICY_FINGERPRINT_LABEL = label_name(names.ATTR_METRIC_POLICY_FINGERPRINT)

# Values of the label and verdict attributes the scorer writes.
LABEL_NO_EVIDENCE = "no_evidence"
LABEL_NO_FACTUAL_CONTENT = "no_factual_content"
LABEL_UNGROUNDED = "ungrounded"
VERDICT_CONTRADICTED = "contradicted"

ZERO_FALLBACK = "or vector(0)"
RATE_WINDOW = "$__rate_interval"
RANGE_WINDOW = "$__range"
INTERVAL_WINDOW = "$__interval"


def eq(value: str) -> str:
    """An exact label matcher (``="value"``)."""
    return f'="{value}"'


def regex(pattern: str) -> str:
    """A regex label matcher (``=~"pattern"``)."""
    return f'=~"{pattern}"'


def not_regex(pattern: str) -> str:
    """A negated regex label matcher (``!~"pattern"``)."""
    return f'!~"{pattern}"'


def selector(
    spec: MetricSpec,
    suffix: str = "",
    matchers: Mapping[str, str] | None = None,
    *,
    every_version: bool = False,
) -> str:
    """``series{filters}``: the dashboard's template-variable filters plus ``matchers``.

    Model and agent filters apply only to instruments that carry those attributes; the health
    instruments are per process and are filtered by service alone. The scorer version filter applies
    to every instrument that carries the evaluator version, unless ``every_version`` (the provenance
    queries, whose point is to show every version there is).
    """
    filters = {SERVICE_LABEL: regex(f"${SERVICE_VAR}")}
    if names.ATTR_REQUEST_MODEL in spec.attributes:
        filters[MODEL_LABEL] = regex(f"${MODEL_VAR}")
    if names.ATTR_AGENT_NAME in spec.attributes:
        filters[AGENT_LABEL] = regex(f"${AGENT_VAR}")
    if names.ATTR_METRIC_EVALUATOR_VERSION in spec.attributes and not every_version:
        filters[EVALUATOR_VERSION_LABEL] = regex(f"${SCORER_VERSION_VAR}")
    filters.update(matchers or {})
    body = ", ".join(label + matcher for label, matcher in filters.items())
    return f"{family_name(spec)}{suffix}{{{body}}}"


def by(*labels: str) -> str:
    """A `` by (...)`` clause; empty when no labels are given (aggregate everything)."""
    return f" by ({', '.join(labels)})" if labels else ""


def sum_of(
    function: str,
    spec: MetricSpec,
    *group: str,
    suffix: str = "",
    window: str = RATE_WINDOW,
    matchers: Mapping[str, str] | None = None,
) -> str:
    """``sum by (group) (function(series[window]))``, e.g. the rate or increase of a counter."""
    return f"sum{by(*group)} ({function}({selector(spec, suffix, matchers)}[{window}]))"


def quantile(
    q: float, spec: MetricSpec, *group: str, function: str = "rate", window: str = RATE_WINDOW
) -> str:
    """``histogram_quantile`` of a histogram instrument, one series per ``group`` value."""
    buckets = sum_of(function, spec, "le", *group, suffix="_bucket", window=window)
    return f"histogram_quantile({q}, {buckets})"


def zero_if_absent(expr: str) -> str:
    """``expr`` or a literal 0: a counter series is born with its first increment, so rare events
    (drops, evictions, unjudgeable turns) have none until then, and "0" reads better than "No data"."""
    return f"{expr} {ZERO_FALLBACK}"


def share_by(label: str, spec: MetricSpec, window: str = RATE_WINDOW) -> str:
    """Fraction of a counter's rate falling on each value of ``label`` (values sum to 1)."""
    return (
        f"{sum_of('rate', spec, label, window=window)}\n"
        f"/ ignoring({label}) group_left\n"
        f"{sum_of('rate', spec, window=window)}"
    )


def label_sets(spec: MetricSpec, *labels: str, windows: tuple[str, ...] = ()) -> str:
    """One series (value 1) per service and combination of ``labels`` of an info-style instrument, for
    every version whatever the Scorer version variable says. With ``windows``, every combination seen
    in the longest of them (``last_over_time`` over each, joined by ``or``), not only the current ones;
    several windows give "the larger of" durations PromQL cannot compare, e.g. a floor and
    ``$__interval``."""
    series = selector(spec, every_version=True)
    if windows:
        series = " or ".join(f"last_over_time({series}[{window}])" for window in windows)
    return f"group{by(SERVICE_LABEL, *labels)} ({series})"


def several_label_sets(spec: MetricSpec, *labels: str, windows: tuple[str, ...]) -> str:
    """The ``label_sets`` seen within ``windows`` of each service that had more than one of them there:
    a service whose combination changed (or whose processes disagree) keeps a series per combination,
    old and new, until the old one is older than the window; a service with one keeps none."""
    sets = label_sets(spec, *labels, windows=windows)
    return f"{sets}\nand on ({SERVICE_LABEL})\n(count{by(SERVICE_LABEL)} ({sets}) > 1)"
