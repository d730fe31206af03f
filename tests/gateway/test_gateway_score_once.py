"""Chained tiers score once: a gateway behind another gateway (or behind the in-process processor)
passes turns the same scorer (evaluator id, version, policy fingerprint) already scored through
unscored; with another policy it scores them again, and each result names its own scorer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from otel_groundedness.evaluator import describe
from otel_groundedness.gateway.service import Gateway
from otel_groundedness.gateway.settings import GatewaySettings
from otel_groundedness.otlp.values import ValueReader
from otel_groundedness.scoring import GroundednessPolicy
from otel_groundedness.telemetry import names

from .conftest import LOCAL, gateway_environ
from .expectations import expected_evaluations
from .otlp_sink import OtlpSink
from .traffic import GrpcClient, demo_requests, span_ids

SETTINGS = GatewaySettings(
    grpc_listen=LOCAL, http_listen=LOCAL, prometheus_listen=None, trace_idle_s=0.5, shutdown_timeout_s=10
)
OTHER_POLICY = GroundednessPolicy(locale="en-GB")
FINGERPRINT = describe(GroundednessPolicy()).policy_fingerprint


@pytest.fixture
def gateways() -> Iterator[list[Gateway]]:
    started: list[Gateway] = []
    yield started
    for gateway in started:
        gateway.shutdown()


def run_chain(
    tmp_path: Path, sink: OtlpSink, started: list[Gateway], second_policy: GroundednessPolicy
) -> int:
    """Demo traffic into gateway 1, which exports to gateway 2, which exports to ``sink``; returns the
    number of turns replay scores in it."""
    # The first gateway forwards log records at once and spans after its idle wait: the second one
    # waits longer, or event-form content would reach it a whole idle wait before its spans.
    second_settings = replace(SETTINGS, policy=second_policy, trace_idle_s=SETTINGS.trace_idle_s + 1.5)
    second = Gateway(second_settings, gateway_environ(sink))
    second.start()
    started.append(second)
    first_environ = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{second.ports.grpc}",
        "OTEL_METRICS_EXPORTER": "none",
    }
    first = Gateway(SETTINGS, first_environ)
    first.start()
    started.append(first)
    traffic = demo_requests(tmp_path / "recording.jsonl", 60_000)
    turns = len(expected_evaluations(traffic))
    sent = len(span_ids(traffic))
    client = GrpcClient(first.ports.grpc)
    for request in traffic:
        assert client.send(request) is None
    client.close()
    sink.wait_for("every span", lambda: len(sink.spans()) >= sent, timeout=60)
    return turns


def evaluations(sink: OtlpSink) -> tuple[Counter[str], Counter[str]]:
    """Fingerprints of the ``gen_ai.evaluation.result`` span events and log records that came out."""
    reader = ValueReader()
    events = Counter(
        str(reader.attributes(event.attributes)[names.ATTR_POLICY_FINGERPRINT])
        for span in sink.spans()
        for event in span.events
        if event.name == names.EVENT_EVALUATION_RESULT
    )
    records = Counter(
        str(reader.attributes(record.attributes)[names.ATTR_POLICY_FINGERPRINT])
        for record in sink.log_records()
        if record.event_name == names.EVENT_EVALUATION_RESULT
    )
    return events, records


def test_a_gateway_behind_a_gateway_with_the_same_scorer_scores_nothing_again(
    tmp_path: Path, sink: OtlpSink, gateways: list[Gateway]
) -> None:
    turns = run_chain(tmp_path, sink, gateways, GroundednessPolicy())
    assert turns > 5
    sink.wait_for("an evaluation record per turn", lambda: sum(evaluations(sink)[1].values()) >= turns, 30)

    events, records = evaluations(sink)
    assert events == Counter({FINGERPRINT: turns})
    assert records == Counter({FINGERPRINT: turns})
    assert all(
        sum(1 for event in span.events if event.name == names.EVENT_EVALUATION_RESULT) <= 1
        for span in sink.spans()
    )


def test_a_gateway_with_another_policy_scores_again_and_both_results_are_told_apart(
    tmp_path: Path, sink: OtlpSink, gateways: list[Gateway]
) -> None:
    turns = run_chain(tmp_path, sink, gateways, OTHER_POLICY)
    other = describe(OTHER_POLICY).policy_fingerprint
    sink.wait_for(
        "two evaluation records per turn", lambda: sum(evaluations(sink)[1].values()) >= 2 * turns, 30
    )

    events, records = evaluations(sink)
    assert events == Counter({FINGERPRINT: turns, other: turns})
    assert records == Counter({FINGERPRINT: turns, other: turns})
