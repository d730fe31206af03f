"""A real non-Python agent, end to end: the Vercel AI SDK (pinned in agents/vercel-ai) runs tool-calling
turns against the fake model server, the OpenTelemetry JS SDK exports them over OTLP/HTTP to the
project's custom Collector, whose `file` exporter records them, and `otel-groundedness replay` scores
the recording.

Two turns are clean and two carry a transposed total (the model's answer says $84,612.75 where the
tool returned 86412.75); one of each is generated with `generateText`, the other with `streamText`.
Both span shapes AI SDK 7 can emit are covered: the default `OpenTelemetry` integration (GenAI
semantic conventions) and `LegacyOpenTelemetry` (the `ai.*` spans of AI SDK ≤ 6).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from otel_groundedness.demo.fake_model_server import FakeModelServer
from tests.e2e.services import wait_for
from tests.node_agent.harness import (
    AGENT_NAME,
    MODEL,
    AgentTurn,
    load_fake_model,
    recorded_spans,
    replay_report,
    run_agent,
    start_recorder,
)

pytestmark = pytest.mark.e2e

FAKE = load_fake_model()
CLEAN, FAULTY = "INV-2210", "INV-2211"
# (invoice, streamed): clean and corrupted, each through generateText and streamText.
TURNS = [(CLEAN, False), (FAULTY, False), (CLEAN, True), (FAULTY, True)]
SERVICE_NAME = "node-invoice-agent"

SEMCONV_TRACE = Counter(
    {
        f"invoke_agent {AGENT_NAME}": 1,
        "step 1": 1,
        "step 2": 1,
        f"chat {MODEL}": 2,
        "execute_tool get_invoice": 1,
    }
)


def legacy_trace(stream: bool) -> Counter[str]:
    root = "ai.streamText" if stream else "ai.generateText"
    model_call = f"{root}.doStream" if stream else f"{root}.doGenerate"
    return Counter({root: 1, model_call: 2, "ai.toolCall": 1})


def scored_span_name(spans: str, stream: bool) -> str:
    """The final model call: the root repeats its answer, so the score goes on the more specific span,
    even when OTel JS's millisecond start stamps put the call's end after the root's."""
    if spans == "semconv":
        return f"chat {MODEL}"
    return "ai.streamText.doStream" if stream else "ai.generateText.doGenerate"


def atoms(report: dict[str, Any], verdict: str) -> list[tuple[str, str, str | None]]:
    """(answer text, reason, cited evidence text) of the atoms with ``verdict``."""
    return [(atom["text"], atom["reason"], (atom["citation"] or {}).get("text")) for atom in report[verdict]]


@pytest.mark.parametrize("spans", ["semconv", "legacy"])
def test_node_agent_turns_arrive_once_and_are_scored(
    spans: str, tmp_path: Path, collector_binary: Path, node_binary: Path
) -> None:
    with FakeModelServer(FAKE.script(), model=MODEL) as model:
        recorder = start_recorder(collector_binary, tmp_path / "collector")
        try:
            run = run_agent(
                node_binary,
                model_url=model.base_url,
                otlp_endpoint=recorder.otlp_http_endpoint,
                turns=[(FAKE.prompt_for(invoice), stream) for invoice, stream in TURNS],
                service_name=SERVICE_NAME,
                legacy_spans=spans == "legacy",
            )

            def all_recorded() -> bool | None:
                return True if sum(1 for _ in recorded_spans(recorder.path)) >= len(run.span_ids) else None

            wait_for("every exported span in the recording", all_recorded, timeout=30)
        finally:
            recorder.stop()  # the file is complete once the Collector has shut down

    # The agent ran every turn, and its OTLP exporter delivered every span it had.
    assert [(turn.prompt, turn.stream) for turn in run.turns] == [
        (FAKE.prompt_for(invoice), stream) for invoice, stream in TURNS
    ]
    assert [turn.answer for turn in run.turns] == [FAKE.ANSWERS[invoice] for invoice, _ in TURNS]
    assert run.failed_spans == 0 and run.span_ids

    # Every span the agent sent arrived exactly once, nothing else did, under the configured service.
    recorded = list(recorded_spans(recorder.path))
    assert Counter(span.span_id for span in recorded) == Counter(run.span_ids)
    assert all(count == 1 for count in Counter(run.span_ids).values())
    assert {span.resource["service.name"] for span in recorded} == {SERVICE_NAME}
    # One trace per turn, in the shape the pinned AI SDK emits.
    assert {span.trace_id for span in recorded} == {turn.trace_id for turn in run.turns}
    for turn in run.turns:
        names = Counter(span.name for span in recorded if span.trace_id == turn.trace_id)
        assert names == (SEMCONV_TRACE if spans == "semconv" else legacy_trace(turn.stream)), turn

    report = replay_report(recorder.path, tmp_path)
    assert report["summary"]["spans"] == len(run.span_ids)
    assert report["summary"]["turns"] == len(TURNS)
    scored = report["turns"]
    for turn, (invoice, _) in zip(run.turns, TURNS, strict=True):
        # Every turn is scored exactly once, on the final model call.
        [scored_turn] = [entry for entry in scored if entry["trace_id"] == turn.trace_id]
        assert_scored(scored_turn, turn, invoice, spans)


def assert_scored(scored: dict[str, Any], turn: AgentTurn, invoice: str, spans: str) -> None:
    assert scored["answer"] == turn.answer
    assert scored["span_name"] == scored_span_name(spans, turn.stream)
    assert (scored["agent"], scored["model"]) == (AGENT_NAME, MODEL)
    report = scored["report"]
    # The evidence is the tool's JSON record, cited as a tool result of get_invoice.
    money = [atom for atom in report["supported"] + report["contradicted"] if atom["kind"] == "money"]
    assert [(atom["citation"]["source_kind"], atom["citation"]["name"]) for atom in money] == [
        ("tool_result", "get_invoice")
    ]
    if invoice == "INV-2210":
        assert (scored["label"], scored["score"]) == ("grounded", 1.0)
        assert atoms(report, "supported") == [
            ("INV-2210", "exact", "INV-2210"),
            ("$1,243,500.00", "exact", "$1,243,500.00"),
            ("March 3, 2025", "reformatted", "2025-03-03"),
        ]
        assert report["contradicted"] == [] and report["unsupported"] == []
    else:
        assert scored["label"] == "ungrounded" and scored["score"] == pytest.approx(2 / 3)
        assert atoms(report, "contradicted") == [("$84,612.75", "digit_transposition", "$86,412.75")]
        assert [atom["text"] for atom in report["supported"]] == ["INV-2211", "April 15, 2025"]
