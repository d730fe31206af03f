"""What the processor emits for real SDK spans: enriched copies, the evaluation event and log record."""

from __future__ import annotations

import json

from opentelemetry.trace import SpanKind

from otel_groundedness.telemetry import names
from tests.processor.conftest import (
    CORRUPTED_ANSWER,
    GROUNDED_ANSWER,
    INVOICE_RESULT,
    USER_PROMPT,
    PipelineFactory,
    chat_attributes,
    emit_chat,
    emit_tool,
    messages,
    user,
)


def test_self_contained_chat_span_is_scored_on_an_enriched_copy(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    original = emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    pipeline.flush()

    (span,) = pipeline.spans.get_finished_spans()
    attributes = span.attributes or {}
    assert attributes[names.ATTR_LABEL] == "grounded"
    assert attributes[names.ATTR_SCORE] == 1.0
    assert attributes[names.ATTR_SCORE_PERCENT] == 100
    assert attributes[names.ATTR_ATOMS_TOTAL] >= 3
    assert attributes[names.ATTR_ATOMS_SUPPORTED] == attributes[names.ATTR_ATOMS_TOTAL]
    assert attributes[names.ATTR_ATOMS_CONTRADICTED] == 0
    assert attributes[names.ATTR_EVIDENCE_TRUNCATED] is False
    # The copy is the same span: ids, name, times, and the answer text byte for byte.
    assert span.context == original.get_span_context()
    assert span.name == "chat gpt-4o-mini"
    assert span.kind is SpanKind.CLIENT
    assert attributes["gen_ai.output.messages"] == chat_attributes(GROUNDED_ANSWER)["gen_ai.output.messages"]

    (event,) = span.events
    assert event.name == names.EVENT_EVALUATION_RESULT
    assert event.attributes is not None
    assert event.attributes[names.ATTR_EVALUATION_NAME] == "groundedness"
    assert event.attributes[names.ATTR_EVALUATION_SCORE_VALUE] == 1.0
    assert event.attributes[names.ATTR_RESPONSE_ID] == "chatcmpl-1"


def test_corrupted_figure_is_reported_on_span_event_and_log_record(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    emit_chat(pipeline.tracer, CORRUPTED_ANSWER)
    pipeline.flush()

    (span,) = pipeline.spans.get_finished_spans()
    attributes = span.attributes or {}
    assert attributes[names.ATTR_ATOMS_CONTRADICTED] == 1
    assert attributes[names.ATTR_LABEL] != "grounded"
    assert attributes[names.ATTR_SCORE] < 1.0

    (record,) = [
        r.log_record
        for r in pipeline.log_records()
        if r.log_record.event_name == names.EVENT_EVALUATION_RESULT
    ]
    assert record.trace_id == span.context.trace_id
    assert record.span_id == span.context.span_id
    log_attributes = record.attributes or {}
    assert log_attributes[names.ATTR_EVALUATION_NAME] == "groundedness"
    assert log_attributes[names.ATTR_EVALUATION_SCORE_VALUE] == attributes[names.ATTR_SCORE]
    assert log_attributes[names.ATTR_EVALUATION_SCORE_LABEL] == attributes[names.ATTR_LABEL]
    assert log_attributes[names.ATTR_RESPONSE_ID] == "chatcmpl-1"
    explanation = str(log_attributes[names.ATTR_EVALUATION_EXPLANATION])
    assert "contradicted: $1,234,500" in explanation


def test_non_genai_spans_are_forwarded_untouched_and_at_once(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    with pipeline.tracer.start_as_current_span("GET /invoices", attributes={"http.route": "/invoices"}):
        pass
    # No flush: the downstream SimpleSpanProcessor has already exported it on the app thread.
    (span,) = pipeline.spans.get_finished_spans()
    assert dict(span.attributes or {}) == {"http.route": "/invoices"}
    assert span.events == ()


def test_agent_turn_pairs_execute_tool_results_and_scores_the_chat_span_once(
    make_pipeline: PipelineFactory,
) -> None:
    pipeline = make_pipeline()
    tracer = pipeline.tracer
    with tracer.start_as_current_span("invoke_agent invoice-agent") as agent:
        agent.set_attribute("gen_ai.operation.name", "invoke_agent")
        agent.set_attribute("gen_ai.agent.name", "invoice-agent")
        emit_tool(tracer, INVOICE_RESULT)
        # The final chat call re-sends no tool result (history trimmed): evidence only on the tool span.
        emit_chat(tracer, GROUNDED_ANSWER, tool_result=None)
        agent.set_attribute(
            "gen_ai.output.messages",
            messages({"role": "assistant", "parts": [{"type": "text", "content": GROUNDED_ANSWER}]}),
        )
        # Nothing scored while the agent is open: the chat span is held.
        pipeline.flush()
        assert "chat gpt-4o-mini" not in pipeline.finished()
    pipeline.flush()

    spans = pipeline.finished()
    assert set(spans) == {"invoke_agent invoice-agent", "execute_tool get_invoice", "chat gpt-4o-mini"}
    chat = spans["chat gpt-4o-mini"].attributes or {}
    assert chat[names.ATTR_LABEL] == "grounded"
    assert names.ATTR_SCORE not in (spans["invoke_agent invoice-agent"].attributes or {})
    assert names.ATTR_SCORE not in (spans["execute_tool get_invoice"].attributes or {})
    assert pipeline.counter(names.METRIC_TURNS.name) == 1
    assert pipeline.counter(names.METRIC_SKIPPED.name, **{names.ATTR_SKIP_REASON: "duplicate"}) == 1
    (turn_point,) = pipeline.metric_points()[names.METRIC_TURNS.name]
    assert turn_point.attributes[names.ATTR_AGENT_NAME] == "invoice-agent"


def test_event_form_log_records_are_paired_with_their_content_free_span(
    make_pipeline: PipelineFactory,
) -> None:
    pipeline = make_pipeline()
    logger = pipeline.logger_provider.get_logger("opentelemetry.instrumentation.openai_v2")
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
    }
    with pipeline.tracer.start_as_current_span("chat gpt-4o-mini", attributes=attributes):
        logger.emit(event_name="gen_ai.user.message", body={"content": USER_PROMPT})
        logger.emit(event_name="gen_ai.tool.message", body={"content": INVOICE_RESULT, "id": "call_1"})
        logger.emit(
            event_name="gen_ai.choice",
            body={
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": CORRUPTED_ANSWER},
            },
        )
    pipeline.flush()

    (span,) = pipeline.spans.get_finished_spans()
    scored = span.attributes or {}
    assert scored[names.ATTR_ATOMS_CONTRADICTED] == 1
    # The input records reach the downstream log processor unchanged, beside our evaluation record.
    event_names = [r.log_record.event_name for r in pipeline.log_records()]
    assert event_names == [
        "gen_ai.user.message",
        "gen_ai.tool.message",
        "gen_ai.choice",
        names.EVENT_EVALUATION_RESULT,
    ]


def test_unscorable_spans_are_counted_by_reason(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    tracer = pipeline.tracer
    with tracer.start_as_current_span("chat no-content", attributes={"gen_ai.operation.name": "chat"}):
        pass
    tool_call = messages({"role": "assistant", "parts": [{"type": "tool_call", "id": "c", "name": "f"}]})
    tool_call_attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": messages(user("hi")),
        "gen_ai.output.messages": tool_call,
    }
    with tracer.start_as_current_span("chat tool-call", attributes=tool_call_attributes):
        pass  # an intermediate step of a healthy turn: released without a skip
    filtered_attributes = {
        **tool_call_attributes,
        "gen_ai.output.messages": messages(
            {"role": "assistant", "parts": [], "finish_reason": "content_filter"}
        ),
    }
    with tracer.start_as_current_span("chat filtered", attributes=filtered_attributes):
        pass
    with tracer.start_as_current_span("POST /ask"):  # one trace: dedup is per trace
        emit_chat(tracer, GROUNDED_ANSWER, name="chat first", response_id="chatcmpl-dup")
        emit_chat(tracer, GROUNDED_ANSWER, name="chat second", response_id="chatcmpl-dup")
    pipeline.flush()

    def skipped(reason: str) -> int:
        return pipeline.counter(names.METRIC_SKIPPED.name, **{names.ATTR_SKIP_REASON: reason})

    assert skipped("content_not_captured") == 1
    assert skipped("no_answer") == 1  # the filtered completion, not the tool-call step
    assert skipped("duplicate") == 1
    assert pipeline.counter(names.METRIC_SKIPPED.name) == 3
    assert len(pipeline.spans.get_finished_spans()) == 6
    assert names.ATTR_SCORE not in (pipeline.finished()["chat second"].attributes or {})


def test_switches_turn_off_the_span_event_and_the_log_record(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline(emit_span_event=False, emit_log_record=False)
    emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    pipeline.flush()
    (span,) = pipeline.spans.get_finished_spans()
    assert names.ATTR_SCORE in (span.attributes or {})
    assert span.events == ()
    assert pipeline.log_records() == []


def test_answer_text_is_byte_identical_with_and_without_the_processor(make_pipeline: PipelineFactory) -> None:
    answer = "Total: $1,243,500 — due 2025-03-03 ✓ \u200b" + json.dumps({"k": "ü"})
    pipeline = make_pipeline()
    emit_chat(pipeline.tracer, answer)
    pipeline.flush()
    (span,) = pipeline.spans.get_finished_spans()
    expected = chat_attributes(answer)
    for key, value in expected.items():
        assert (span.attributes or {})[key] == value


def test_scored_chat_span_carries_its_agents_name(make_pipeline: PipelineFactory) -> None:
    # Jaeger matches every tag of a search on one span: the agent's name must be on the scored span.
    pipeline = make_pipeline()
    tracer = pipeline.tracer
    with tracer.start_as_current_span("invoke_agent invoice-agent") as agent:
        agent.set_attribute("gen_ai.operation.name", "invoke_agent")
        agent.set_attribute("gen_ai.agent.name", "invoice-agent")
        emit_tool(tracer, INVOICE_RESULT)
        emit_chat(tracer, CORRUPTED_ANSWER)
    pipeline.flush()

    spans = pipeline.finished()
    chat = spans["chat gpt-4o-mini"].attributes or {}
    assert chat[names.ATTR_LABEL] == "ungrounded"
    assert chat[names.ATTR_AGENT_NAME] == "invoice-agent"
    assert names.ATTR_AGENT_NAME not in (spans["execute_tool get_invoice"].attributes or {})


def test_an_instrumentations_own_agent_name_is_never_replaced(make_pipeline: PipelineFactory) -> None:
    # Longer than the metric label cap: the turn's (cut) name differs from the span's own.
    own = "billing-" + "x" * (names.MAX_METRIC_ATTRIBUTE_CHARS + 10)
    pipeline = make_pipeline()
    tracer = pipeline.tracer
    with tracer.start_as_current_span("invoke_agent other") as agent:
        agent.set_attribute("gen_ai.operation.name", "invoke_agent")
        agent.set_attribute("gen_ai.agent.name", "other")
        with tracer.start_as_current_span(
            "chat gpt-4o-mini",
            kind=SpanKind.CLIENT,
            attributes={**chat_attributes(GROUNDED_ANSWER), "gen_ai.agent.name": own},
        ):
            pass
    pipeline.flush()

    chat = pipeline.finished()["chat gpt-4o-mini"].attributes or {}
    assert chat[names.ATTR_LABEL] == "grounded"
    assert chat[names.ATTR_AGENT_NAME] == own
    (turn_point,) = pipeline.metric_points()[names.METRIC_TURNS.name]
    assert turn_point.attributes[names.ATTR_AGENT_NAME] == own[: names.MAX_METRIC_ATTRIBUTE_CHARS]


def test_a_turn_without_an_agent_name_adds_none(make_pipeline: PipelineFactory) -> None:
    pipeline = make_pipeline()
    emit_chat(pipeline.tracer, GROUNDED_ANSWER)
    pipeline.flush()

    (span,) = pipeline.spans.get_finished_spans()
    attributes = span.attributes or {}
    assert attributes[names.ATTR_LABEL] == "grounded"
    assert names.ATTR_AGENT_NAME not in attributes
