"""Adapters never raise or recurse on hostile input; too-deep content is kept as text and flagged."""

from __future__ import annotations

from otel_groundedness.conventions import read_span
from tests.conventions.spans import span

DEEP_JSON = "[" * 50_000 + '{"total": 1243500}' + "]" * 50_000


def tool_span(result: str) -> dict[str, object]:
    return {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_invoice",
        "gen_ai.tool.call.id": "call_1",
        "gen_ai.tool.call.result": result,
    }


def test_json_too_deep_to_parse_stays_evidence_as_text_and_is_flagged() -> None:
    facts = read_span(span(tool_span(DEEP_JSON)))
    assert facts is not None and facts.is_tool
    assert facts.content_truncated
    (evidence,) = facts.evidence
    assert evidence.content == DEEP_JSON


def test_json_nested_400_deep_parses_whole() -> None:
    moderate = "[" * 400 + '{"total": 1243500}' + "]" * 400
    facts = read_span(span(tool_span(moderate)))
    assert facts is not None and not facts.content_truncated


def test_a_final_result_too_deep_to_render_is_malformed_not_an_exception() -> None:
    deep: object = {"total": 1}
    for _ in range(50_000):
        deep = [deep]
    facts = read_span(span({"final_result": deep, "pydantic_ai.all_messages": "[]"}))
    assert facts is not None and facts.answer is None and facts.content_truncated


def test_openinference_agent_without_agent_name_does_not_use_the_span_name() -> None:
    attributes = {"openinference.span.kind": "AGENT", "output.value": "Done: $1,243,500."}
    facts = read_span(span(attributes, name="run 7f3a9c request 1234"))
    assert facts is not None and facts.is_agent
    assert facts.context.agent_name is None
