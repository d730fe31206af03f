"""OTel GenAI semconv spans and the message-parts variants found in the wild."""

from __future__ import annotations

import json

from otel_groundedness.conventions import read_span
from otel_groundedness.records import TurnContext
from tests.conventions.spans import (
    ANSWER,
    CALL_ID,
    INVOICE,
    INVOICE_JSON,
    PROMPT,
    span,
    text,
    tool_call,
    tool_response,
)

FINAL_OUTPUT = json.dumps(
    [{"role": "assistant", "parts": [{"type": "text", "content": ANSWER}], "finish_reason": "stop"}]
)


def chat(inputs: list[object], output: str = FINAL_OUTPUT, **extra: object) -> dict[str, object]:
    return {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
        "gen_ai.response.id": "chatcmpl-1",
        "gen_ai.input.messages": json.dumps(inputs),
        "gen_ai.output.messages": output,
        **extra,
    }


def test_final_chat_span_reads_answer_evidence_prompt_and_context() -> None:
    inputs = [text("system", "Be brief."), text("user", PROMPT), tool_call(), tool_response()]
    facts = read_span(span(chat(inputs), "chat gpt-4o-mini"))
    assert facts is not None
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, CALL_ID, "get_invoice")
    ]
    assert facts.context.response_model == "gpt-4o-mini-2024-07-18"
    assert (facts.context.provider, facts.context.response_id) == ("openai", "chatcmpl-1")


def test_only_tool_results_after_the_last_user_text_are_evidence() -> None:
    old_turn = [
        text("user", "Old question"),
        tool_call("call_old"),
        tool_response('{"total": 1}', "call_old"),
    ]
    inputs = [*old_turn, text("assistant", "Old answer"), text("user", PROMPT), tool_call(), tool_response()]
    facts = read_span(span(chat(inputs)))
    assert facts is not None
    assert [e.source_id for e in facts.evidence] == [CALL_ID]


def test_pydantic_ai_v5_result_key_in_user_role_does_not_start_a_new_turn() -> None:
    inputs = [
        text("user", PROMPT),
        tool_call(arguments='{"invoice_id": "INV-2210"}'),
        tool_response(INVOICE, key="result", role="user"),
    ]
    facts = read_span(span(chat(inputs)))
    assert facts is not None
    assert [(e.content, e.source_id) for e in facts.evidence] == [(INVOICE, CALL_ID)]
    assert facts.user_prompt == PROMPT


def test_tool_call_output_is_a_step_not_an_answer_in_any_finish_reason_spelling() -> None:
    for reason in ("tool_calls", "tool_call", "tool-calls"):
        output = json.dumps(
            [{"role": "assistant", "parts": [{"type": "text", "content": ""}], "finish_reason": reason}]
        )
        facts = read_span(span(chat([text("user", PROMPT)], output)))
        assert facts is not None and facts.answer is None and facts.tool_call_step, reason
    # Tool-call parts make a step even next to preamble text and without a finish reason.
    preamble = {"type": "text", "content": "Let me look that up."}
    with_call = json.dumps([{"role": "assistant", "parts": [preamble, tool_call()["parts"][0]]}])
    facts = read_span(span(chat([text("user", PROMPT)], with_call)))
    assert facts is not None and facts.answer is None and facts.tool_call_step


def test_final_and_empty_outputs_are_no_tool_call_steps() -> None:
    final = read_span(span(chat([text("user", PROMPT)])))
    assert final is not None and final.answer == ANSWER and not final.tool_call_step
    empty = json.dumps([{"role": "assistant", "parts": [], "finish_reason": "content_filter"}])
    filtered = read_span(span(chat([text("user", PROMPT)], empty)))
    assert filtered is not None and filtered.answer is None and not filtered.tool_call_step


def test_structured_attribute_values_and_stray_id_whitespace() -> None:
    """The SDK accepts maps and lists as attribute values and stores them as tuples of dicts."""
    response = {"type": "tool_call_response", "id": " call_fake0001", "result": "rainy, 57°F"}
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": (text("user", PROMPT), {"role": "tool", "parts": (response,)}),
        "gen_ai.output.messages": ({"role": "assistant", "parts": ({"type": "text", "content": ANSWER},)},),
        "gen_ai.response.finish_reasons": ("stop",),
    }
    facts = read_span(span(attributes))
    assert facts is not None
    assert facts.answer == ANSWER
    assert [(e.content, e.source_id) for e in facts.evidence] == [("rainy, 57°F", CALL_ID)]


def test_truncated_json_is_flagged_not_scored_as_empty() -> None:
    full = json.dumps([text("user", PROMPT), tool_call(), tool_response()])
    facts = read_span(span({**chat([]), "gen_ai.input.messages": full[: len(full) // 2]}))
    assert facts is not None
    assert facts.content_truncated is True and facts.evidence == ()
    assert facts.answer == ANSWER


def test_inference_span_without_content_is_recognised_but_not_captured() -> None:
    facts = read_span(
        span({"gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": "m"})
    )
    assert facts is not None
    assert facts.content_captured is False and facts.answer is None
    assert facts.context.provider == "openai"  # ≤1.36 attribute name


def test_content_off_spans_read_the_step_from_the_finish_reason_only() -> None:
    base = {"gen_ai.response.finish_reasons": ("tool_calls",)}
    step = read_span(span({"gen_ai.operation.name": "chat", **base}))
    assert step is not None and step.tool_call_step and not step.content_captured
    assert (step.answer, step.evidence, step.user_prompt, step.content_truncated) == (None, (), None, False)
    final = read_span(span({"gen_ai.operation.name": "chat", "gen_ai.response.finish_reasons": '["stop"]'}))
    assert final is not None and not final.tool_call_step and not final.content_captured
    agent = read_span(span({"gen_ai.operation.name": "invoke_agent", **base}))
    assert agent is not None and not agent.tool_call_step and agent.content_captured  # agents: no reason read


def test_context_takes_non_empty_strings_and_falls_back_to_the_system_name() -> None:
    facts = read_span(
        span(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": "",
                "gen_ai.system": "openai",
                "gen_ai.request.model": 4,
                "gen_ai.response.model": "m-1",
                "gen_ai.agent.name": "planner",
                "gen_ai.response.id": "r-1",
                "gen_ai.conversation.id": "c-1",
            }
        )
    )
    assert facts is not None
    assert facts.context == TurnContext("chat", "openai", None, "m-1", "planner", "r-1", "c-1")


def test_execute_tool_span_keeps_the_raw_result_string() -> None:
    attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_invoice",
        "gen_ai.tool.call.id": "call_9 ",
        "gen_ai.tool.call.result": INVOICE_JSON,
    }
    facts = read_span(span(attributes, "execute_tool get_invoice"))
    assert facts is not None and facts.is_tool
    assert [(e.content, e.source_id, e.name) for e in facts.evidence] == [
        (INVOICE_JSON, "call_9", "get_invoice")
    ]
    no_result = read_span(span({"gen_ai.operation.name": "execute_tool"}, span_id=0x1F))
    assert no_result is not None and no_result.content_captured is False and no_result.evidence == ()


def test_ai_sdk_7_invoke_agent_output_mixes_text_tool_call_and_result() -> None:
    output = [
        {
            "role": "assistant",
            "parts": [
                {"type": "text", "content": ANSWER},
                {
                    "type": "tool_call",
                    "id": CALL_ID,
                    "name": "get_invoice",
                    "arguments": {"invoice_id": "INV-2210"},
                },
                {"type": "tool_call_response", "id": CALL_ID, "response": INVOICE},
            ],
        }
    ]
    attributes = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "invoice-agent",
        "gen_ai.input.messages": json.dumps([text("user", PROMPT)]),
        "gen_ai.output.messages": json.dumps(output),
    }
    facts = read_span(span(attributes, "invoke_agent invoice-agent"))
    assert facts is not None and facts.is_agent
    assert facts.answer == ANSWER and facts.context.agent_name == "invoice-agent"
    assert [(e.content, e.name) for e in facts.evidence] == [(INVOICE, "get_invoice")]


def test_agent_span_without_content_still_closes_its_subtree() -> None:
    facts = read_span(span({"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "a"}))
    assert facts is not None and facts.is_agent and facts.content_captured and facts.answer is None


def test_ai_sdk_7_agent_step_and_unrelated_operations_are_not_read() -> None:
    for operation in ("agent_step", "embeddings", "create_agent"):
        assert read_span(span({"gen_ai.operation.name": operation})) is None


def test_logfire_v2_finish_reasons_json_string_and_streaming_spans() -> None:
    inputs = json.dumps([text("user", PROMPT), tool_call(), tool_response()])
    stopped = chat([], **{"gen_ai.input.messages": inputs, "gen_ai.response.finish_reasons": '["stop"]'})
    facts = read_span(span(stopped, "Chat Completion with 'gpt-4o-mini'"))
    assert facts is not None and facts.answer == ANSWER
    called = chat([], **{"gen_ai.input.messages": inputs, "gen_ai.response.finish_reasons": '["tool_calls"]'})
    facts = read_span(span(called))
    assert facts is not None and facts.answer is None and facts.tool_call_step
    # Streaming: the request span ends at once without output; the sibling log span holds the output.
    request = {"gen_ai.operation.name": "chat", "gen_ai.input.messages": inputs, "request_data": "{}"}
    request_facts = read_span(span(request, "Chat Completion with 'gpt-4o-mini'"))
    assert request_facts is not None and request_facts.answer is None and len(request_facts.evidence) == 1
    log_span = {
        "logfire.span_type": "log",
        "gen_ai.input.messages": inputs,
        "gen_ai.output.messages": FINAL_OUTPUT,
    }
    log_facts = read_span(span(log_span, "streaming response from 'gpt-4o-mini' took 0.20s"))
    assert log_facts is not None
    assert log_facts.answer == ANSWER and [e.source_id for e in log_facts.evidence] == [CALL_ID]


def test_retrieval_span_documents_are_retrieval_evidence() -> None:
    documents = [
        {"id": "doc-7", "content": "Invoice INV-2210 totals $1,243,500.", "score": 0.9},
        {"id": "doc-9", "score": 0.2},  # ids only: content capture was off for this one
    ]
    attributes = {
        "gen_ai.operation.name": "retrieval",
        "gen_ai.data_source.id": "invoices-kb",
        "gen_ai.retrieval.documents": json.dumps(documents),
    }
    facts = read_span(span(attributes, "retrieval invoices-kb"))
    assert facts is not None and facts.is_tool and facts.context.operation == "retrieval"
    assert [(e.content, e.source_id, e.kind, e.name) for e in facts.evidence] == [
        ("Invoice INV-2210 totals $1,243,500.", "doc-7", "retrieval", "doc-7")
    ]
    cut = read_span(span({**attributes, "gen_ai.retrieval.documents": '[{"id": "doc-7", "con'}))
    assert cut is not None and cut.content_truncated and not cut.content_captured


def test_conversation_turn_closes_a_turn_like_an_agent() -> None:
    output = json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": ANSWER}]}])
    attributes = {
        "gen_ai.operation.name": "handle_conversation_turn",
        "gen_ai.invocation.is_nested": False,
        "gen_ai.agent.name": "triage",
        "gen_ai.output.messages": output,
    }
    facts = read_span(span(attributes, "handle_conversation_turn triage"))
    assert facts is not None and facts.is_agent and facts.answer == ANSWER
    assert facts.context.agent_name == "triage"


def test_generic_parts_are_neither_answer_nor_tool_call() -> None:
    generic = {"type": "generic", "generic_type": "citation", "content": "$9,999"}
    with_text = json.dumps([{"role": "assistant", "parts": [generic, {"type": "text", "content": ANSWER}]}])
    facts = read_span(span(chat([text("user", PROMPT)], with_text)))
    assert facts is not None and facts.answer == ANSWER and not facts.tool_call_step
    only_generic = json.dumps([{"role": "assistant", "parts": [generic]}])
    facts = read_span(span(chat([text("user", PROMPT)], only_generic)))
    assert facts is not None and facts.answer is None and not facts.tool_call_step and facts.content_captured
