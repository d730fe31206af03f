"""``run_demo``: plan the turns, serve them from the fake model, run the agent, score, summarise.

Everything runs in-process on 127.0.0.1: two scripted model servers, the instrumented ``openai``
client, the groundedness processor, and (optionally) a Prometheus endpoint and OTLP export.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from openai import OpenAI
from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor
from opentelemetry.util.genai.utils import is_experimental_mode
from rich.console import Console

from otel_groundedness.demo.agent import DemoAgent
from otel_groundedness.demo.fake_model_server import FakeModelServer, ScriptedToolCall, ScriptedTurn
from otel_groundedness.demo.scenarios import MODELS, PlannedTurn, backend_for, plan_turns
from otel_groundedness.demo.summary import DemoSummary, TurnOutcome, outcomes_for
from otel_groundedness.demo.telemetry import DemoTelemetry, build_telemetry
from otel_groundedness.demo.ui import LiveView, print_summary
from otel_groundedness.evaluator import describe
from otel_groundedness.replay.in_memory import replay
from otel_groundedness.replay.turn_result import turn_entry
from otel_groundedness.report.html_report import Table, write_html
from otel_groundedness.scoring import GroundednessPolicy

Semconv = Literal["latest", "legacy"]

# Environment the official instrumentation reads: latest = content as span attributes (semconv
# >= 1.37); legacy = v1.30 spans with content in per-message log events.
_SEMCONV_ENV: Mapping[Semconv, Mapping[str, str | None]] = {
    "latest": {
        "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
        "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only",
    },
    "legacy": {
        "OTEL_SEMCONV_STABILITY_OPT_IN": None,
        "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true",
    },
}


class DemoError(RuntimeError):
    """The demo cannot run as asked (message says why)."""


@dataclass(frozen=True, slots=True)
class DemoOptions:
    """Options of ``otel-groundedness demo`` (same names and defaults as the flags)."""

    turns: int = 60
    fault_rate: float = 0.3
    seed: int = 7
    semconv: Semconv = "latest"
    stream_share: float = 0.25
    pace: float = 0.0  # turns per second, evenly spaced; 0 = as fast as possible
    otlp_endpoint: str | None = None
    otlp_unscored: bool = False
    otlp_file: Path | None = None
    prometheus_port: int = 9464
    linger_s: float = 0.0
    live: bool = True
    html: Path | None = Path("out/demo-report.html")
    json: Path | None = None


def run_demo(options: DemoOptions, *, console: Console | None = None) -> DemoSummary:
    """Run the demo end to end and return its summary (also printed to ``console``)."""
    console = console if console is not None else Console()
    if not (math.isfinite(options.pace) and options.pace >= 0):
        raise DemoError(f"pace must be a finite number of turns per second >= 0, got {options.pace!r}")
    started = time.perf_counter()
    planned = plan_turns(
        options.turns, fault_rate=options.fault_rate, stream_share=options.stream_share, seed=options.seed
    )
    script = {turn.scenario.prompt: _scripted(turn) for turn in planned}
    policy = GroundednessPolicy.from_env()
    with _semconv_environment(options.semconv), _instrumented(options, policy) as telemetry:
        with (
            FakeModelServer(script, model=MODELS[0]) as first,
            FakeModelServer(script, model=MODELS[1]) as second,
        ):
            clients = {
                MODELS[0]: OpenAI(base_url=first.base_url, api_key="demo-key", max_retries=0),
                MODELS[1]: OpenAI(base_url=second.base_url, api_key="demo-key", max_retries=0),
            }
            agent = DemoAgent(
                clients,
                telemetry.tracer_provider.get_tracer("otel_groundedness.demo"),
                backend_for(planned),
                record_tool_content=options.semconv == "latest",
                conversation_prefix=f"demo-{options.seed}",
            )
            results: list[tuple[int | None, str | None]] = []
            with LiveView(console, len(planned), enabled=options.live) as view:
                for turn in _paced(planned, options.pace):
                    result = agent.run(turn)
                    results.append((result.trace_id, result.error))
                    view.update(len(results), list(telemetry.tap.scores().values()))
                telemetry.flush()
                view.update(len(results), list(telemetry.tap.scores().values()))
        outcomes = outcomes_for(planned, results, telemetry.tap.scores())
        summary = DemoSummary(
            semconv=options.semconv,
            outcomes=outcomes,
            wall_time_s=0.0,
            html_path=options.html.resolve() if options.html else None,
            json_path=options.json.resolve() if options.json else None,
            otlp_file=options.otlp_file.resolve() if options.otlp_file else None,
            metrics_url=telemetry.metrics_url,
        )
        _write_outputs(options, summary, telemetry, policy)
        summary.wall_time_s = time.perf_counter() - started
        print_summary(console, summary)
        _linger(console, options, telemetry)
    return summary


def _paced(planned: Iterable[PlannedTurn], pace: float) -> Iterator[PlannedTurn]:
    """Release turn ``i`` no earlier than ``i / pace`` seconds after the first (all at once for 0).

    The schedule is fixed at the start: turns that fall behind run back to back until they catch up,
    instead of shifting every later turn; a run that keeps up lasts ``(turns - 1) / pace`` s plus one turn.
    """
    start = time.monotonic()
    for index, turn in enumerate(planned):
        if pace > 0:
            time.sleep(max(0.0, start + index / pace - time.monotonic()))
        yield turn


def _scripted(turn: PlannedTurn) -> ScriptedTurn:
    calls = tuple(ScriptedToolCall(request.name, request.arguments) for request in turn.scenario.tools)
    return ScriptedTurn(calls, turn.answer)


@contextmanager
def _semconv_environment(semconv: Semconv) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in _SEMCONV_ENV[semconv]}
    try:
        _apply_environment(_SEMCONV_ENV[semconv])
        yield
    finally:
        _apply_environment(saved)


def _apply_environment(values: Mapping[str, str | None]) -> None:
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@contextmanager
def _instrumented(options: DemoOptions, policy: GroundednessPolicy) -> Iterator[DemoTelemetry]:
    try:
        telemetry = build_telemetry(
            otlp_endpoint=options.otlp_endpoint,
            prometheus_port=options.prometheus_port,
            policy=policy,
            otlp_unscored=options.otlp_unscored,
        )
    except OSError as error:
        raise DemoError(f"cannot serve metrics on 127.0.0.1:{options.prometheus_port}: {error}") from error
    except ValueError as error:  # an unusable --otlp-endpoint
        raise DemoError(str(error)) from error
    instrumentor = OpenAIInstrumentor()  # type: ignore[no-untyped-call]
    try:
        instrumentor.instrument(
            tracer_provider=telemetry.tracer_provider,
            meter_provider=telemetry.meter_provider,
            logger_provider=telemetry.logger_provider,
        )
        if is_experimental_mode() != (options.semconv == "latest"):
            # opentelemetry-instrumentation reads the opt-in once per process.
            raise DemoError(
                f"this process already runs GenAI semconv in the other mode; run --semconv {options.semconv} "
                "in a fresh process"
            )
        yield telemetry
    finally:
        instrumentor.uninstrument()
        telemetry.shutdown()


def _write_outputs(
    options: DemoOptions, summary: DemoSummary, telemetry: DemoTelemetry, policy: GroundednessPolicy
) -> None:
    if options.otlp_file is not None:
        telemetry.write_otlp_file(options.otlp_file)
    if options.html is None and options.json is None:
        return
    entries = _turn_entries(summary.outcomes, telemetry, policy)
    if options.html is not None:
        write_html(
            options.html,
            entries,
            title="otel-groundedness demo",
            subtitle=(
                f"{len(summary.outcomes)} turns, fault rate {options.fault_rate:.0%}, seed {options.seed}, "
                f"semconv {options.semconv}"
            ),
            summary=[
                ("turns run", summary.turns_run),
                ("turns scored", summary.turns_scored),
                ("failed turns", summary.turns_failed),
                *sorted(summary.labels.items()),
            ],
            tables=[_detection_html(summary)],
            evaluator=describe(policy),
        )
    if options.json is not None:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        document = {"summary": summary.to_dict(), "turns": entries}
        options.json.write_text(json.dumps(document, indent=2), encoding="utf-8")


def _turn_entries(
    outcomes: list[TurnOutcome], telemetry: DemoTelemetry, policy: GroundednessPolicy
) -> list[dict[str, Any]]:
    # Full verdicts (atoms, citations) come from replaying the exported telemetry through the
    # processor's engine; the span attributes only carry counts.
    faults = {outcome.trace_id: outcome.fault_name for outcome in outcomes if outcome.trace_id is not None}
    replayed = replay(telemetry.tap.span_records(), telemetry.log_events(), policy=policy)
    return [{**turn_entry(scored), "fault": faults.get(scored.turn.trace_id)} for scored in replayed.scored]


def _detection_html(summary: DemoSummary) -> Table:
    rows = [
        [row.fault, "flag" if row.should_flag else "stay supported", row.injected, row.scored, row.flagged,
         "-" if row.rate is None else f"{row.rate:.0%}"]
        for row in summary.detection
    ]  # fmt: skip
    return Table(
        "Detection: injected vs flagged", ("fault", "expected", "injected", "scored", "flagged", "rate"), rows
    )


def _linger(console: Console, options: DemoOptions, telemetry: DemoTelemetry) -> None:
    # Metrics stay readable (Prometheus scrape, periodic OTLP export) until the providers stop, which
    # they do right after this: the last line says so rather than print a URL that is about to go away.
    if options.linger_s <= 0:
        if telemetry.metrics_url is not None:
            console.print(
                f"Prometheus metrics were served at {telemetry.metrics_url} during the run; "
                "--linger SECONDS keeps them up after it",
                highlight=False,
            )
        return
    where = telemetry.metrics_url or options.otlp_endpoint or "the in-process providers"
    console.print(
        f"keeping metrics available at {where} for {options.linger_s:g} s (Ctrl-C ends it sooner)",
        highlight=False,
    )
    try:
        time.sleep(options.linger_s)
    except KeyboardInterrupt:
        console.print("stopped lingering")
