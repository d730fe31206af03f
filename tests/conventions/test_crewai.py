"""CrewAI spans under Traceloop's opentelemetry-instrumentation-crewai 0.62.4, shaped after its
``instrumentation.py`` (unit-tested shapes: CrewAI's dependency tree is too heavy for a CI venv)."""

from __future__ import annotations

import json

from otel_groundedness.conventions import read_span
from tests.conventions.spans import ANSWER, PROMPT, span, text

TASK = {
    "traceloop.span.kind": "task",
    "gen_ai.provider.name": "crewai",
    "gen_ai.operation.name": "invoke_agent",
    "crewai.task.description": PROMPT,
    "crewai.task.agent": "Billing analyst",
    "crewai.task.expected_output": "The total and due date",
    "traceloop.entity.output": ANSWER,
}


def test_task_span_output_is_the_turn_answer() -> None:
    facts = read_span(span(TASK, f"{PROMPT}.task"))
    assert facts is not None and facts.convention == "crewai" and facts.is_agent
    assert facts.answer == ANSWER and facts.user_prompt == PROMPT
    assert facts.context.agent_name == "Billing analyst" and facts.context.provider == "crewai"


def test_crew_workflow_span_is_a_semconv_agent_span() -> None:
    attributes = {
        "gen_ai.provider.name": "crewai",
        "gen_ai.operation.name": "invoke_agent",
        "crewai.crew.result": ANSWER,  # repeats the last task's output
    }
    facts = read_span(span(attributes, "crewai.workflow"))
    assert facts is not None and facts.convention == "semconv" and facts.is_agent and facts.answer is None


def test_agent_and_llm_spans_fall_to_traceloop_and_semconv() -> None:
    agent = {
        "traceloop.span.kind": "agent",
        "gen_ai.provider.name": "crewai",
        "gen_ai.agent.name": "Billing analyst",
    }
    facts = read_span(span(agent, "Billing analyst.agent"))
    assert facts is not None and facts.convention == "traceloop" and facts.is_agent
    llm = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.input.messages": json.dumps([text("user", PROMPT)]),
        "gen_ai.output.messages": json.dumps([text("assistant", ANSWER)]),
    }
    facts = read_span(span(llm, "gpt-4o-mini.llm"))
    assert facts is not None and facts.convention == "semconv" and facts.answer == ANSWER


def test_traceloop_sdk_task_spans_of_other_providers_are_not_crewai() -> None:
    attributes = {**TASK, "gen_ai.provider.name": "openai"}
    facts = read_span(span(attributes))
    assert facts is None or facts.convention != "crewai"
