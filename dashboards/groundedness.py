"""The "LLM groundedness" dashboard, built with grafana-foundation-sdk from the metric specs."""

from __future__ import annotations

from typing import Any

from grafana_foundation_sdk.builders import bargauge, heatmap, prometheus, stat, table, timeseries
from grafana_foundation_sdk.builders import common as common_builders
from grafana_foundation_sdk.builders import dashboard as builders
from grafana_foundation_sdk.cog.builder import Builder
from grafana_foundation_sdk.models import common, dashboard
from grafana_foundation_sdk.models import heatmap as heatmap_models
from grafana_foundation_sdk.models import prometheus as prometheus_models

from dashboards import promql as q
from dashboards.traces import JaegerSearchBuilder, explore_url
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.prometheus_names import family_name

UID = "llm-groundedness"
# Threshold of the GroundednessUngroundedShareHigh Prometheus alert (collector-config/prometheus/).
UNGROUNDED_SHARE_ALERT = 0.10
# Threshold of the GroundednessP10ScoreLow alert; a p10 below it colours the p10 panel.
LOW_SCORE = 0.5
TITLE = "LLM groundedness"

_PROMETHEUS = dashboard.DataSourceRef(type_val="prometheus", uid=f"${q.DATASOURCE_VAR}")
_TRACES = dashboard.DataSourceRef(type_val="jaeger", uid=f"${q.TRACES_DATASOURCE_VAR}")
# Every evaluated turn increments this counter, so its labels list every service, model and agent.
_TURNS_SERIES = family_name(names.METRIC_TURNS)
# A service with more than one (scorer version, policy fingerprint) within this window is marked as
# changed; the mark lasts this long after the old pair's last sample. The window is the larger of this
# and $__interval, Grafana's step for the annotation query (at least SCORER_CHANGE_STEP, about the
# range over the screen width on long ranges), so no change falls between two steps.
SCORER_CHANGE_WINDOW = "10m"
SCORER_CHANGE_STEP = "60s"
SCORER_CHANGE_ANNOTATION = "Scorer or policy changed"
SCORER_PANEL_TITLE = "Scorer version and policy per service"


def build() -> dashboard.Dashboard:
    """The dashboard model; panel ids are assigned in layout order."""
    board = (
        builders.Dashboard(TITLE)
        .uid(UID)
        .description("Are the agent's answers faithful to the hard facts its own tools returned?")
        .tags(["genai", "groundedness", "opentelemetry"])
        .time("now-6h", "now")
        .refresh("1m")
        .tooltip(dashboard.DashboardCursorSync.CROSSHAIR)
        .readonly()
        .variables(_variables())
        .annotation(_scorer_change_annotation())
        .link(
            builders.DashboardLink("Ungrounded turns (traces)")
            .type(dashboard.DashboardLinkType.LINK)
            .url(explore_url())
            .icon("external link")
            .keep_time(False)
            .target_blank(True)
        )
    )
    for row_title, panels in _rows():
        board = board.with_row(builders.Row(row_title))
        for panel in panels:
            board = board.with_panel(panel)
    model = board.build()
    for panel_id, placed in enumerate(model.panels or [], start=1):
        placed.id_val = panel_id
    return model


def _rows() -> list[tuple[str, list[Builder[dashboard.Panel]]]]:
    return [
        ("Overview", _overview()),
        ("Score distribution", _distribution()),
        ("Labels and atoms", _labels_and_atoms()),
        ("Ungrounded turns", [_ungrounded_traces()]),
        ("Processor health", _health()),
    ]


def _variables() -> list[Builder[dashboard.VariableModel]]:
    def label_values(
        name: str, label: str, series: str, title: str, help_text: str
    ) -> builders.QueryVariable:
        return (
            builders.QueryVariable(name)
            .label(title)
            .description(help_text)
            .datasource(_PROMETHEUS)
            .query(f"label_values({series}, {label})")
            .refresh(dashboard.VariableRefresh.ON_TIME_RANGE_CHANGED)
            .sort(dashboard.VariableSort.ALPHABETICAL_ASC)
            .multi(True)
            .include_all(True)
            .all_value(".*")
        )

    turns = _TURNS_SERIES
    return [
        builders.DatasourceVariable(q.DATASOURCE_VAR).label("Metrics").type("prometheus"),
        builders.DatasourceVariable(q.TRACES_DATASOURCE_VAR).label("Traces").type("jaeger"),
        builders.QueryVariable(q.TRACE_SERVICE_VAR)
        .label("Trace service")
        .description(
            "The service.name the trace searches run on (Jaeger searches one service at a time): the "
            "Prometheus job, which the Collector's exporter sets from service.name"
        )
        .datasource(_PROMETHEUS)
        .query(f"label_values({turns}, {q.SERVICE_LABEL})")
        .refresh(dashboard.VariableRefresh.ON_TIME_RANGE_CHANGED)
        .sort(dashboard.VariableSort.ALPHABETICAL_ASC),
        label_values(q.SERVICE_VAR, q.SERVICE_LABEL, turns, "Service", "Prometheus job of the scored app"),
        label_values(
            q.MODEL_VAR,
            q.MODEL_LABEL,
            f'{turns}{{{q.SERVICE_LABEL}=~"${q.SERVICE_VAR}"}}',
            "Model",
            "Requested model (gen_ai.request.model)",
        ),
        label_values(
            q.AGENT_VAR,
            q.AGENT_LABEL,
            f'{turns}{{{q.SERVICE_LABEL}=~"${q.SERVICE_VAR}", {q.MODEL_LABEL}=~"${q.MODEL_VAR}"}}',
            "Agent",
            "Agent name (gen_ai.agent.name)",
        ),
        label_values(
            q.SCORER_VERSION_VAR,
            q.EVALUATOR_VERSION_LABEL,
            f'{turns}{{{q.SERVICE_LABEL}=~"${q.SERVICE_VAR}"}}',
            "Scorer version",
            "Version of otel-groundedness that scored the turns (groundedness.evaluator.version)",
        ),
    ]


class _PrometheusAnnotationQuery(dashboard.AnnotationQuery):
    """A dashboard annotation on a Prometheus data source. The Grafana 11.6 schema types only the keys
    every annotation has (and ``expr``); the Prometheus data source also reads ``step``,
    ``titleFormat``, ``textFormat`` and ``tagKeys`` from the same object, so they are added here."""

    def __init__(self, *, step: str, title_format: str, text_format: str, tag_keys: str, **base: Any) -> None:
        super().__init__(**base)
        self.step = step
        self.title_format = title_format
        self.text_format = text_format
        self.tag_keys = tag_keys

    def to_json(self) -> dict[str, object]:
        payload = super().to_json()
        payload.update(
            step=self.step, titleFormat=self.title_format, textFormat=self.text_format, tagKeys=self.tag_keys
        )
        return payload


class _Built(Builder[dashboard.AnnotationQuery]):
    """A builder for a model made directly (the SDK has no builder for datasource-specific annotations)."""

    def __init__(self, model: dashboard.AnnotationQuery) -> None:
        self._model = model

    def build(self) -> dashboard.AnnotationQuery:
        return self._model


def _scorer_change_annotation() -> Builder[dashboard.AnnotationQuery]:
    version = f"{{{{{q.EVALUATOR_VERSION_LABEL}}}}}"
    fingerprint = f"{{{{{q.POLICY_FINGERPRINT_LABEL}}}}}"
    return _Built(
        _PrometheusAnnotationQuery(
            name=SCORER_CHANGE_ANNOTATION,
            datasource=_PROMETHEUS,
            enable=True,
            icon_color="purple",
            expr=q.several_label_sets(
                names.METRIC_EVALUATOR_INFO,
                q.EVALUATOR_VERSION_LABEL,
                q.POLICY_FINGERPRINT_LABEL,
                windows=(SCORER_CHANGE_WINDOW, q.INTERVAL_WINDOW),
            ),
            step=SCORER_CHANGE_STEP,
            title_format=f"Scorer or policy changed: {{{{{q.SERVICE_LABEL}}}}}",
            text_format=(
                f"{{{{{q.SERVICE_LABEL}}}}} scored with more than one (scorer version, policy) within "
                f"{SCORER_CHANGE_WINDOW} of this time. This mark is for version {version}, policy "
                f"{fingerprint}; there is one per pair, old and new. A score that moves here may have moved "
                "because the scorer did, not the answers: compare the pairs in "
                f'"{SCORER_PANEL_TITLE}".'
            ),
            tag_keys=q.SERVICE_LABEL,
        )
    )


def _query(ref_id: str, expr: str, legend: str = "") -> prometheus.Dataquery:
    query = prometheus.Dataquery().ref_id(ref_id).expr(expr).datasource(_PROMETHEUS).range()
    return query.legend_format(legend) if legend else query


def _instant(ref_id: str, expr: str, legend: str = "") -> prometheus.Dataquery:
    return _query(ref_id, expr, legend).instant()


def _thresholds(*steps: tuple[float | None, str]) -> builders.ThresholdsConfig:
    return (
        builders.ThresholdsConfig()
        .mode(dashboard.ThresholdsMode.ABSOLUTE)
        .steps([dashboard.Threshold(value=value, color=color) for value, color in steps])
    )


def _ungrounded_link() -> builders.DashboardLink:
    """Every ungrounded turn: those scoring below min_alert_score and those with a contradicted atom."""
    return builders.DashboardLink("Ungrounded turns (traces)").url(explore_url()).target_blank(True)


def _stat(title: str, description: str, expr: str) -> stat.Panel:
    return (
        stat.Panel()
        .title(title)
        .description(description)
        .datasource(_PROMETHEUS)
        .with_target(_instant("A", expr))
        .span(6)
        .height(4)
        .graph_mode(common.BigValueGraphMode.NONE)
        .color_mode(common.BigValueColorMode.BACKGROUND)
        .reduce_options(common_builders.ReduceDataOptions().calcs(["lastNotNull"]).values(False))
    )


def _timeseries(title: str, description: str, width: int = 12) -> timeseries.Panel:
    return (
        timeseries.Panel()
        .title(title)
        .description(description)
        .datasource(_PROMETHEUS)
        .span(width)
        .height(8)
        .legend(
            common_builders.VizLegendOptions()
            .display_mode(common.LegendDisplayMode.LIST)
            .placement(common.LegendPlacement.BOTTOM)
            .show_legend(True)
        )
    )


def _overview() -> list[Builder[dashboard.Panel]]:
    turns = names.METRIC_TURNS
    score = names.METRIC_SCORE
    ungrounded = {q.SCORE_LABEL: q.eq(q.LABEL_UNGROUNDED)}
    scored = {q.SCORE_LABEL: q.not_regex(f"{q.LABEL_NO_EVIDENCE}|{q.LABEL_NO_FACTUAL_CONTENT}")}
    contradicted = {q.ATOM_VERDICT_LABEL: q.eq(q.VERDICT_CONTRADICTED)}
    return [
        _stat(
            "Turns evaluated",
            "Agent turns the processor evaluated in the selected range, whatever their label. Healthy: "
            "follows your GenAI traffic; zero while the agent is busy means the processor is not scoring.",
            q.sum_of("increase", turns, window=q.RANGE_WINDOW),
        ).unit("short"),
        _stat(
            "Ungrounded share",
            "Share of scored turns (no_evidence and no_factual_content left out) labelled ungrounded: a "
            "contradicted fact or too few supported ones. Healthy: a few percent at most; red from "
            f"{UNGROUNDED_SHARE_ALERT:.0%}, where the GroundednessUngroundedShareHigh alert fires.",
            f"{q.sum_of('increase', turns, window=q.RANGE_WINDOW, matchers=ungrounded)}\n"
            f"/ {q.sum_of('increase', turns, window=q.RANGE_WINDOW, matchers=scored)}",
        )
        .unit("percentunit")
        .thresholds(
            _thresholds(
                (None, "green"), (UNGROUNDED_SHARE_ALERT / 2, "orange"), (UNGROUNDED_SHARE_ALERT, "red")
            )
        ),
        _stat(
            "p10 score",
            "Tenth-percentile groundedness score of scored turns in the range: 90% of answers do at "
            f"least this well. Healthy: close to 1; below {LOW_SCORE} means a tenth of the answers state "
            "facts their tools did not return. Click through to the ungrounded turns.",
            q.quantile(0.1, score, function="increase", window=q.RANGE_WINDOW),
        )
        .unit("percentunit")
        .min(0)
        .max(1)
        .thresholds(_thresholds((None, "red"), (LOW_SCORE, "orange"), (0.9, "green")))
        .data_links([_ungrounded_link()]),
        _stat(
            "Contradicted atoms",
            "Hard facts (amounts, percents, numbers, dates, ids) in answers that conflict with a tool result "
            "of the same turn, e.g. a transposed invoice total. Healthy: 0; every one is worth a look.",
            q.sum_of("increase", names.METRIC_ATOMS, window=q.RANGE_WINDOW, matchers=contradicted),
        )
        .unit("short")
        .no_value("0")
        .thresholds(_thresholds((None, "green"), (1, "red")))
        .data_links([_ungrounded_link()]),
    ]


def _distribution() -> list[Builder[dashboard.Panel]]:
    score = names.METRIC_SCORE
    buckets = q.sum_of("increase", score, "le", suffix="_bucket")
    by_model = f"{{{{{q.MODEL_LABEL}}}}}"
    by_agent = f"{{{{{q.AGENT_LABEL}}}}}"
    return [
        heatmap.Panel()
        .title("Score distribution over time")
        .description(
            "How many scored turns fell in each score bucket per time slice (turns with no evidence or no "
            "factual content are not scored). Healthy: the mass sits in the top row (score 1); a band "
            "growing near the bottom means answers are drifting from their tool results. Exemplar dots "
            "(when the metrics path keeps them) open the trace."
        )
        .datasource(_PROMETHEUS)
        .with_target(
            _query("A", buckets, "{{le}}").format(prometheus_models.PromQueryFormat.HEATMAP).exemplar(True)
        )
        .calculate(False)
        .rows_frame(heatmap.RowsHeatmapOptions().layout(common.HeatmapCellLayout.LE))
        .y_axis(heatmap.YAxisConfig().unit("percentunit").decimals(2))
        .color(
            heatmap.HeatmapColorOptions()
            .mode(heatmap_models.HeatmapColorMode.SCHEME)
            .scheme("Oranges")
            .steps(64)
        )
        .cell_gap(1)
        .data_links([_ungrounded_link()])
        .span(16)
        .height(9),
        bargauge.Panel()
        .title("Score histogram")
        .description(
            "Scored turns per score bucket over the whole selected range. Healthy: one tall bar at the "
            f"top bucket; bars below {LOW_SCORE} are answers with unsupported or contradicted facts."
        )
        .datasource(_PROMETHEUS)
        .with_target(
            _instant(
                "A", q.sum_of("increase", score, "le", suffix="_bucket", window=q.RANGE_WINDOW), "{{le}}"
            ).format(prometheus_models.PromQueryFormat.HEATMAP)
        )
        .orientation(common.VizOrientation.HORIZONTAL)
        .display_mode(common.BarGaugeDisplayMode.GRADIENT)
        .reduce_options(common_builders.ReduceDataOptions().calcs(["lastNotNull"]).values(False))
        .unit("short")
        .min(0)
        .span(8)
        .height(9),
        _timeseries(
            "p50 / p10 score by model",
            "Median and tenth-percentile score per requested model. Healthy: p50 at 1 and p10 close to 1; a "
            "model whose p10 drops after a rollout is inventing figures. Click a point for the ungrounded "
            "turns.",
        )
        .with_target(_query("A", q.quantile(0.5, score, q.MODEL_LABEL), f"p50 {by_model}"))
        .with_target(_query("B", q.quantile(0.1, score, q.MODEL_LABEL), f"p10 {by_model}"))
        .unit("percentunit")
        .min(0)
        .max(1)
        .data_links([_ungrounded_link()]),
        _timeseries(
            "p50 / p10 score by agent",
            "Median and tenth-percentile score per agent. Healthy: p50 at 1 and p10 close to 1; compare "
            "agents sharing a model to tell a prompt or tool problem from a model problem.",
        )
        .with_target(_query("A", q.quantile(0.5, score, q.AGENT_LABEL), f"p50 {by_agent}"))
        .with_target(_query("B", q.quantile(0.1, score, q.AGENT_LABEL), f"p10 {by_agent}"))
        .unit("percentunit")
        .min(0)
        .max(1)
        .data_links([_ungrounded_link()]),
    ]


def _labels_and_atoms() -> list[Builder[dashboard.Panel]]:
    turns = names.METRIC_TURNS
    atoms = names.METRIC_ATOMS
    vacuous = {q.SCORE_LABEL: q.regex(f"{q.LABEL_NO_EVIDENCE}|{q.LABEL_NO_FACTUAL_CONTENT}")}
    contradicted = {q.ATOM_VERDICT_LABEL: q.eq(q.VERDICT_CONTRADICTED)}
    return [
        _timeseries(
            "Share of turns per label",
            "Fraction of evaluated turns per label (grounded, partially_grounded, ungrounded, no_evidence, "
            "no_factual_content); the stack adds up to 100%. Healthy: mostly grounded; ungrounded growing "
            "is the regression to chase.",
        )
        .with_target(_query("A", q.share_by(q.SCORE_LABEL, turns), f"{{{{{q.SCORE_LABEL}}}}}"))
        .unit("percentunit")
        .min(0)
        .max(1)
        .stacking(common_builders.StackingConfig().mode(common.StackingMode.NORMAL))
        .fill_opacity(40),
        _timeseries(
            "Turns with no evidence / no factual content",
            "Turns the scorer could not judge: no tool result to check against (no_evidence) or an answer "
            "without hard facts (no_factual_content). They carry no score. Healthy: a steady trickle; a "
            "jump in no_evidence usually means tool results stopped being captured (content capture off "
            "or a new instrumentation version).",
        )
        .with_target(
            _query(
                "A",
                q.zero_if_absent(q.sum_of("rate", turns, q.SCORE_LABEL, matchers=vacuous)),
                f"{{{{{q.SCORE_LABEL}}}}}",
            )
        )
        .unit("suffix: turns/s"),
        bargauge.Panel()
        .title("Atoms by kind and verdict")
        .description(
            "Hard facts checked in the range, by kind (money, percent, number, date, identifier, time) and "
            "verdict. Healthy: almost all supported; contradicted means a tool said otherwise, "
            "unsupported means no tool result mentions it at all."
        )
        .datasource(_PROMETHEUS)
        .with_target(
            _instant(
                "A",
                q.sum_of("increase", atoms, q.ATOM_KIND_LABEL, q.ATOM_VERDICT_LABEL, window=q.RANGE_WINDOW),
                f"{{{{{q.ATOM_KIND_LABEL}}}}} {{{{{q.ATOM_VERDICT_LABEL}}}}}",
            )
        )
        .orientation(common.VizOrientation.HORIZONTAL)
        .display_mode(common.BarGaugeDisplayMode.BASIC)
        .reduce_options(common_builders.ReduceDataOptions().calcs(["lastNotNull"]).values(False))
        .unit("short")
        .min(0)
        .span(12)
        .height(8),
        _timeseries(
            "Contradicted atoms over time",
            "Facts contradicting a tool result of the same turn, per kind and time slice. Healthy: flat at "
            "zero. Spikes are the costliest failure (transposed totals, shifted dates, one-edit ids); "
            "click a bar for the traces.",
        )
        .with_target(
            _query(
                "A",
                q.sum_of("increase", atoms, q.ATOM_KIND_LABEL, matchers=contradicted),
                f"{{{{{q.ATOM_KIND_LABEL}}}}}",
            )
        )
        .draw_style(common.GraphDrawStyle.BARS)
        .fill_opacity(80)
        .unit("short")
        .data_links([_ungrounded_link()]),
    ]


def _ungrounded_traces() -> Builder[dashboard.Panel]:
    return (
        table.Panel()
        .title("Traces with an ungrounded turn")
        .description(
            "Recent traces of the chosen trace service whose scored span is labelled ungrounded "
            "(gen_ai.evaluation.groundedness.label: a contradicted figure, or a score below "
            "min_alert_score). The Collector's tail sampling keeps all of them. Healthy: empty or a "
            "handful; open one to see the answer, its tool results and the gen_ai.evaluation.result "
            "event naming the contradicted figure."
        )
        .datasource(_TRACES)
        .with_target(JaegerSearchBuilder("A"))
        .span(24)
        .height(8)
    )


def _health() -> list[Builder[dashboard.Panel]]:
    duration = names.METRIC_DURATION
    return [
        _timeseries(
            "Scorer latency",
            "Wall time to score one turn on the worker thread (never on the app's thread). Healthy: p99 "
            "in the low milliseconds; growth means very large tool results or answers.",
            width=6,
        )
        .with_target(_query("A", q.quantile(0.5, duration), "p50"))
        .with_target(_query("B", q.quantile(0.99, duration), "p99"))
        .unit("s"),
        _timeseries(
            "Scoring queue",
            "Spans waiting for the scorer and spans forwarded unscored because the queue was full. "
            "Healthy: size near zero, drops zero; steady drops mean the scorer cannot keep up with traffic "
            "(raise the queue size or sample).",
            width=6,
        )
        .with_target(_query("A", f"max({q.selector(names.METRIC_QUEUE_SIZE)})", "queued spans"))
        .with_target(
            _query("B", q.zero_if_absent(q.sum_of("rate", names.METRIC_QUEUE_DROPPED)), "dropped spans/s")
        )
        .unit("short"),
        _timeseries(
            "Skipped turns by reason",
            "GenAI spans not scored, by reason (no_answer, content_not_captured, malformed, duplicate, "
            "not_final, ...). Healthy: zero or only structural skips (not_final, duplicate); tool-calling "
            "steps are no skips; no_answer means answer spans came back empty or filtered; "
            "content_not_captured means message content capture is off, so nothing can be checked.",
            width=6,
        )
        .with_target(
            _query(
                "A",
                q.zero_if_absent(q.sum_of("rate", names.METRIC_SKIPPED, q.SKIP_REASON_LABEL)),
                f"{{{{{q.SKIP_REASON_LABEL}}}}}",
            )
        )
        .unit("suffix: spans/s"),
        _timeseries(
            "Pairing buffer evictions",
            "Traces dropped from the pairing buffer before their answer arrived, by reason (max_traces, "
            "max_bytes, ttl). Healthy: zero; evictions mean turns longer than the TTL or more concurrent "
            "traces than the buffer holds.",
            width=6,
        )
        .with_target(
            _query(
                "A",
                q.zero_if_absent(q.sum_of("rate", names.METRIC_EVICTED, q.EVICTION_REASON_LABEL)),
                f"{{{{{q.EVICTION_REASON_LABEL}}}}}",
            )
        )
        .unit("suffix: traces/s"),
        _scorer_table(),
    ]


def _scorer_table() -> Builder[dashboard.Panel]:
    info = names.METRIC_EVALUATOR_INFO
    columns = {
        q.SERVICE_LABEL: "Service",
        q.EVALUATOR_VERSION_LABEL: "Scorer version",
        q.POLICY_FINGERPRINT_LABEL: "Policy fingerprint",
    }
    return (
        table.Panel()
        .title(SCORER_PANEL_TITLE)
        .description(
            "The otel-groundedness version and the policy fingerprint (a hash of every scoring setting) "
            "each service scores with now, from groundedness.evaluator.info; every scorer version is "
            "listed, whatever the Scorer version variable says. Healthy: one row per service, with the "
            "version and policy you deployed. Two rows for one service: its processes disagree (a rollout "
            "in progress, a canary) or, through the Collector, the old pair has not expired yet (up to its "
            f'metric_expiration after a restart). The "{SCORER_CHANGE_ANNOTATION}" annotation marks '
            "when a new pair appeared; scores that move there may reflect the scorer, not the answers."
        )
        .datasource(_PROMETHEUS)
        .with_target(
            _instant("A", q.label_sets(info, q.EVALUATOR_VERSION_LABEL, q.POLICY_FINGERPRINT_LABEL)).format(
                prometheus_models.PromQueryFormat.TABLE
            )
        )
        .with_transformation(
            dashboard.DataTransformerConfig(
                id_val="organize",
                options={
                    "excludeByName": {"Time": True, "Value": True},
                    "indexByName": {label: index for index, label in enumerate(columns)},
                    "renameByName": columns,
                },
            )
        )
        .sort_by([common_builders.TableSortByFieldState().display_name(columns[q.SERVICE_LABEL])])
        .span(24)
        .height(6)
    )
