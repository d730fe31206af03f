"""From an alert to the turn that caused it, on real processes: the demo's traffic goes through the
processor, OTLP and the Collector to Prometheus (exemplars stored) and to Jaeger (kept traces), and
Alertmanager delivers the alerts to a webhook.

A *flagged* turn is one the scorer labelled ``ungrounded`` (a contradicted figure, or a score below
``min_alert_score``, 0.8): the turns the alerts count, the Collector's tail sampling always keeps, and
the dashboard's trace panel lists. Ground truth is the demo's own JSON report.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

import pytest

from dashboards.generate import DASHBOARD_JSON
from dashboards.traces import UNGROUNDED_TAGS
from otel_groundedness.telemetry import names

from .jaeger import JAEGER_CONFIG, build_jaeger, span_attributes, tags_param
from .services import COLLECTOR_DIR, http_get_json, wait_for
from .trace_stack import DEMO_SERVICE, TraceStack, start_trace_stack

pytestmark = pytest.mark.e2e

# Scores below this are labelled ungrounded (the default min_alert_score; the Collector's
# low-groundedness-score sampling policy uses the same figure).
ALERT_THRESHOLD = 0.8
SCORE_BUCKETS = "gen_ai_evaluation_score_bucket"
SCORED_LABELS = {"grounded", "partially_grounded", "ungrounded"}


@pytest.fixture(scope="module")
def trace_stack(collector_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TraceStack]:
    build_jaeger()
    with ExitStack() as stop:
        stack = start_trace_stack(tmp_path_factory.mktemp("trace-stack"), stop)
        # The Collector decides on a trace TAIL_SAMPLING_DECISION_WAIT (2 s) after its first span.
        flagged = _flagged(stack.report())
        assert flagged, "the demo produced no flagged turn"
        wait_for(
            "every flagged turn in Jaeger",
            lambda: True if all(stack.jaeger.trace(turn["trace_id"]) for turn in flagged.values()) else None,
            timeout=60,
        )
        yield stack


def _listen_defaults(config: Path) -> set[str]:
    """The default addresses of every ``${env:NAME:-host:port}`` listener in a Collector-style config."""
    return set(re.findall(r"endpoint: \$\{env:\w+:-([^}]+)\}", config.read_text()))


def test_jaeger_listens_on_loopback_only_and_off_the_collectors_ports() -> None:
    jaeger = _listen_defaults(JAEGER_CONFIG)
    assert jaeger and all(address.startswith("127.0.0.1:") for address in jaeger), jaeger
    ports = {address.rsplit(":", 1)[1] for address in jaeger}
    collector = {
        address.rsplit(":", 1)[1] for address in _listen_defaults(COLLECTOR_DIR / "otelcol-groundedness.yaml")
    }
    assert "16686" in ports and not ports & collector, (ports, collector)


def _turns(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Scored turns by trace id (the demo runs one turn per trace)."""
    return {turn["trace_id"]: turn for turn in report["turns"] if turn["label"] in SCORED_LABELS}


def _flagged(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {trace_id: turn for trace_id, turn in _turns(report).items() if turn["label"] == "ungrounded"}


def _bucket(score: float) -> float:
    """The upper bound of the histogram bucket a score falls in (bounds: names.SCORE_BUCKETS)."""
    return min(bound for bound in names.SCORE_BUCKETS if score <= bound)


def _all_exemplars(stack: TraceStack) -> list[tuple[float, dict[str, Any]]]:
    """``_exemplars`` once Prometheus has one in every score bucket below the alert threshold that a
    flagged turn fell in (the demo exports its metrics every 2 s, Prometheus scrapes every second)."""
    flagged = _flagged(stack.report()).values()
    low_buckets = {_bucket(turn["score"]) for turn in flagged if turn["score"] < ALERT_THRESHOLD}

    def complete() -> list[tuple[float, dict[str, Any]]] | None:
        exemplars = _exemplars(stack)
        return exemplars if low_buckets <= {le for le, _ in exemplars} else None

    return wait_for("exemplars in every low score bucket", complete, timeout=60)


def _exemplars(stack: TraceStack) -> list[tuple[float, dict[str, Any]]]:
    """(bucket upper bound, exemplar) for every exemplar of the score histogram that came through the
    Collector (the demo's service is its job there)."""
    selector = quote(f'{SCORE_BUCKETS}{{job="{DEMO_SERVICE}"}}', safe="")
    now = time.time()
    body = http_get_json(
        f"{stack.prometheus.url}/api/v1/query_exemplars?query={selector}&start={now - 3600}&end={now}"
    )
    return [
        (float(series["seriesLabels"]["le"]), exemplar)
        for series in body["data"]
        for exemplar in series["exemplars"]
    ]


def test_every_exemplar_is_a_scored_turn_and_the_low_buckets_point_at_flagged_turns(
    trace_stack: TraceStack,
) -> None:
    turns = _turns(trace_stack.report())
    exemplars = _all_exemplars(trace_stack)
    assert exemplars
    for le, exemplar in exemplars:
        trace_id, span_id = exemplar["labels"]["trace_id"], exemplar["labels"]["span_id"]
        turn = turns.get(trace_id)
        assert turn is not None, f"exemplar {exemplar} is no scored turn's trace"
        assert turn["span_id"] == span_id and float(exemplar["value"]) == pytest.approx(turn["score"])
        assert _bucket(turn["score"]) == le
        if le < ALERT_THRESHOLD:
            assert turn["label"] == "ungrounded", (le, turn["label"], turn["score"])
    low = [exemplar for le, exemplar in exemplars if le < ALERT_THRESHOLD]
    print(f"\n{len(exemplars)} exemplars, {len(low)} in buckets below {ALERT_THRESHOLD}, all flagged turns")
    assert low, "no exemplar below the alert threshold"


def test_jaeger_returns_the_scored_span_of_a_low_bucket_exemplar(trace_stack: TraceStack) -> None:
    low = [exemplar for le, exemplar in _all_exemplars(trace_stack) if le < ALERT_THRESHOLD]
    assert low
    for exemplar in low:
        trace = trace_stack.jaeger.trace(exemplar["labels"]["trace_id"])
        assert trace is not None, f"Jaeger does not hold the exemplar's trace {exemplar['labels']}"
        (span,) = [span for span in trace["spans"] if span["spanID"] == exemplar["labels"]["span_id"]]
        attributes = span_attributes(span)
        assert attributes[names.ATTR_SCORE] == pytest.approx(float(exemplar["value"]))
        assert attributes[names.ATTR_LABEL] == "ungrounded"
        assert attributes[names.ATTR_ATOMS_TOTAL] >= 1
        # The gen_ai.evaluation.result event rides along as a span log.
        events = [{field["key"]: field["value"] for field in log["fields"]} for log in span.get("logs", [])]
        (result,) = [event for event in events if event.get("event") == names.EVENT_EVALUATION_RESULT]
        assert result[names.ATTR_EVALUATION_SCORE_LABEL] == "ungrounded"
        assert names.ATTR_EVALUATION_EXPLANATION in result


def _panel_search() -> dict[str, Any]:
    (panel,) = [
        panel
        for panel in json.loads(DASHBOARD_JSON.read_text())["panels"]
        if panel.get("datasource", {}).get("type") == "jaeger"
    ]
    (target,) = panel["targets"]
    return dict(target)


def test_the_ungrounded_traces_panel_query_finds_exactly_the_flagged_turns(trace_stack: TraceStack) -> None:
    target = _panel_search()
    # What Grafana's Jaeger data source sends: logfmt tags as a JSON object, the panel's time range.
    tags = dict(pair.split("=", 1) for pair in target["tags"].split())
    assert tags == UNGROUNDED_TAGS
    assert target["service"] == "$trace_service"
    now_us = int(time.time() * 1e6)
    found = trace_stack.jaeger.search(
        {
            "service": DEMO_SERVICE,
            "tags": tags_param(tags),
            "limit": target["limit"],
            "start": now_us - 3600 * 10**6,
            "end": now_us,
        }
    )
    flagged = set(_flagged(trace_stack.report()))
    print(f"\npanel search: {len(found)} traces; flagged turns in the demo: {len(flagged)}")
    assert len(flagged) < target["limit"]
    assert {trace["traceID"] for trace in found} == flagged


def _alerts_with_a_trace_link(stack: TraceStack) -> list[dict[str, Any]] | None:
    alerts = [
        alert
        for alert in stack.webhook.alerts()
        if alert["labels"].get("job") == DEMO_SERVICE and "traces" in alert["annotations"]
    ]
    return alerts or None


def test_a_fired_alert_links_to_its_flagged_turns_in_jaeger(trace_stack: TraceStack) -> None:
    alerts = wait_for(
        "a groundedness alert with a trace link at the webhook",
        lambda: _alerts_with_a_trace_link(trace_stack),
        timeout=60,
    )
    flagged = _flagged(trace_stack.report())
    for alert in alerts:
        labels, link = alert["labels"], urlsplit(alert["annotations"]["traces"])
        # The link is Jaeger's search page; its API takes the same parameters.
        assert f"{link.scheme}://{link.netloc}" == trace_stack.jaeger.query_url and link.path == "/search"
        params = dict(parse_qsl(link.query))
        assert params["service"] == DEMO_SERVICE
        window_s = (int(params["end"]) - int(params["start"])) / 1e6
        assert window_s in (600, 1800), window_s
        found = trace_stack.jaeger.search(params)
        trace_ids = {trace["traceID"] for trace in found}
        # Exactly this agent's flagged turns on this model whose scored span started in the link's
        # window: the scored span names the agent, so no other agent's turn on the model matches.
        agent, model = labels["gen_ai_agent_name"], labels["gen_ai_request_model"]
        theirs = {t: turn for t, turn in flagged.items() if turn["agent"] == agent and turn["model"] == model}
        in_window = {
            t
            for t, turn in theirs.items()
            if int(params["start"]) <= _scored_span_start_us(trace_stack, turn) <= int(params["end"])
        }
        assert in_window and trace_ids == in_window, (labels, sorted(trace_ids), sorted(in_window))
        others = {t for t, turn in flagged.items() if turn["model"] == model and turn["agent"] != agent}
        print(f"\n{agent}/{model}: {len(trace_ids)} traces; other agents' flagged turns: {len(others)}")
        traceql = alert["annotations"]["traceql"]
        assert f'span."gen_ai.agent.name" = "{agent}"' in traceql and ">>" not in traceql
    print(f"\n{len(alerts)} alerts, each link opens exactly the flagged turns of its agent")


def _scored_span_start_us(stack: TraceStack, turn: dict[str, Any]) -> int:
    """When a turn's scored span started, in Jaeger's microseconds (its search windows by span start)."""
    trace = stack.jaeger.trace(turn["trace_id"])
    assert trace is not None
    (span,) = [span for span in trace["spans"] if span["spanID"] == turn["span_id"]]
    assert span_attributes(span)[names.ATTR_AGENT_NAME] == turn["agent"]
    return int(span["startTime"])
