"""The processor's metric instruments, created from ``names.METRICS`` through the OTel Metrics API.

Each recording keeps only the attribute keys its ``MetricSpec`` lists, so ids or content can never
leak into metric attributes. Histograms carry explicit bucket advice (the SDK's default buckets would
put every 0..1 score into one bucket). Counters are tallied in the process and reported by observable
counters (``tally.py``): the same exported sums at a fraction of the cost per scored turn.

A scored turn is recorded in the context of its span (rebuilt from its ``SpanContext``: scoring runs
after the span ended, on a worker), so the SDK's exemplar filter (trace-based by default: sampled
spans only) gives its data points exemplars that lead to the turn's trace.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from opentelemetry.context import Context
from opentelemetry.metrics import (
    CallbackOptions,
    Histogram,
    Meter,
    MeterProvider,
    Observation,
    get_meter,
)
from opentelemetry.trace import NonRecordingSpan, SpanContext, set_span_in_context

from otel_groundedness.evaluator import Evaluator
from otel_groundedness.records import TurnContext
from otel_groundedness.scoring import GroundednessReport
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.tally import SeriesKey, Tally, series_key

METER_NAME = names.INSTRUMENTATION_SCOPE

_BUCKETS: Mapping[str, tuple[float, ...]] = {
    names.METRIC_SCORE.name: names.SCORE_BUCKETS,
    names.METRIC_DURATION.name: names.LATENCY_BUCKETS_S,
}
_UNSCORED_LABELS = frozenset({"no_evidence", "no_factual_content"})


_ATOM_KIND, _ATOM_VERDICT = names.ATTR_ATOM_KIND, names.ATTR_ATOM_VERDICT
# The atoms counter's labels that come from the turn: selected once for every kind and verdict.
_ATOM_TURN_KEYS = tuple(
    key for key in names.METRIC_ATOMS.attributes if key not in (_ATOM_KIND, _ATOM_VERDICT)
)


def _select(keys: tuple[str, ...], labels: Mapping[str, Any]) -> dict[str, Any]:
    """The ``labels`` (set and capped already) an instrument keeps."""
    return {key: labels[key] for key in keys if key in labels}


def capped(value: Any) -> Any:
    # Provider, model and agent names are copied from spans: a long one must not become a label.
    if isinstance(value, str) and len(value) > names.MAX_METRIC_ATTRIBUTE_CHARS:
        return value[: names.MAX_METRIC_ATTRIBUTE_CHARS]
    return value


# Distinct turn label sets remembered; a new one past it starts the memory again.
_MAX_TURN_LABELS = 256


class _TurnLabels:
    """What each instrument records a turn's labels as: the attributes (histograms) and the series
    key (tallies), the atoms' by kind and verdict as they are met."""

    __slots__ = ("_atoms", "_turn", "budget", "duration", "score", "turns")

    def __init__(self, turn: dict[str, Any]) -> None:
        self._turn = turn
        self.turns = series_key(_select(names.METRIC_TURNS.attributes, turn))
        self.budget = series_key(_select(names.METRIC_BUDGET_EXCEEDED.attributes, turn))
        self.score = _select(names.METRIC_SCORE.attributes, turn)
        self.duration = _select(names.METRIC_DURATION.attributes, turn)
        self._atoms: dict[tuple[str, str], SeriesKey] = {}

    def atoms(self, kind_verdict: tuple[str, str]) -> SeriesKey:
        key = self._atoms.get(kind_verdict)
        if key is None:
            kind, verdict = kind_verdict
            values = {
                **_select(_ATOM_TURN_KEYS, self._turn),
                _ATOM_KIND: capped(kind),
                _ATOM_VERDICT: capped(verdict),
            }
            key = self._atoms[kind_verdict] = series_key(values)
        return key


class GroundednessInstruments:
    """Typed recording methods over the instruments in ``names.METRICS``."""

    def __init__(
        self, meter_provider: MeterProvider | None, queue_size: Callable[[], int], evaluator: Evaluator
    ) -> None:
        meter = get_meter(METER_NAME, meter_provider=meter_provider)
        self._queue_size = queue_size
        self._evaluator = evaluator
        self._counters: dict[str, Tally] = {}
        self._turn_labels: dict[tuple[str | None, ...], _TurnLabels] = {}
        self._histograms: dict[str, Histogram] = {}
        for spec in names.METRICS:
            self._create(meter, spec)

    def _create(self, meter: Meter, spec: names.MetricSpec) -> None:
        if spec.instrument == "counter":
            tally = self._counters[spec.name] = Tally()
            meter.create_observable_counter(spec.name, [tally.observe], spec.unit, spec.description)
        elif spec.instrument == "histogram":
            self._histograms[spec.name] = meter.create_histogram(
                spec.name,
                spec.unit,
                spec.description,
                explicit_bucket_boundaries_advisory=_BUCKETS[spec.name],
            )
        elif spec.instrument == "observable_gauge" and spec.name == names.METRIC_QUEUE_SIZE.name:
            meter.create_observable_gauge(spec.name, [self._observe_queue], spec.unit, spec.description)
        elif spec.instrument == "observable_gauge" and spec.name == names.METRIC_EVALUATOR_INFO.name:
            meter.create_observable_gauge(spec.name, [self._observe_evaluator], spec.unit, spec.description)
        else:
            raise ValueError(f"no recording path for metric {spec.name} ({spec.instrument})")

    def _observe_queue(self, _options: CallbackOptions) -> Iterable[Observation]:
        return [Observation(self._queue_size())]

    def _observe_evaluator(self, _options: CallbackOptions) -> Iterable[Observation]:
        attributes = {
            names.ATTR_METRIC_EVALUATOR_VERSION: self._evaluator.version,
            names.ATTR_METRIC_POLICY_FINGERPRINT: self._evaluator.policy_fingerprint,
        }
        return [Observation(1, attributes)]

    def record_evaluation(
        self,
        report: GroundednessReport,
        context: TurnContext,
        duration_s: float,
        span: SpanContext | None = None,
    ) -> None:
        """One evaluated turn: its label, its score (scored labels only), its atoms, whether it ran out
        of work budget, and its cost; measured in the context of ``span``, the scored span."""
        measured_in: Context | None = None if span is None else set_span_in_context(NonRecordingSpan(span))
        labels = self._labels(report.label, context)
        self._counters[names.METRIC_TURNS.name].add_series(labels.turns, 1, measured_in)
        if report.score is not None and report.label not in _UNSCORED_LABELS:
            self._histograms[names.METRIC_SCORE.name].record(report.score, labels.score, measured_in)
        atoms = self._counters[names.METRIC_ATOMS.name]
        # One add per (kind, verdict), not per atom; a dict, not a ``Counter`` (whose constructor
        # costs more than counting a turn's few atoms).
        tally: dict[tuple[str, str], int] = {}
        for verdict in (*report.supported, *report.contradicted, *report.unsupported):
            key = (verdict.kind, verdict.verdict)
            tally[key] = tally.get(key, 0) + 1
        for kind_verdict, count in tally.items():
            atoms.add_series(labels.atoms(kind_verdict), count, measured_in)
        if report.budget_exceeded:
            self._counters[names.METRIC_BUDGET_EXCEEDED.name].add_series(labels.budget, 1, measured_in)
        self._histograms[names.METRIC_DURATION.name].record(duration_s, labels.duration, measured_in)

    def _labels(self, label: str, context: TurnContext) -> _TurnLabels:
        """The label sets of a turn with this label and context: built once, then looked up (turns
        repeat a few providers, models, agents and labels)."""
        key = (label, context.provider, context.request_model, context.agent_name, context.operation)
        labels = self._turn_labels.get(key)
        if labels is None:
            if len(self._turn_labels) >= _MAX_TURN_LABELS:
                self._turn_labels.clear()
            labels = self._turn_labels[key] = _TurnLabels(self._turn_values(label, context))
        return labels

    def _turn_values(self, label: str, context: TurnContext) -> dict[str, Any]:
        values = {
            names.ATTR_EVALUATION_NAME: names.EVALUATION_NAME,
            names.ATTR_PROVIDER: context.provider,
            names.ATTR_REQUEST_MODEL: context.request_model,
            names.ATTR_AGENT_NAME: context.agent_name,
            names.ATTR_OPERATION: context.operation,
            names.ATTR_EVALUATION_SCORE_LABEL: label,
            names.ATTR_METRIC_EVALUATOR_VERSION: self._evaluator.version,
        }
        # Unset labels dropped and the rest capped once, for all the instruments that select from them.
        return {key: capped(value) for key, value in values.items() if value is not None}

    def record_skip(self, reason: str) -> None:
        self._counters[names.METRIC_SKIPPED.name].add(1, {names.ATTR_SKIP_REASON: reason})

    def record_drop(self) -> None:
        self._counters[names.METRIC_QUEUE_DROPPED.name].add(1)

    def record_eviction(self, reason: str) -> None:
        self._counters[names.METRIC_EVICTED.name].add(1, {names.ATTR_EVICTION_REASON: reason})
