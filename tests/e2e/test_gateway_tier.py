"""Scoring outside the application, end to end (docs/gateway.md): the Python demo agent and the Node
agent (AI SDK 7) send OTLP to the real front-tier Collector, which routes by trace id to three real
``otel-groundedness gateway`` processes, which export to a back Collector's ``file`` exporters.

Asserted against what the agents sent (recorded at the front tier): every span arrives exactly once,
all spans of a trace pass through one gateway, and every turn is scored exactly once with the
evaluation replay (``score_trace``) gives on the same records, which is also the demo's in-process
score. The drain test restarts one gateway mid-run with SIGTERM and counts that nothing is lost;
test_gateway_faults.py has the SIGKILL, back-tier and full-log faults.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from otel_groundedness.demo.fake_model_server import FakeModelServer
from tests.gateway.expectations import expected_evaluations
from tests.gateway.process import GatewayProcess
from tests.node_agent.harness import MODEL, install_node_agent, load_fake_model, run_agent

from .gateway_tier import SENDER_BATCH_DELAY_MS, TRACE_IDLE_S, ReceivedSpan, Tier, demo_report
from .services import wait_for

pytestmark = pytest.mark.e2e
T = TypeVar("T")

FAKE = load_fake_model()
SENDER_ENV = {
    "OTEL_BSP_SCHEDULE_DELAY": str(SENDER_BATCH_DELAY_MS),
    "OTEL_BLRP_SCHEDULE_DELAY": str(SENDER_BATCH_DELAY_MS),
}


@pytest.fixture(scope="module")
def node_binary() -> Path:
    return install_node_agent()


@pytest.fixture
def tier(tmp_path: Path, collector_binary: Path) -> Iterator[Tier]:
    running = Tier(tmp_path, collector_binary)
    try:
        running.start()
        yield running
    finally:
        running.stop()


def demo_command(tier: Tier, workdir: Path, *, turns: int, pace: float, seed: int) -> list[str]:
    return [
        sys.executable, "-m", "otel_groundedness", "demo", "--turns", str(turns), "--pace", str(pace),
        "--seed", str(seed), "--fault-rate", "0.4", "--otlp-endpoint", tier.front_http, "--otlp-unscored",
        "--no-live", "--prometheus-port", "0", "--json", str(workdir / "demo.json"),
        "--html", str(workdir / "demo.html"),
    ]  # fmt: skip


def run_node_agent(tier: Tier, node: Path) -> int:
    turns = [(FAKE.prompt_for(invoice), stream) for invoice in FAKE.ANSWERS for stream in (False, True)]
    with FakeModelServer(FAKE.script(), model=MODEL) as model:
        run = run_agent(
            node,
            model_url=model.base_url,
            otlp_endpoint=tier.front_http,
            turns=turns,
            service_name="node-agent",
        )
    assert run.failed_spans == 0
    return len(run.turns)


def settle(tier: Tier, timeout: float = 120) -> tuple[Counter[tuple[str, str]], list[ReceivedSpan]]:
    """Wait until every span sent has come out of the gateways (each once, or the wait fails)."""

    def arrived() -> tuple[Counter[tuple[str, str]], list[ReceivedSpan]] | None:
        sent = tier.sent_span_keys()
        received = tier.received()
        done = sent and Counter((span.trace_id, span.span_id) for span in received) == sent
        return (sent, received) if done else None

    return wait_for("every span sent to come out of the gateways", arrived, timeout=timeout, interval=1.0)


def gateways_per_trace(received: list[ReceivedSpan]) -> dict[str, set[int]]:
    owners: defaultdict[str, set[int]] = defaultdict(set)
    for span in received:
        owners[span.trace_id].add(span.gateway)
    return owners


def test_both_agents_turns_are_scored_once_by_one_gateway_as_in_process(
    tier: Tier, tmp_path: Path, node_binary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in SENDER_ENV.items():
        monkeypatch.setenv(name, value)
    subprocess.run(demo_command(tier, tmp_path, turns=40, pace=20, seed=5), check=True, timeout=300)
    node_turns = run_node_agent(tier, node_binary)
    sent, received = settle(tier)

    assert sum(sent.values()) == len(received)  # settle: the same spans, each exactly once
    owners = gateways_per_trace(received)
    assert all(len(gateways) == 1 for gateways in owners.values())
    assert len({gateway for gateways in owners.values() for gateway in gateways}) > 1

    expected = {
        (f"{t:032x}", f"{s:016x}"): attributes
        for (t, s), attributes in expected_evaluations(tier.sent()).items()
    }
    scored = {(span.trace_id, span.span_id): span.evaluation for span in received if span.evaluation}
    assert scored == expected
    assert all(span.events == (1 if span.evaluation else 0) for span in received)
    wait_for(
        "one evaluation record per turn",
        lambda: tier.evaluation_records() == Counter(expected.keys()) or None,
        30,
    )

    report = demo_report(tmp_path / "demo.json")
    in_process = {
        (turn["trace_id"], turn["span_id"]): (turn["label"], turn["score"]) for turn in report["turns"]
    }
    label_key, score_key = "gen_ai.evaluation.groundedness.label", "gen_ai.evaluation.groundedness.score"
    by_gateway = {key: (scored[key][label_key], scored[key].get(score_key)) for key in in_process}
    assert by_gateway == in_process
    assert Counter(label for label, _ in by_gateway.values()) == Counter(report["summary"]["labels"])
    node_scored = [
        evaluation
        for span in received
        if span.evaluation and (span.trace_id, span.span_id) not in in_process
        for evaluation in [span.evaluation]
    ]
    assert len(node_scored) == node_turns
    assert Counter(e[label_key] for e in node_scored) == Counter({"grounded": 4, "ungrounded": 2})
    print(
        f"{sum(sent.values())} spans in {len(owners)} traces, each once; {len(scored)} turns scored "
        f"({len(in_process)} demo, {len(node_scored)} Node); traces per gateway: "
        f"{sorted(Counter(next(iter(g)) for g in owners.values()).values())}"
    )


def wait_until_mid_run(tier: Tier, gateway: int) -> None:
    """Until ``gateway`` has forwarded its first scored trace: traffic flows, and it holds the traces
    that arrived within the last idle wait."""
    wait_for(
        f"traffic through gateway {gateway}",
        lambda: any(span.gateway == gateway and span.evaluation for span in tier.received()) or None,
        timeout=120,
    )


def run_demo_stopping_gateway_1(tier: Tier, tmp_path: Path, stop: Callable[[GatewayProcess], T]) -> T:
    """The 150-turn demo through the tier, with gateway 1 stopped by ``stop`` once traffic flows
    through it and started again 2 s later; returns what ``stop`` returned once the demo is done."""
    demo = subprocess.Popen(
        demo_command(tier, tmp_path, turns=150, pace=15, seed=9),
        env={**os.environ, **SENDER_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_mid_run(tier, 1)
        victim = tier.gateways[1]
        assert victim is not None
        stopped = stop(victim)
        time.sleep(2)  # the front tier keeps retrying the stopped gateway from its queue meanwhile
        tier.gateways[1] = tier.start_gateway(1)
        assert demo.wait(timeout=300) == 0
    finally:
        if demo.poll() is None:
            demo.kill()
    return stopped


def test_a_gateway_restarted_mid_run_loses_no_span(tier: Tier, tmp_path: Path) -> None:
    def drain(victim: GatewayProcess) -> float:
        """Seconds the gateway took to drain and exit on SIGTERM."""
        stopped_at = time.monotonic()
        assert victim.terminate() == 0
        return time.monotonic() - stopped_at

    drained_s = run_demo_stopping_gateway_1(tier, tmp_path, drain)
    sent, received = settle(tier, timeout=180)

    assert sum(sent.values()) == len(received)
    assert all(len(gateways) == 1 for gateways in gateways_per_trace(received).values())
    assert all(span.events <= 1 for span in received)
    expected = {
        (f"{t:032x}", f"{s:016x}"): attributes
        for (t, s), attributes in expected_evaluations(tier.sent()).items()
    }
    scored = {(span.trace_id, span.span_id): span.evaluation for span in received if span.evaluation}
    same = sum(1 for key, attributes in scored.items() if expected.get(key) == attributes)
    unscored = sum(1 for key in expected if key not in scored)
    print(
        f"gateway 1 drained in {drained_s:.1f} s and restarted; {sum(sent.values())} spans sent, "
        f"{len(received)} arrived, each once; turns: {len(expected)} expected, {same} scored as replay, "
        f"{len(scored) - same} scored otherwise, {unscored} forwarded unscored (idle {TRACE_IDLE_S:g} s)"
    )
