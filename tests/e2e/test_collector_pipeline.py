"""The custom Collector, run for real: shipped configs validate, tail sampling keeps what it promises,
evaluation log records keep the scored span's ids, and metric names match prometheus_names."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.prometheus_names import PROMETHEUS_METRICS, series_owner

from .otlp_files import LogRecord, Span, baseline_keeps, read_log_records, read_traces
from .promql import exposed_series
from .services import COLLECTOR_DIR, wait_for
from .stack import DECISION_WAIT_S, Collector, DemoApp

pytestmark = pytest.mark.e2e

MAIN_CONFIG = COLLECTOR_DIR / "otelcol-groundedness.yaml"
PRODUCTION_ENV = {
    "TRACES_OTLP_ENDPOINT": "jaeger:4317",
    "LOKI_OTLP_ENDPOINT": "http://loki:3100/otlp",
    "PROMETHEUS_REMOTE_WRITE_URL": "http://prometheus:9090/api/v1/write",
    "OTELCOL_TEST_OUT": "/tmp",
}


def _policies() -> dict[str, dict[str, object]]:
    config = yaml.safe_load(MAIN_CONFIG.read_text())
    return {policy["name"]: policy for policy in config["processors"]["tail_sampling"]["policies"]}


def _env_default(value: str) -> str:
    """The default of an ``${env:NAME:-default}`` placeholder (the running collector has NAME unset)."""
    match = re.fullmatch(r"\$\{env:\w+:-([^}]*)\}", value)
    return match.group(1) if match else value


def _validate(binary: Path, *configs: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    argv = [str(binary), "validate"]
    for config in configs:
        argv += ["--config", str(COLLECTOR_DIR / config)]
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize(
    "configs",
    [
        ("otelcol-groundedness.yaml",),
        ("otelcol-groundedness.yaml", "otelcol-groundedness.remote-write.yaml"),
        ("otelcol-groundedness.yaml", "otelcol-groundedness.test.yaml"),
        ("otelcol-groundedness.yaml", "otelcol-groundedness.test.yaml", "otelcol-groundedness.stack.yaml"),
    ],
    ids=["main", "remote-write", "test-overlay", "stack-overlay"],
)
def test_shipped_config_validates(collector_binary: Path, configs: tuple[str, ...]) -> None:
    result = _validate(collector_binary, *configs, env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr


def test_the_running_main_config_logs_no_deprecation(collector: Collector) -> None:
    assert "deprecated" not in collector.service.log_path.read_text(), collector.service.log_tail()


def test_main_config_refuses_to_start_without_its_endpoints(collector_binary: Path) -> None:
    result = _validate(collector_binary, "otelcol-groundedness.yaml", env={})
    assert result.returncode != 0
    assert "otlp_grpc/traces" in result.stderr and "otlp_http/loki" in result.stderr


def _score(trace: list[Span]) -> float | None:
    scores = [span.attributes[names.ATTR_SCORE] for span in trace if names.ATTR_SCORE in span.attributes]
    return min(scores) if scores else None


def _contradicted(trace: list[Span]) -> int:
    return sum(int(span.attributes.get(names.ATTR_ATOMS_CONTRADICTED, 0)) for span in trace)


def test_tail_sampling_keeps_low_score_and_contradicted_traces_whole_and_a_baseline_of_the_rest(
    collector: Collector, demo_app: DemoApp
) -> None:
    policies = _policies()
    low_score_condition = policies["low-groundedness-score"]["ottl_condition"]["span"][0]  # type: ignore[index]
    threshold = float(low_score_condition.rsplit("<", 1)[1])
    baseline = policies["baseline"]["probabilistic"]  # type: ignore[index]
    percent = float(_env_default(str(baseline["sampling_percentage"])))
    salt = baseline["hash_salt"]

    received_path = collector.out_dir / "received-traces.jsonl"
    sampled_path = collector.out_dir / "sampled-traces.jsonl"
    received = read_traces(received_path)
    scored = {trace_id: trace for trace_id, trace in received.items() if _score(trace) is not None}
    assert scored, "the demo produced no scored trace"

    def must_keep(trace_id: str, trace: list[Span]) -> bool:
        score = _score(trace)
        low = score is not None and score < threshold
        return low or _contradicted(trace) >= 1 or baseline_keeps(trace_id, percent, salt)

    expected = {trace_id for trace_id, trace in received.items() if must_keep(trace_id, trace)}

    def decisions_done() -> dict[str, list[Span]] | None:
        sampled = read_traces(sampled_path)
        return sampled if set(sampled) >= expected else None

    # Decisions come decision_wait after a trace's first span, then the batch processor's 2s timeout.
    try:
        sampled = wait_for("the sampled traces file", decisions_done, timeout=DECISION_WAIT_S + 20)
    except TimeoutError:
        sampled = read_traces(sampled_path)

    assert set(sampled) == expected, (
        f"missing: {sorted(expected - set(sampled))}, unexpected: {sorted(set(sampled) - expected)}"
    )
    for trace_id, spans in sampled.items():
        assert len(spans) == len(received[trace_id]), f"trace {trace_id} was not kept whole"

    low = [t for t, trace in scored.items() if (_score(trace) or 1.0) < threshold or _contradicted(trace)]
    high = [t for t in scored if t not in low]
    assert low and high, "the demo should produce both low- and high-score turns"
    assert all(t in sampled for t in low)
    kept_high = [t for t in high if t in sampled]
    # The double score really decides: a numeric_attribute policy would read it as 0 and keep them all.
    assert len(kept_high) < len(high)
    print(
        f"\nsampling: {len(received)} traces received, {len(low)} low-score/contradicted all kept, "
        f"{len(kept_high)} of {len(high)} high-score kept by the {percent:g}% baseline"
    )


def test_evaluation_log_records_carry_the_scored_span_ids(collector: Collector, demo_app: DemoApp) -> None:
    # Every evaluated answer span carries a label (its score only when there was something to score).
    scored_spans = {
        (span.trace_id, span.span_id)
        for trace in read_traces(collector.out_dir / "received-traces.jsonl").values()
        for span in trace
        if names.ATTR_LABEL in span.attributes
    }
    assert scored_spans, "no evaluated answer span reached the collector"

    def evaluation_records() -> list[LogRecord] | None:
        records = [
            record
            for record in read_log_records(collector.out_dir / "logs.jsonl")
            if record.event_name == names.EVENT_EVALUATION_RESULT
        ]
        return records if len(records) >= len(scored_spans) else None

    records = wait_for("evaluation log records", evaluation_records, timeout=20)
    record_ids = {(record.trace_id, record.span_id) for record in records}
    assert record_ids == scored_spans
    for record in records:
        assert record.attributes[names.ATTR_EVALUATION_NAME] == names.EVALUATION_NAME


def test_collector_and_app_expose_the_series_names_prometheus_names_predicts(
    collector: Collector, demo_app: DemoApp
) -> None:
    from_app = exposed_series(demo_app.metrics_url)

    def collector_caught_up() -> set[str] | None:
        from_collector = exposed_series(collector.metrics_url)
        return from_collector if from_app <= from_collector else None

    try:
        from_collector = wait_for("the collector's exporter to catch up", collector_caught_up, 30)
    except TimeoutError:
        missing = sorted(from_app - exposed_series(collector.metrics_url))
        pytest.fail(f"series on the app endpoint but not on the collector's: {missing}")
    assert {prometheus_metric.series[0] for prometheus_metric in PROMETHEUS_METRICS.values()} & from_app
    for name in from_app | from_collector:
        assert series_owner(name) is not None, f"{name} is exposed but prometheus_names does not predict it"
