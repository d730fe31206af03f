"""Real instrumentation libraries against the fake model server: what the adapters read off their output.

Each scenario runs in its own interpreter (see ``scenario_runner``); the ≤0.54 OpenLLMetry runs in
``.venv-openllmetry-legacy``. Every run has a harness ``invoke_agent`` span and a manual
``execute_tool`` span around the tool (Pydantic AI makes its own).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.instrumentation.conversation import ANSWER, MODEL, PROMPT, TOOL_RESULT
from tests.instrumentation.scenarios import legacy_openllmetry, scenario

pytestmark = pytest.mark.instrumentation

RUNS = ("nonstream", "stream")


def spans_named(run: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    return [span for span in run["spans"] if span["name"].startswith(prefix)]


def assert_final_chat(span: dict[str, Any], run: dict[str, Any], convention: str) -> None:
    """The final inference span is self-contained: answer, current-turn tool result, prompt, ids."""
    facts = span["facts"]
    exchange = run["exchange"]
    assert facts["convention"] == convention
    assert facts["answer"] == ANSWER == exchange["answer"]
    assert [(e["content"], e["source_id"], e["kind"]) for e in facts["evidence"]] == [
        (TOOL_RESULT, exchange["tool_call_id"], "tool_result")
    ]
    assert facts["user_prompt"] == PROMPT
    assert (facts["is_agent"], facts["is_tool"], facts["content_captured"]) == (False, False, True)
    assert facts["content_truncated"] is False and facts["tool_call_step"] is False
    context = facts["context"]
    assert (context["provider"], context["request_model"], context["operation"]) == ("openai", MODEL, "chat")
    assert context["response_id"] == exchange["response_ids"][1]


def assert_tool_call_step(span: dict[str, Any], run: dict[str, Any]) -> None:
    facts = span["facts"]
    assert facts["answer"] is None and facts["evidence"] == [] and facts["tool_call_step"] is True
    assert facts["user_prompt"] == PROMPT
    assert facts["context"]["response_id"] == run["exchange"]["response_ids"][0]


def assert_harness_spans(run: dict[str, Any]) -> None:
    (tool,) = spans_named(run, "execute_tool")
    assert tool["facts"]["is_tool"] is True
    assert [(e["content"], e["source_id"], e["name"]) for e in tool["facts"]["evidence"]] == [
        (TOOL_RESULT, run["exchange"]["tool_call_id"], "get_invoice")
    ]
    (agent,) = spans_named(run, "invoke_agent")
    assert agent["facts"]["is_agent"] is True and agent["facts"]["context"]["agent_name"] == "invoice-agent"
    assert all(span["gate"] for span in run["spans"])


@pytest.mark.parametrize("mode", RUNS)
def test_openai_v2_latest_experimental_spans_and_details_event(mode: str) -> None:
    result = scenario("openai_v2_latest")
    assert result["versions"]["opentelemetry-instrumentation-openai-v2"] == "2.4b0"
    run = result["runs"][mode]
    first, final = spans_named(run, "chat ")
    assert_tool_call_step(first, run)
    assert_final_chat(final, run, "semconv")
    assert final["facts"]["evidence"][0]["name"] == "get_invoice"
    assert_harness_spans(run)
    # The same content, structured, on one operation-details log record per chat span.
    details = {
        log["span_id"]: log["facts"]
        for log in run["logs"]
        if log["event_name"] == "gen_ai.client.inference.operation.details"
    }
    assert set(details) == {first["span_id"], final["span_id"]}
    assert details[final["span_id"]]["answer"] == ANSWER
    assert [e["content"] for e in details[final["span_id"]]["evidence"]] == [TOOL_RESULT]
    assert details[first["span_id"]]["answer"] is None and details[first["span_id"]]["tool_call_step"] is True


@pytest.mark.parametrize("mode", RUNS)
def test_openai_v2_default_mode_puts_content_in_per_message_events(mode: str) -> None:
    run = scenario("openai_v2_legacy_events")["runs"][mode]
    first, final = spans_named(run, "chat ")
    for span in (first, final):
        assert span["facts"]["content_captured"] is False and span["facts"]["answer"] is None
    assert final["facts"]["context"]["provider"] == "openai"  # from gen_ai.system
    on_final = [log for log in run["logs"] if log["span_id"] == final["span_id"] and log["facts"]]
    by_event = {log["event_name"]: log["facts"] for log in on_final}
    assert by_event["gen_ai.user.message"]["user_prompt"] == PROMPT
    assert [(e["content"], e["source_id"]) for e in by_event["gen_ai.tool.message"]["evidence"]] == [
        (TOOL_RESULT, run["exchange"]["tool_call_id"])
    ]
    assert by_event["gen_ai.choice"]["answer"] == ANSWER
    first_choice = [log for log in run["logs"] if log["span_id"] == first["span_id"]][-1]
    assert first_choice["event_name"] == "gen_ai.choice" and first_choice["facts"]["answer"] is None
    assert first_choice["facts"]["tool_call_step"] is True


@pytest.mark.parametrize("mode", RUNS)
def test_openllmetry_current_json_form_is_semconv(mode: str) -> None:
    result = scenario("openllmetry")
    assert result["versions"]["opentelemetry-instrumentation-openai"].startswith("0.62.")
    run = result["runs"][mode]
    first, final = spans_named(run, "openai.chat")
    assert_tool_call_step(first, run)
    assert_final_chat(final, run, "semconv")
    assert_harness_spans(run)


@pytest.mark.parametrize("mode", RUNS)
def test_openllmetry_events_mode_tool_message_has_no_id(mode: str) -> None:
    run = scenario("openllmetry_events")["runs"][mode]
    (agent,) = spans_named(run, "invoke_agent")
    first, final = spans_named(run, "openai.chat")
    assert first["facts"]["content_captured"] is False and final["facts"]["content_captured"] is False
    tool_messages = [log for log in run["logs"] if log["event_name"] == "gen_ai.tool.message"]
    assert [(e["content"], e["source_id"]) for log in tool_messages for e in log["facts"]["evidence"]] == [
        (TOOL_RESULT, None)
    ]
    answers = [log for log in run["logs"] if log["facts"] and log["facts"]["answer"]]
    assert [log["facts"]["answer"] for log in answers] == [ANSWER]
    # When streaming, the choice is logged after the chat span's context is gone: on the parent.
    expected_span = agent if mode == "stream" else final
    assert answers[0]["span_id"] == expected_span["span_id"]


@pytest.mark.parametrize("mode", RUNS)
def test_openllmetry_legacy_indexed_form(mode: str) -> None:
    result = legacy_openllmetry()
    assert result["versions"]["opentelemetry-instrumentation-openai"] == "0.53.4"
    run = result["runs"][mode]
    first, final = spans_named(run, "openai.chat")
    assert_tool_call_step(first, run)
    assert_final_chat(final, run, "openllmetry_indexed")
    assert final["facts"]["evidence"][0]["name"] == "get_invoice"  # resolved from the assistant's tool call
    assert_harness_spans(run)


@pytest.mark.parametrize("mode", RUNS)
def test_openinference_llm_spans(mode: str) -> None:
    result = scenario("openinference")
    run = result["runs"][mode]
    first, final = spans_named(run, "ChatCompletion")
    assert_tool_call_step(first, run)
    assert_final_chat(final, run, "openinference")  # response id parsed from output.value
    assert final["facts"]["context"]["response_model"] == MODEL  # llm.model_name
    assert_harness_spans(run)


@pytest.mark.parametrize("mode", RUNS)
def test_pydantic_ai_agent_chat_and_tool_spans(mode: str) -> None:
    result = scenario("pydantic_ai")
    assert result["versions"]["pydantic-ai-slim"] == "2.68.0"
    run = result["runs"][mode]
    exchange = run["exchange"]
    structured_result = json.loads(TOOL_RESULT)  # Pydantic AI records the tool result as an object
    first, final = spans_named(run, "chat ")
    assert_tool_call_step(first, run)
    facts = final["facts"]
    assert facts["answer"] == ANSWER and facts["user_prompt"] == PROMPT
    # Format v5: the tool result sits in a role "user" message under "result".
    assert [(e["content"], e["source_id"], e["name"]) for e in facts["evidence"]] == [
        (structured_result, exchange["tool_call_id"], "get_invoice")
    ]
    assert facts["context"]["agent_name"] == "invoice-agent"
    assert facts["context"]["response_id"] == exchange["response_ids"][1]
    (tool,) = spans_named(run, "execute_tool")
    assert json.loads(tool["facts"]["evidence"][0]["content"]) == structured_result
    (agent,) = spans_named(run, "invoke_agent")
    agent_facts = agent["facts"]
    assert agent_facts["convention"] == "pydantic_ai" and agent_facts["is_agent"] is True
    assert agent_facts["answer"] == ANSWER and agent_facts["user_prompt"] == PROMPT
    assert [e["content"] for e in agent_facts["evidence"]] == [structured_result]
    assert agent_facts["context"]["request_model"] == MODEL
