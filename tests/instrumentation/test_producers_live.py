"""Producers beyond the OpenAI client instrumentations, live: real frameworks against the fake model
server, each in its own interpreter (``scenario_runner``), with the processor in front of the exporter.

Every scenario: the clean answer scores 1.0, the transposed total ($1,234,500 for $1,243,500) is
contradicted, and every span the application ended is exported exactly once.
"""

from __future__ import annotations

from typing import Any

import pytest

from otel_groundedness.telemetry import names
from tests.instrumentation.conversation import ANSWER, PROMPT, TOOL_RESULT
from tests.instrumentation.frameworks import DOCUMENTS, RAG_QUESTION
from tests.instrumentation.scenarios import live

pytestmark = pytest.mark.instrumentation

SCENARIOS = (
    "genai_openai_span",
    "genai_openai_event",
    "openinference_langchain_rag",
    "langsmith_langgraph",
    "langsmith_langchain_rag",
    "strands",
    "strands_latest",
    "langfuse",
    "langfuse_rag",
    "mlflow",
    "openai_agents_traceloop",
    "openai_agents_openinference",
    "openai_agents_official",
    "mcp",
    "adk_legacy",
    "adk",
)


def step_and_final(spans: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The tool-calling model span and the final one, whatever order they were exported in."""
    (step,) = [span for span in spans if span["facts"]["tool_call_step"]]
    (final,) = [span for span in spans if not span["facts"]["tool_call_step"]]
    return step, final


def scored_spans(run: dict[str, Any]) -> list[dict[str, Any]]:
    return [span for span in run["spans"] if names.ATTR_SCORE in span["groundedness"]]


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_clean_answer_scores_one_and_every_span_is_exported_once(name: str, mode: str) -> None:
    run = live(name)["runs"][mode]
    assert run["exchange"]["answer"] == ANSWER
    assert len(run["spans"]) == run["ended"] > 0
    assert len({span["span_id"] for span in run["spans"]}) == run["ended"]
    (span,) = scored_spans(run)
    attributes = span["groundedness"]
    assert attributes[names.ATTR_SCORE] == 1.0 and attributes[names.ATTR_LABEL] == "grounded"
    assert attributes[names.ATTR_ATOMS_SUPPORTED] >= 3


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("mode", ["nonstream", "stream", "corrupted"])
def test_replay_of_the_exported_telemetry_gives_the_live_scores(name: str, mode: str) -> None:
    run = live(name)["runs"][mode]
    scored = {str(span["span_id"]): span["groundedness"][names.ATTR_SCORE] for span in scored_spans(run)}
    assert scored and run["replay"] == scored


@pytest.mark.parametrize("name", SCENARIOS)
def test_transposed_total_is_contradicted(name: str) -> None:
    run = live(name)["runs"]["corrupted"]
    assert len(run["spans"]) == run["ended"]
    (span,) = scored_spans(run)
    attributes = span["groundedness"]
    assert attributes[names.ATTR_ATOMS_CONTRADICTED] >= 1 and attributes[names.ATTR_LABEL] == "ungrounded"


@pytest.mark.parametrize("name", ["openinference_langchain_rag", "langsmith_langchain_rag", "langfuse_rag"])
def test_rag_only_flow_is_grounded_in_the_retrieved_documents_alone(name: str) -> None:
    run = live(name)["runs"]["nonstream"]
    facts = [span["facts"] for span in run["spans"] if span["facts"]]
    (retriever,) = [f for f in facts if f["context"]["operation"] == "retrieval"]
    evidence = retriever["evidence"]
    assert [(e["content"], e["kind"], e["name"]) for e in evidence] == [
        (text, "retrieval", metadata["source"]) for text, metadata in DOCUMENTS
    ]
    (llm,) = scored_spans(run)
    # The chat span carries no tool results and a prompt without figures: the documents are the evidence.
    assert llm["facts"]["evidence"] == [] and llm["facts"]["user_prompt"] == RAG_QUESTION


@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_langsmith_otel_mode_reads_llm_and_tool_runs(mode: str) -> None:
    result = live("langsmith_langgraph")
    assert result["versions"]["langsmith"] == "0.14.17" and result["versions"]["langgraph"] == "1.2.22"
    run = result["runs"][mode]
    call_id = run["exchange"]["tool_call_id"]
    read = [span for span in run["spans"] if span["facts"]]
    assert {span["facts"]["convention"] for span in read} == {"langsmith"}  # chain runs are not read
    # LangSmith creates and ends a run's spans when it exports them, in batches: their order varies.
    chats = [span for span in read if span["name"] == "ChatOpenAI"]
    (first,) = [span for span in chats if span["facts"]["tool_call_step"]]
    (final,) = [span for span in chats if not span["facts"]["tool_call_step"]]
    assert first["facts"]["answer"] is None
    # The final LLM run is self-contained: the ToolMessage in its prompt is the turn's evidence.
    assert final["facts"]["answer"] == ANSWER and final["facts"]["user_prompt"] == PROMPT
    assert [(e["content"], e["source_id"]) for e in final["facts"]["evidence"]] == [(TOOL_RESULT, call_id)]
    (tool,) = [span for span in read if span["facts"]["is_tool"]]
    assert [(e["content"], e["source_id"], e["name"]) for e in tool["facts"]["evidence"]] == [
        (TOOL_RESULT, call_id, "get_invoice")
    ]


@pytest.mark.parametrize("name", ["strands", "strands_latest"])
def test_strands_content_in_span_events_and_tool_call_result(name: str) -> None:
    result = live(name)
    assert result["versions"]["strands-agents"] == "1.62.0"
    run = result["runs"]["nonstream"]
    call_id = run["exchange"]["tool_call_id"]
    by_name = {span["name"]: span["facts"] for span in run["spans"] if span["facts"]}
    # Default mode: the result is the tool span's gen_ai.choice event (its gen_ai.tool.message event is
    # the tool's input); latest mode: gen_ai.tool.call.result. Both hold [{"text": "<JSON>"}].
    tool = by_name["execute_tool get_invoice"]
    assert [(e["content"], e["source_id"]) for e in tool["evidence"]] == [(TOOL_RESULT, call_id)]
    agent = by_name["invoke_agent invoice-agent"]
    assert agent["is_agent"] and agent["answer"].strip() == ANSWER and agent["user_prompt"] == PROMPT
    final = [span for span in run["spans"] if span["name"] == "chat"][-1]
    assert final["facts"]["answer"] == ANSWER
    assert [(e["content"], e["source_id"]) for e in final["facts"]["evidence"]] == [(TOOL_RESULT, call_id)]


@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_official_genai_openai_content_on_spans_or_in_operation_details_records(mode: str) -> None:
    spans_result, events_result = live("genai_openai_span"), live("genai_openai_event")
    for result in (spans_result, events_result):
        versions = result["versions"]
        assert versions["opentelemetry-instrumentation-genai-openai"] == "1.3b0"
        assert versions["opentelemetry-util-genai"] == "1.3b0"
    # span_only: the final chat span is self-contained (semconv gen_ai.input/output.messages).
    run = spans_result["runs"][mode]
    call_id = run["exchange"]["tool_call_id"]
    first, final = step_and_final([span for span in run["spans"] if span["name"].startswith("chat ")])
    assert first["facts"]["tool_call_step"] is True and first["facts"]["answer"] is None
    assert final["facts"]["convention"] == "semconv" and final["facts"]["answer"] == ANSWER
    assert final["facts"]["user_prompt"] == PROMPT
    assert [(e["content"], e["source_id"]) for e in final["facts"]["evidence"]] == [(TOOL_RESULT, call_id)]
    assert not [log for log in run["logs"] if log["facts"]]
    # event_only: the spans carry no content; one operation-details log record per chat span does.
    run = events_result["runs"][mode]
    chats = [span for span in run["spans"] if span["name"].startswith("chat ")]
    assert [span["facts"]["content_captured"] for span in chats] == [False, False]
    details = {
        log["span_id"]: log["facts"]
        for log in run["logs"]
        if log["event_name"] == "gen_ai.client.inference.operation.details"
    }
    assert set(details) == {span["span_id"] for span in chats}
    final_details = details[chats[1]["span_id"]]
    assert final_details["answer"] == ANSWER and final_details["user_prompt"] == PROMPT
    assert [e["content"] for e in final_details["evidence"]] == [TOOL_RESULT]
    assert details[chats[0]["span_id"]]["tool_call_step"] is True
    (scored,) = scored_spans(run)
    assert scored["span_id"] == chats[1]["span_id"]


@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_langfuse_observations_without_gen_ai_keys(mode: str) -> None:
    result = live("langfuse")
    assert result["versions"]["langfuse"] == "5.2.0"
    run = result["runs"][mode]
    call_id = run["exchange"]["tool_call_id"]
    read = {span["name"]: span for span in run["spans"] if span["facts"]}
    assert {span["facts"]["convention"] for span in read.values()} == {"langfuse"}
    first, final = [
        s["facts"]
        for s in step_and_final([span for span in run["spans"] if span["name"] == "OpenAI-generation"])
    ]
    assert first["tool_call_step"] is True and first["answer"] is None
    # Streamed, the final generation's output is the plain text, not a message object.
    assert final["answer"] == ANSWER and final["user_prompt"] == PROMPT
    assert [(e["content"], e["source_id"]) for e in final["evidence"]] == [(TOOL_RESULT, call_id)]
    tool = read["get_invoice"]["facts"]
    assert tool["is_tool"] and [(e["content"], e["name"]) for e in tool["evidence"]] == [
        (TOOL_RESULT, "get_invoice")
    ]
    agent = read["invoice-agent"]["facts"]
    assert agent["is_agent"] and agent["answer"] == ANSWER
    (scored,) = scored_spans(run)
    assert scored["name"] == "OpenAI-generation"


@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_mlflow_spans_over_otlp_json_encoded_inputs_and_outputs(mode: str) -> None:
    result = live("mlflow")
    assert result["versions"]["mlflow-tracing"] == "3.17.2"
    run = result["runs"][mode]
    call_id = run["exchange"]["tool_call_id"]
    read = [span for span in run["spans"] if span["facts"]]
    assert len(read) == len(run["spans"]) and {span["facts"]["convention"] for span in read} == {"mlflow"}
    first, final = [
        s["facts"] for s in step_and_final([span for span in read if span["name"] == "Completions"])
    ]
    # Streamed, MLflow's rebuilt first output has no tool calls left, only the finish reason says so.
    assert first["tool_call_step"] is True and first["answer"] is None
    assert final["answer"] == ANSWER and final["user_prompt"] == PROMPT
    assert [(e["content"], e["source_id"]) for e in final["evidence"]] == [(TOOL_RESULT, call_id)]
    (tool,) = [span["facts"] for span in read if span["name"] == "get_invoice"]
    assert tool["is_tool"] and [(e["content"], e["name"]) for e in tool["evidence"]] == [
        (TOOL_RESULT, "get_invoice")
    ]
    (agent,) = [span["facts"] for span in read if span["name"] == "invoice-agent"]
    assert agent["is_agent"] and agent["answer"] == ANSWER


@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_openai_agents_sdk_under_its_three_instrumentations(mode: str) -> None:
    traceloop, openinference = live("openai_agents_traceloop"), live("openai_agents_openinference")
    official = live("openai_agents_official")
    assert traceloop["versions"]["openai-agents"] == official["versions"]["openai-agents"] == "0.24.0"
    assert traceloop["versions"]["opentelemetry-instrumentation-openai-agents"] == "0.62.4"
    assert openinference["versions"]["openinference-instrumentation-openai-agents"] == "2.6.0"
    assert official["versions"]["opentelemetry-instrumentation-genai-openai-agents"] == "1.3b0"
    for result, llm_name, conventions in (
        (traceloop, "openai.response", ("semconv", "traceloop")),
        (openinference, "response", ("openinference", "openinference")),
        # The official pair: -openai-agents writes workflow, agent and tool spans, -openai the chat spans.
        (official, "chat gpt-4o-mini", ("semconv", "semconv")),
    ):
        run = result["runs"][mode]
        call_id = run["exchange"]["tool_call_id"]
        first, final = [
            s["facts"] for s in step_and_final([span for span in run["spans"] if span["name"] == llm_name])
        ]
        assert first["tool_call_step"] is True and first["answer"] is None
        # Traceloop: the answer from the response span's gen_ai.output.messages (semconv reader).
        assert final["convention"] == conventions[0] and final["answer"] == ANSWER
        assert [(e["content"], e["source_id"]) for e in final["evidence"]] == [(TOOL_RESULT, call_id)]
        (tool,) = [span["facts"] for span in run["spans"] if span["facts"] and span["facts"]["is_tool"]]
        assert tool["convention"] == conventions[1]
        assert [(e["content"], e["name"]) for e in tool["evidence"]] == [(TOOL_RESULT, "get_invoice")]
        (scored,) = scored_spans(run)
        assert scored["name"] == llm_name and scored["groundedness"][names.ATTR_EVIDENCE_TRUNCATED] is False


def test_openai_agents_traceloop_chat_completions_path_records_no_output() -> None:
    """With OpenAIChatCompletionsModel, Traceloop's spans carry the input messages but no output: the
    tool results are read, the answer never is, so no turn is scored (the README says so)."""
    run = live("openai_agents_traceloop_chat")["runs"]["nonstream"]
    assert run["exchange"]["answer"] == ANSWER and len(run["spans"]) == run["ended"]
    responses = [span["facts"] for span in run["spans"] if span["name"] == "openai.response"]
    assert len(responses) == 2 and all(facts["answer"] is None for facts in responses)
    assert [e["content"] for e in responses[1]["evidence"]] == [TOOL_RESULT]
    assert scored_spans(run) == []


@pytest.mark.parametrize(("name", "skips"), [("langfuse", {"duplicate": 1}), ("mlflow", {"duplicate": 1})])
def test_healthy_turns_count_only_the_agents_duplicate_answer(name: str, skips: dict[str, int]) -> None:
    for mode in ("nonstream", "stream"):
        assert live(name)["runs"][mode]["replay_skipped"] == skips


@pytest.mark.parametrize(
    "name", ["openai_agents_traceloop", "openai_agents_openinference", "openai_agents_official"]
)
def test_openai_agents_healthy_turns_count_no_no_answer_skip(name: str) -> None:
    assert "no_answer" not in live(name)["runs"]["nonstream"]["replay_skipped"]


@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_mcp_sdk_server_spans_add_no_second_copy_of_the_result(mode: str) -> None:
    result = live("mcp")
    assert result["versions"]["mcp"] == "2.3.0"
    run = result["runs"][mode]
    call_id = run["exchange"]["tool_call_id"]
    mcp_spans = [span for span in run["spans"] if span["facts"] and span["facts"]["convention"] == "mcp"]
    # The SDK's server spans (tools/call, tools/list, discovery) are claimed, hold no evidence, skip nothing.
    assert "tools/call get_invoice" in {span["name"] for span in mcp_spans}
    assert all(span["facts"]["is_tool"] and span["facts"]["evidence"] == [] for span in mcp_spans)
    evidence = {
        (e["content"], e["source_id"])
        for span in run["spans"]
        if span["facts"]
        for e in span["facts"]["evidence"]
    }
    assert evidence == {(TOOL_RESULT, call_id)}
    assert run["replay_skipped"] == {}


@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_google_adk_legacy_and_semconv_schemas(mode: str) -> None:
    legacy, current = live("adk_legacy"), live("adk")
    assert legacy["versions"]["google-adk"] == current["versions"]["google-adk"] == "2.13.0"
    # Legacy (ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1): call_llm spans with the request's function responses.
    run = legacy["runs"][mode]
    call_id = run["exchange"]["tool_call_id"]
    first, final = [
        s["facts"] for s in step_and_final([span for span in run["spans"] if span["name"] == "call_llm"])
    ]
    assert first["convention"] == "adk_legacy" and first["tool_call_step"] and first["user_prompt"] == PROMPT
    assert final["answer"] == ANSWER and final["user_prompt"] == PROMPT
    # The {"result": ...} envelope ADK puts around a string return value is removed.
    assert [(e["content"], e["source_id"]) for e in final["evidence"]] == [(TOOL_RESULT, call_id)]
    (tool,) = [span["facts"] for span in run["spans"] if span["name"] == "execute_tool get_invoice"]
    assert tool["convention"] == "adk_legacy"
    assert [(e["content"], e["source_id"]) for e in tool["evidence"]] == [(TOOL_RESULT, call_id)]
    (scored,) = scored_spans(run)
    assert scored["name"] == "call_llm"
    # Semconv-aligned (the default): generate_content and execute_tool spans, read as semconv.
    run = current["runs"][mode]
    (scored,) = scored_spans(run)
    assert scored["name"] == "generate_content gpt-4o-mini" and scored["facts"]["convention"] == "semconv"
    assert scored["facts"]["answer"] == ANSWER
