"""The gateway's own instruments (``names.GATEWAY_METRICS``): what came in, what went out, what was
refused or given up, and how full the buffer and the export queue are."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from opentelemetry.metrics import CallbackOptions, Counter, MeterProvider, Observation, get_meter

from otel_groundedness.gateway.otlp_env import Signal
from otel_groundedness.telemetry import names

_SIGNAL = names.ATTR_GATEWAY_SIGNAL
_REASON = names.ATTR_GATEWAY_REASON


class GatewayMetrics:
    def __init__(
        self,
        meter_provider: MeterProvider | None,
        *,
        held_traces: Callable[[], int],
        held_bytes: Callable[[], int],
        queue_items: Callable[[], int],
        queue_bytes: Callable[[], int],
        wal_bytes: Callable[[], int] = lambda: 0,
    ) -> None:
        meter = get_meter(names.INSTRUMENTATION_SCOPE, meter_provider=meter_provider)

        def counter(spec: names.MetricSpec) -> Counter:
            return meter.create_counter(spec.name, spec.unit, spec.description)

        def gauge(spec: names.MetricSpec, read: Callable[[], int]) -> None:
            def observe(_options: CallbackOptions) -> Iterable[Observation]:
                return [Observation(read())]

            meter.create_observable_gauge(spec.name, [observe], spec.unit, spec.description)

        self._received = counter(names.METRIC_GATEWAY_RECEIVED)
        self._refused = counter(names.METRIC_GATEWAY_REFUSED)
        self._exported = counter(names.METRIC_GATEWAY_EXPORTED)
        self._export_failures = counter(names.METRIC_GATEWAY_EXPORT_FAILURES)
        self._dropped = counter(names.METRIC_GATEWAY_DROPPED)
        self._unscored = counter(names.METRIC_GATEWAY_UNSCORED)
        gauge(names.METRIC_GATEWAY_HELD_TRACES, held_traces)
        gauge(names.METRIC_GATEWAY_HELD_BYTES, held_bytes)
        gauge(names.METRIC_GATEWAY_QUEUE_ITEMS, queue_items)
        gauge(names.METRIC_GATEWAY_QUEUE_BYTES, queue_bytes)
        self._duplicates = counter(names.METRIC_GATEWAY_DUPLICATES)
        self._replayed = counter(names.METRIC_GATEWAY_REPLAYED)
        self._rerouted = counter(names.METRIC_GATEWAY_REROUTED)
        gauge(names.METRIC_GATEWAY_WAL_BYTES, wal_bytes)

    def received(self, signal: Signal, items: int) -> None:
        self._received.add(items, {_SIGNAL: signal})

    def refused(self, reason: str) -> None:
        self._refused.add(1, {_REASON: reason})

    def exported(self, signal: Signal, items: int) -> None:
        self._exported.add(items, {_SIGNAL: signal})

    def export_failed(self, signal: Signal) -> None:
        self._export_failures.add(1, {_SIGNAL: signal})

    def dropped(self, signal: Signal, items: int, reason: str) -> None:
        self._dropped.add(items, {_SIGNAL: signal, _REASON: reason})

    def duplicates(self, spans: int) -> None:
        self._duplicates.add(spans)

    def replayed(self, signal: Signal, items: int) -> None:
        self._replayed.add(items, {_SIGNAL: signal})

    def rerouted(self, records: int, reason: str) -> None:
        self._rerouted.add(records, {_REASON: reason})

    def unscored(self, spans: int, reason: str) -> None:
        self._unscored.add(spans, {_REASON: reason})
