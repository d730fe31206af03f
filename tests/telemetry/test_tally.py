"""``Tally``: counts kept in the process and reported by an observable counter at collection, so a
scored turn costs a dict update instead of several SDK ``Counter.add`` calls."""

from __future__ import annotations

import threading

from opentelemetry.metrics import CallbackOptions
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader, Sum

from otel_groundedness.telemetry.tally import OVERFLOW_ATTRIBUTES, Tally


def observed(tally: Tally) -> dict[tuple[tuple[str, object], ...], float]:
    return {
        tuple(sorted((observation.attributes or {}).items())): observation.value
        for observation in tally.observe(CallbackOptions())
    }


def test_counts_are_cumulative_per_attribute_set() -> None:
    tally = Tally()
    tally.add(1, {"label": "grounded"})
    tally.add(2, {"label": "grounded"})
    tally.add(1, {"label": "ungrounded"})
    tally.add(5)
    assert observed(tally) == {(("label", "grounded"),): 3, (("label", "ungrounded"),): 1, (): 5}
    tally.add(1, {"label": "ungrounded"})
    assert observed(tally)[(("label", "ungrounded"),)] == 2  # totals, not deltas


def test_one_attribute_set_is_one_series_whatever_the_order_of_its_keys() -> None:
    tally = Tally()
    tally.add(1, {"label": "grounded", "model": "m"})
    tally.add(2, {"model": "m", "label": "grounded"})
    observations = list(tally.observe(CallbackOptions()))
    assert [(o.value, dict(o.attributes or {})) for o in observations] == [
        (3, {"label": "grounded", "model": "m"})
    ]


def test_new_attribute_sets_past_the_limit_fold_into_the_overflow_series() -> None:
    tally = Tally(max_series=3)
    for model in ("a", "b", "c", "d", "e"):
        tally.add(1, {"model": model})
    tally.add(4, {"model": "a"})  # a known series still counts on its own
    counts = observed(tally)
    assert len(counts) == 4
    assert counts[(("model", "a"),)] == 5
    assert counts[tuple(OVERFLOW_ATTRIBUTES.items())] == 2
    assert sum(counts.values()) == 9  # nothing lost


def test_adds_from_many_threads_are_all_counted() -> None:
    tally = Tally()

    def add_many() -> None:
        for index in range(10_000):
            tally.add(1, {"kind": "money" if index % 2 else "date"})

    threads = [threading.Thread(target=add_many) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert observed(tally) == {(("kind", "date"),): 20_000, (("kind", "money"),): 20_000}


def test_the_sdk_exports_a_monotonic_cumulative_sum() -> None:
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("test")
    tally = Tally()
    meter.create_observable_counter("turns", [tally.observe], "{turn}")
    tally.add(3, {"label": "grounded"})
    data = reader.get_metrics_data()
    assert data is not None
    (metric,) = data.resource_metrics[0].scope_metrics[0].metrics
    assert isinstance(metric.data, Sum) and metric.data.is_monotonic
    (point,) = metric.data.data_points
    assert point.value == 3 and dict(point.attributes or {}) == {"label": "grounded"}
