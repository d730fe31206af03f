"""`make stack`: the whole local stack on 127.0.0.1 with the demo's traffic, until Ctrl-C.

Jaeger, the Collector, Alertmanager (delivering to a webhook in this process, which prints each alert
and its trace link) and Prometheus, started by the same code as tests/e2e/test_trace_store.py
(tests/e2e/trace_stack.py); service logs and the demo's reports go to out/stack/. Nothing leaves the
machine. Alert rules fire without their `for` wait, so the demo's traffic raises them within seconds.
"""

from __future__ import annotations

import shutil
import signal
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from types import FrameType

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.e2e.trace_stack import DEMO_SERVICE, TraceStack, Traffic, start_trace_stack  # noqa: E402

WORKDIR = REPO / "out" / "stack"
PROVISIONING = REPO / "dashboards" / "provisioning"
# The demo's endpoint stays up this long so Prometheus keeps its series (Ctrl-C ends it sooner).
LINGER_S = 24 * 3600


def _stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _summary(stack: TraceStack) -> str:
    turns = stack.report()["turns"]
    ungrounded = sum(1 for turn in turns if turn["label"] == "ungrounded")
    return f"{len(turns)} turns scored, {ungrounded} ungrounded"


def _urls(stack: TraceStack) -> list[str]:
    jaeger = stack.jaeger.query_url
    collector = stack.collector
    return [
        f"Prometheus    {stack.prometheus.url}  (alerts: /alerts; exemplars: /api/v1/query_exemplars)",
        f"Jaeger API    {jaeger}/api/traces?service={DEMO_SERVICE}  (also Grafana's Jaeger data source;"
        " a module build serves no UI)",
        f"Alertmanager  http://{stack.alertmanager.target}",
        f"Collector     OTLP {collector.otlp_http_url} (HTTP), {collector.otlp_grpc_endpoint} (gRPC);"
        f" metrics {collector.metrics_url}",
        f"Grafana       provisioning {PROVISIONING}: start Grafana with PROMETHEUS_URL={stack.prometheus.url}"
        f" JAEGER_URL={jaeger} GF_PATHS_PROVISIONING={PROVISIONING}"
        f" GROUNDEDNESS_DASHBOARDS_PATH={REPO / 'dashboards' / 'grafana'}",
    ]


def _print_new_alerts(stack: TraceStack, seen: set[tuple[str, ...]]) -> None:
    """One line per alert name, agent and model of the demo's service (the Collector path), with its
    trace link, the first time Alertmanager delivers one (the contradicted-atoms alert comes once per
    atom kind)."""
    for alert in stack.webhook.alerts():
        labels: dict[str, str] = alert["labels"]
        agent, model = labels.get("gen_ai_agent_name", "-"), labels.get("gen_ai_request_model", "-")
        key = (labels["alertname"], agent, model)
        if key in seen or labels.get("job") != DEMO_SERVICE:
            continue
        seen.add(key)
        print(f"[stack] alert {labels['alertname']} agent={agent} model={model}")
        if "traces" in alert["annotations"]:
            print(f"        traces: {alert['annotations']['traces']}")
        sys.stdout.flush()


def main() -> int:
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    shutil.rmtree(WORKDIR, ignore_errors=True)
    WORKDIR.mkdir(parents=True)
    print(f"[stack] starting Jaeger, the Collector, Alertmanager, Prometheus on 127.0.0.1 (logs: {WORKDIR})")
    traffic = Traffic(linger_s=LINGER_S)
    print(f"[stack] demo traffic: {traffic.turns} turns, processor -> OTLP -> Collector -> Prometheus/Jaeger")
    sys.stdout.flush()
    with ExitStack() as stop:
        try:
            started = time.monotonic()
            stack = start_trace_stack(WORKDIR, stop, traffic)
            print(f"[stack] demo done in {time.monotonic() - started:.0f} s: {_summary(stack)}")
            for line in _urls(stack):
                print(line)
            print("[stack] running; Ctrl-C stops everything it started")
            sys.stdout.flush()
            seen: set[tuple[str, ...]] = set()
            while True:
                _print_new_alerts(stack, seen)
                time.sleep(1)
        except KeyboardInterrupt:
            print("\n[stack] stopping")
    print("[stack] stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
