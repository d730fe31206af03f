"""``score_trace`` feeds a whole trace in live order: at equal timestamps an agent's start, then log
events, then span ends, each in input order."""

from __future__ import annotations

from otel_groundedness.core import score_trace
from otel_groundedness.records import LogEventRecord, SpanRecord

ANSWER = "Invoice INV-2210 totals $1,243,500."
RESULT = '{"invoice_id": "INV-2210", "total": 1243500}'


def _span(
    span_id: int, start: int, end: int, attributes: dict[str, object], name: str = "chat"
) -> SpanRecord:
    return SpanRecord(1, span_id, None, name, "INTERNAL", start, end, attributes)


def test_log_content_stamped_at_its_span_end_reaches_that_span() -> None:
    spans = [
        _span(2, 5, 10, {"gen_ai.operation.name": "chat", "gen_ai.system": "openai"}),
        _span(3, 1, 5, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.result": RESULT}),
        _span(4, 5, 10, {"gen_ai.operation.name": "invoke_agent"}, name="invoke_agent a"),
    ]
    choice = LogEventRecord(1, 2, "gen_ai.choice", {}, {"message": {"content": ANSWER}}, timestamp_ns=10)
    scored = score_trace(1, spans, [choice])
    # Fed after the chat span's end, the answer would miss it (content_not_captured, nothing scored).
    assert [(turn.position, turn.turn.answer) for turn in scored.scored] == [(0, ANSWER)]
    assert scored.scored[0].turn.evidence[0].content == RESULT
