"""The replay engine pairs recorded spans in live order and enriches scored spans like the processor."""

from __future__ import annotations

import json

from otel_groundedness.records import SpanRecord
from otel_groundedness.replay.in_memory import replay
from otel_groundedness.telemetry import names

TRACE = 0xABC
TOOL_RESULT = json.dumps({"invoice_id": "INV-2210", "total": 1243500.0, "due_date": "2025-03-03"})


def _chat(span_id: int, start: int, end: int, answer: str, *, with_tool_result: bool = True) -> SpanRecord:
    inputs = [{"role": "user", "parts": [{"type": "text", "content": "Total of INV-2210?"}]}]
    if with_tool_result:
        inputs += [
            {"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "get_invoice"}]},
            {
                "role": "tool",
                "parts": [{"type": "tool_call_response", "id": "call_1", "response": TOOL_RESULT}],
            },
        ]
    outputs = [{"role": "assistant", "parts": [{"type": "text", "content": answer}], "finish_reason": "stop"}]
    return SpanRecord(
        trace_id=TRACE,
        span_id=span_id,
        parent_span_id=1,
        name="chat gpt-4o-mini",
        kind="CLIENT",
        start_time_ns=start,
        end_time_ns=end,
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "openai",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.input.messages": json.dumps(inputs),
            "gen_ai.output.messages": json.dumps(outputs),
        },
    )


def _agent(attributes: dict[str, str]) -> SpanRecord:
    return SpanRecord(TRACE, 1, None, "invoke_agent billing-agent", "INTERNAL", 0, 100, attributes)


def test_agent_without_genai_attributes_still_closes_its_turn_once() -> None:
    first = _chat(2, 10, 20, "Invoice INV-2210 totals $1,423,500.")
    last = _chat(3, 30, 40, "Invoice INV-2210 totals $1,243,500, due March 3, 2025.")
    # Input order is not time order: replay sorts by timestamps, as spans end live.
    result = replay([last, _agent({}), first])
    (scored,) = result.scored
    assert scored.span.span_id == 3 and scored.report.score == 1.0
    assert result.skipped["not_final"] == 1


def test_scored_span_is_enriched_and_others_pass_unchanged() -> None:
    agent = _agent({"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "billing-agent"})
    chat = _chat(2, 10, 20, "Invoice INV-2210 totals $1,423,500.")
    other = SpanRecord(TRACE, 9, 1, "GET /health", "SERVER", 1, 2, {"http.route": "/health"})
    result = replay([agent, chat, other])
    spans = {span.span_id: span for span in result.spans}
    assert spans[1] == agent and spans[9] == other
    enriched = spans[2]
    assert enriched.attributes[names.ATTR_LABEL] == "ungrounded"
    assert enriched.attributes[names.ATTR_ATOMS_CONTRADICTED] == 1
    assert enriched.events[-1].name == names.EVENT_EVALUATION_RESULT
    assert enriched.events[-1].attributes[names.ATTR_EVALUATION_NAME] == names.EVALUATION_NAME
    assert result.scored[0].span == enriched
    assert result.scored[0].turn.context.agent_name == "billing-agent"


def test_traces_are_scored_independently() -> None:
    other_trace = _chat(5, 10, 20, "Invoice INV-2210 totals $1,243,500.", with_tool_result=False)
    other_trace = SpanRecord(
        **{**{f: getattr(other_trace, f) for f in other_trace.__slots__}, "trace_id": 0xDEF}
    )
    result = replay([_chat(2, 10, 20, "Invoice INV-2210 totals $1,243,500."), other_trace])
    assert result.traces == 2
    by_trace = {scored.turn.trace_id: scored.report for scored in result.scored}
    assert by_trace[TRACE].score == 1.0
    # No tool result in the other trace: the evidence of the first must not leak into it.
    assert by_trace[0xDEF].score != 1.0
