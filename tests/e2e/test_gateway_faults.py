"""The gateway tier without loss, with real processes (docs/gateway.md): the front Collector
(``load_balancing``), N gateways that know its ring and keep a write-ahead log each, a back Collector.

- Log records reach the gateway that owns their trace, whichever gateway the front tier sent them to
  (N = 3 and N = 5), so event-form content pairs with its spans there.
- Faults under load from the Python demo agent (and the Node agent while the back tier is down): a
  gateway killed with SIGKILL and restarted, the back Collector killed for 30 s, a gateway's
  write-ahead log filled to its cap. Each time every span sent comes out (by span id), every turn is
  scored exactly once (one event, one record; how many exactly as replay scores them is printed), and
  the duplicates the gateways caught are counted in their own telemetry.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord

from otel_groundedness.gateway.hash_ring import HashRing
from otel_groundedness.telemetry import names
from tests.gateway.expectations import expected_evaluations
from tests.gateway.process import GatewayProcess
from tests.gateway.traffic import demo_requests
from tests.node_agent.harness import install_node_agent

from .gateway_tier import ReceivedSpan, Tier, _requests
from .services import wait_for
from .test_gateway_tier import SENDER_ENV, demo_command, run_node_agent, settle, wait_until_mid_run

pytestmark = pytest.mark.e2e


@pytest.fixture
def make_tier(tmp_path: Path, collector_binary: Path) -> Iterator[type[Tier]]:
    started: list[Tier] = []

    def make(count: int = 3) -> Tier:
        tier = Tier(tmp_path / f"tier{len(started)}", collector_binary, count)
        started.append(tier)
        tier.start()
        return tier

    yield make  # type: ignore[misc]
    for tier in started:
        tier.stop()


def exported_logs(tier: Tier) -> list[tuple[int, LogRecord]]:
    """Every log record the back tier got, with the gateway that sent it."""
    return [
        (index, record)
        for index in range(tier.count)
        for request in _requests(tier.workdir / "back" / f"g{index}-logs.jsonl")
        for rl in getattr(request, "resource_logs", ())
        for sl in rl.scope_logs
        for record in sl.log_records
    ]


def log_key(record: LogRecord) -> tuple[str, str, str, int]:
    return (record.trace_id.hex(), record.span_id.hex(), record.event_name, record.time_unix_nano)


def expected_turns(tier: Tier) -> dict[tuple[str, str], dict[str, object]]:
    return {
        (f"{t:032x}", f"{s:016x}"): attributes
        for (t, s), attributes in expected_evaluations(tier.sent()).items()
    }


@pytest.mark.parametrize("gateways", [3, 5])
def test_log_records_pair_with_their_spans_behind_n_gateways(
    make_tier: type[Tier], tmp_path: Path, gateways: int
) -> None:
    tier = make_tier(gateways)  # type: ignore[call-arg]
    traffic = demo_requests(tmp_path / "recording.jsonl", 2_000_000)  # content on spans and in log records
    with httpx.Client(base_url=tier.front_http, timeout=30) as front:
        for request in traffic:
            path = "/v1/traces" if isinstance(request, ExportTraceServiceRequest) else "/v1/logs"
            response = front.post(
                path, content=request.SerializeToString(), headers={"Content-Type": "application/x-protobuf"}
            )
            assert response.status_code == 200
    sent, received = settle(tier)
    expected = expected_turns(tier)
    wait_for(
        "one evaluation record per turn",
        lambda: tier.evaluation_records() == Counter(expected.keys()) or None,
        60,
    )

    span_gateway = {span.trace_id: span.gateway for span in received}
    content = [(g, r) for g, r in exported_logs(tier) if r.event_name != names.EVENT_EVALUATION_RESULT]
    sent_logs = Counter(
        log_key(r)
        for request in tier.sent()
        if not isinstance(request, ExportTraceServiceRequest)
        for rl in request.resource_logs
        for sl in rl.scope_logs
        for r in sl.log_records
    )
    assert Counter(log_key(r) for _, r in content) == sent_logs  # each once
    paired = sum(1 for gateway, r in content if span_gateway[r.trace_id.hex()] == gateway)
    scored = {(s.trace_id, s.span_id): s.evaluation for s in received if s.evaluation}
    assert paired == len(content)
    assert scored == expected
    ring = HashRing([tier.endpoint(index) for index in range(gateways)])
    elsewhere = sum(
        1 for _, r in content if ring.endpoint_for(r.trace_id.hex().encode()) != ring.endpoint_for(r.trace_id)
    )
    print(
        f"N = {gateways}: {len(content)} log records, {elsewhere} sent by the front tier to another "
        f"gateway than their spans; {paired} exported by the gateway of their spans; "
        f"{len(scored)} turns scored as replay scores them; {sum(sent.values())} spans once each"
    )


LOG_FULL = "groundedness_gateway_refused_total:log_full"


def gateway_counters(process: GatewayProcess) -> dict[str, float]:
    """The gateway's own counters, summed over their attributes (refusals for a full log also apart),
    from its Prometheus endpoint."""
    text = httpx.get(f"http://127.0.0.1:{process.prometheus_port}/metrics", timeout=5).text
    totals: Counter[str] = Counter()
    for name, attributes, value in re.findall(
        r"^(groundedness_gateway_\w+_total)(\{[^}]*\})? (\S+)$", text, re.M
    ):
        totals[name] += float(value)
        if 'reason="log_full"' in attributes:
            totals[LOG_FULL] += float(value)
    return dict(totals)


def check_nothing_lost(tier: Tier, what: str) -> tuple[int, int, int]:
    """Spans in = spans out by span id; every turn scored exactly once (one event, one record).
    Returns the spans sent, the duplicate spans that reached the back tier, and the turns scored
    exactly as replay scores them (a trace whose parts a fault held apart longer than the idle wait
    is scored in parts, docs/gateway.md)."""

    def arrived() -> tuple[Counter[tuple[str, str]], list[ReceivedSpan]] | None:
        sent = tier.sent_span_keys()
        received = tier.received()
        return (sent, received) if sent and set(sent) <= {(s.trace_id, s.span_id) for s in received} else None

    sent, received = wait_for(f"{what}: every span sent to come out", arrived, timeout=180, interval=1.0)
    time.sleep(2)  # anything still on its way would be a duplicate: let it come
    received = tier.received()
    out = Counter((span.trace_id, span.span_id) for span in received)
    assert set(out) == set(sent)
    expected = expected_turns(tier)
    scored = {(s.trace_id, s.span_id): s.evaluation for s in received if s.evaluation}
    assert set(scored) == set(expected)
    assert all(span.events <= 1 for span in received)
    wait_for(
        f"{what}: one evaluation record per turn",
        lambda: set(tier.evaluation_records()) == set(expected) or None,
        60,
    )
    assert max(tier.evaluation_records().values()) == 1
    same = sum(1 for key, attributes in scored.items() if expected[key] == attributes)
    return sum(sent.values()), sum(out.values()) - len(out), same


def run_demo(tier: Tier, workdir: Path, turns: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        demo_command(tier, workdir, turns=turns, pace=15, seed=11),
        env={**os.environ, **SENDER_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_a_gateway_killed_under_load_and_restarted_loses_nothing(
    make_tier: type[Tier], tmp_path: Path
) -> None:
    tier = make_tier()  # type: ignore[call-arg]
    demo = run_demo(tier, tmp_path, turns=300)
    try:
        wait_until_mid_run(tier, 1)
        victim = tier.gateways[1]
        assert victim is not None
        victim.kill()  # SIGKILL: what it acknowledged is only in its write-ahead log
        time.sleep(2)
        tier.gateways[1] = restarted = tier.start_gateway(1)
        assert demo.wait(timeout=300) == 0
    finally:
        if demo.poll() is None:
            demo.kill()
    spans, duplicates, same = check_nothing_lost(tier, "gateway 1 killed")
    counters = gateway_counters(restarted)
    replayed = counters.get("groundedness_gateway_replayed_total", 0)
    assert replayed > 0
    print(
        f"gateway 1 SIGKILLed and restarted under load: {spans} spans sent, all out by span id, "
        f"{duplicates} duplicates downstream, {same} turns scored as replay; "
        f"it replayed {replayed:.0f} items; duplicates caught by the gateways: "
        f"{counters.get('groundedness_gateway_duplicates_total', 0):.0f}"
    )


@pytest.fixture(scope="module")
def node_binary() -> Path:
    return install_node_agent()


def test_the_back_collector_killed_for_30_s_loses_nothing(
    make_tier: type[Tier], tmp_path: Path, node_binary: Path
) -> None:
    tier = make_tier()  # type: ignore[call-arg]
    demo = run_demo(tier, tmp_path, turns=600)  # 40 s of load
    try:
        wait_until_mid_run(tier, 0)
        assert tier.back is not None
        tier.back.process.kill()
        tier.back.process.wait()
        down_since = time.monotonic()
        run_node_agent(tier, node_binary)  # the Node agent's turns too, while the back tier is down
        time.sleep(max(0.0, 30 - (time.monotonic() - down_since)))
        tier.start_back()
        assert demo.wait(timeout=300) == 0
    finally:
        if demo.poll() is None:
            demo.kill()
    spans, duplicates, same = check_nothing_lost(tier, "back Collector killed")
    caught = sum(
        gateway_counters(g).get("groundedness_gateway_duplicates_total", 0) for g in tier.gateways if g
    )
    print(
        f"back Collector SIGKILLed for 30 s under load: {spans} spans sent, all out by span id, "
        f"{duplicates} duplicates downstream, {caught:.0f} caught by the gateways; "
        f"{same} turns scored as replay"
    )


def test_a_gateway_whose_log_is_full_refuses_until_it_drains_and_loses_nothing(
    make_tier: type[Tier], tmp_path: Path
) -> None:
    tier = make_tier()  # type: ignore[call-arg]
    # Gateway 0 again, with a small log: with the back Collector down nothing is released, so it fills.
    first = tier.gateways[0]
    assert first is not None
    first.terminate()
    small_log = ["--max-request-bytes", str(128 * 1024), "--max-wal-bytes", str(256 * 1024)]
    tier.gateways[0] = small = tier.start_gateway(0, extra=small_log)
    demo = run_demo(tier, tmp_path, turns=300)
    try:
        wait_until_mid_run(tier, 0)
        assert tier.back is not None
        tier.back.process.kill()
        tier.back.process.wait()
        wait_for(
            "gateway 0's log full",
            lambda: gateway_counters(small).get(LOG_FULL),
            timeout=120,
        )
        tier.start_back()
        assert demo.wait(timeout=300) == 0
    finally:
        if demo.poll() is None:
            demo.kill()
    spans, duplicates, same = check_nothing_lost(tier, "a full log")
    refused = gateway_counters(small)[LOG_FULL]
    print(
        f"gateway 0's log (256 KiB) filled while the back Collector was down: {refused:.0f} requests refused "
        f"(UNAVAILABLE, retried by the front tier), {spans} spans sent, all out, {duplicates} duplicates, "
        f"{same} turns scored as replay"
    )
