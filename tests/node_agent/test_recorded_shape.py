"""What the convention adapters read off real AI SDK 7 spans, from recordings of the Node agent.

``tests/data/otlp/vercel-ai-sdk7.jsonl`` (default ``OpenTelemetry`` integration) and
``vercel-ai-sdk7-legacy.jsonl`` (``LegacyOpenTelemetry``) were written by the project's Collector from
``agents/vercel-ai/agent.mjs < prompts.jsonl`` (ai 7.0.173, @ai-sdk/otel 1.0.173, @ai-sdk/openai
4.0.118; how to re-record: tests/data/otlp/README.md). Four turns: INV-2210 and INV-2211 through
``generateText``, INV-2212 and INV-2211 through ``streamText``; INV-2211's answer has a transposed
total. These tests need neither Node nor a Collector, so an adapter change that stops reading the
shape fails here first.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from otel_groundedness.cli.main import main
from otel_groundedness.conventions import read_span
from otel_groundedness.core.trace_feed import score_trace
from otel_groundedness.otlp.files import iter_otlp_file
from otel_groundedness.records import SpanFacts, SpanRecord

DATA = Path(__file__).resolve().parents[1] / "data" / "otlp"
SEMCONV = DATA / "vercel-ai-sdk7.jsonl"
LEGACY = DATA / "vercel-ai-sdk7-legacy.jsonl"
PROMPT = "What is the total and due date of invoice {}?"
ANSWERS = [
    "Invoice INV-2210 totals $1,243,500.00 and is due on March 3, 2025.",
    "Invoice INV-2211 totals $84,612.75 and is due on April 15, 2025.",
    "Invoice INV-2212 for $318,900.40 was due on May 30, 2025 and is paid.",
    "Invoice INV-2211 totals $84,612.75 and is due on April 15, 2025.",
]


def spans(path: Path) -> list[SpanRecord]:
    return [span for chunk in iter_otlp_file(path) for span in chunk.spans]


def by_trace(records: list[SpanRecord]) -> list[list[SpanRecord]]:
    """Spans grouped per turn (one trace each), turns in start order."""
    traces: dict[int, list[SpanRecord]] = {}
    for record in records:
        traces.setdefault(record.trace_id, []).append(record)
    return sorted(traces.values(), key=lambda trace: min(span.start_time_ns for span in trace))


def facts(span: SpanRecord) -> SpanFacts:
    read = read_span(span)
    assert read is not None, span.name
    return read


def named(trace: list[SpanRecord], name: str) -> list[SpanRecord]:
    return sorted((span for span in trace if span.name == name), key=lambda span: span.start_time_ns)


def tool_call_id(span: SpanRecord, key: str) -> str:
    value = span.attributes[key]
    assert isinstance(value, str)
    return value


def replay_json(path: Path, tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "report.json"
    assert main(["replay", str(path), "--json", str(out), "--no-progress"]) == 0
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def test_semconv_spans_as_the_adapters_read_them() -> None:
    traces = by_trace(spans(SEMCONV))
    assert len(traces) == 4
    for index, trace in enumerate(traces):
        invoice = f"INV-221{(0, 1, 2, 1)[index]}"
        prompt, answer = PROMPT.format(invoice), ANSWERS[index]
        [tool] = named(trace, "execute_tool get_invoice")
        call_id = tool_call_id(tool, "gen_ai.tool.call.id")
        record = json.loads(tool.attributes["gen_ai.tool.call.result"])
        assert record["invoice_id"] == invoice

        # execute_tool: the tool's JSON result, keyed by the tool-call id.
        read = facts(tool)
        assert read.convention == "semconv" and read.is_tool
        assert [(json.loads(e.content), e.source_id, e.name) for e in read.evidence] == [
            (record, call_id, "get_invoice")
        ]
        # First chat span: the model asks for the tool (finish reason "tool-calls"), a step, no answer.
        asks, final = named(trace, "chat gpt-4o-mini")
        read = facts(asks)
        assert read.tool_call_step and read.answer is None and read.user_prompt == prompt
        # Final chat span: self-contained answer, tool result (tool_call_response part) and prompt.
        read = facts(final)
        assert (read.answer, read.user_prompt, read.tool_call_step) == (answer, prompt, False)
        assert [(e.content, e.source_id) for e in read.evidence] == [(record, call_id)]
        assert (read.context.provider, read.context.request_model) == ("openai", "gpt-4o-mini")
        # invoke_agent: the run's answer, plus tool call and result parts in the same output message.
        [agent] = named(trace, "invoke_agent invoice-agent")
        read = facts(agent)
        assert read.is_agent and (read.answer, read.user_prompt) == (answer, prompt)
        assert read.context.agent_name == "invoice-agent"
        assert [(e.content, e.source_id) for e in read.evidence] == [(record, call_id)]
        # step N spans (gen_ai.operation.name "agent_step") carry nothing to read.
        assert [read_span(step) for step in named(trace, "step 1") + named(trace, "step 2")] == [None, None]


def test_legacy_spans_as_the_adapters_read_them() -> None:
    traces = by_trace(spans(LEGACY))
    assert len(traces) == 4
    for index, trace in enumerate(traces):
        invoice = f"INV-221{(0, 1, 2, 1)[index]}"
        prompt, answer = PROMPT.format(invoice), ANSWERS[index]
        root = "ai.streamText" if index >= 2 else "ai.generateText"
        step = f"{root}.doStream" if index >= 2 else f"{root}.doGenerate"
        assert Counter(span.name for span in trace) == Counter({root: 1, step: 2, "ai.toolCall": 1})
        [tool] = named(trace, "ai.toolCall")
        call_id = tool_call_id(tool, "ai.toolCall.id")
        record = json.loads(tool.attributes["ai.toolCall.result"])
        read = facts(tool)
        assert read.convention == "vercel_ai" and read.is_tool
        assert [(e.source_id, e.name) for e in read.evidence] == [(call_id, "get_invoice")]
        asks, final = named(trace, step)
        assert facts(asks).tool_call_step and facts(asks).answer is None
        read = facts(final)
        assert (read.answer, read.user_prompt, read.tool_call_step) == (answer, prompt, False)
        assert [(e.content, e.source_id, e.name) for e in read.evidence] == [(record, call_id, "get_invoice")]
        assert facts(named(trace, root)[0]).is_agent


def test_legacy_root_span_carries_the_runs_answer() -> None:
    for index, trace in enumerate(by_trace(spans(LEGACY))):
        root = "ai.streamText" if index >= 2 else "ai.generateText"
        assert facts(named(trace, root)[0]).answer == ANSWERS[index]


@pytest.mark.parametrize("path", [SEMCONV, LEGACY], ids=["semconv", "legacy"])
def test_replay_scores_every_turn_once(path: Path, tmp_path: Path) -> None:
    report = replay_json(path, tmp_path)
    assert Counter(turn["answer"] for turn in report["turns"]) == Counter(ANSWERS)
    labels = [(turn["label"], round(turn["score"], 3)) for turn in report["turns"]]
    assert Counter(labels) == Counter({("grounded", 1.0): 2, ("ungrounded", 0.667): 2})
    for turn in report["turns"]:
        if "INV-2211" in turn["answer"]:
            [atom] = turn["report"]["contradicted"]
            assert (atom["text"], atom["reason"], atom["citation"]["text"]) == (
                "$84,612.75",
                "digit_transposition",
                "$86,412.75",
            )
    summary = report["summary"]
    assert (summary["turns"], summary["scored_turns"], summary["contradicted_atoms"]) == (4, 4, 2)
    if path == SEMCONV:
        # invoke_agent repeats the final chat span's answer: scored once, the repeat is a duplicate.
        assert summary["skipped"] == {"duplicate": 4}


def test_every_span_start_is_a_whole_millisecond() -> None:
    # OTel JS takes a span's start from Date.now() and its end as start + measured duration, so the
    # ends of two spans can be out of order by up to 1 ms (the pairing tolerates that much).
    for path in (SEMCONV, LEGACY):
        records = spans(path)
        assert all(span.start_time_ns % 1_000_000 == 0 for span in records)
        assert any(span.end_time_ns % 1_000_000 for span in records)


@pytest.mark.parametrize("path", [SEMCONV, LEGACY], ids=["semconv", "legacy"])
def test_the_final_model_call_is_scored_even_when_stamped_after_its_root(path: Path) -> None:
    """The final model-call span really ends first, but its stamped end can fall after the root's
    (seen in CI): the score still goes on the model call, and the root's repeat is the duplicate."""
    for index, trace in enumerate(by_trace(spans(path))):
        if path == SEMCONV:
            root_name, call_name = "invoke_agent invoice-agent", "chat gpt-4o-mini"
        else:
            root_name = "ai.streamText" if index >= 2 else "ai.generateText"
            call_name = f"{root_name}.doStream" if index >= 2 else f"{root_name}.doGenerate"
        [root] = named(trace, root_name)
        final = named(trace, call_name)[-1]
        for end_ns in (final.end_time_ns, root.end_time_ns + 400_000):
            stamped = dataclasses.replace(final, end_time_ns=end_ns)
            scored = score_trace(root.trace_id, [stamped if span is final else span for span in trace])
            assert [turn.source.span_id for turn in scored.scored] == [final.span_id], (index, end_ns)
            assert scored.skipped == Counter({"duplicate": 1})
