"""CrewAI under Traceloop's ``opentelemetry-instrumentation-crewai``: a task span
(``traceloop.span.kind`` ``task``, provider ``crewai``) holds the task's output in
``traceloop.entity.output`` and its instruction in ``crewai.task.description``; it closes a turn with
that output as its answer. The LLM spans (``gen_ai.input/output.messages``) are semconv, the agent
spans Traceloop ``agent`` spans, and the crew's ``crewai.workflow`` span (an ``invoke_agent`` whose
``crewai.crew.result`` repeats the last task's output) a semconv agent span.
"""

from __future__ import annotations

from dataclasses import replace

from otel_groundedness.conventions._common import semconv_context, text_attr
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import SpanFacts, SpanRecord

CONVENTION = "crewai"
SPAN_KIND = "traceloop.span.kind"
GATE_KEYS = frozenset({SPAN_KIND})


def read(span: SpanRecord) -> SpanFacts | None:
    """Task spans; any other span is left to the next producer (Traceloop, semconv)."""
    attributes = span.attributes
    if (
        text_attr(attributes, SPAN_KIND) != "task"
        or text_attr(attributes, "gen_ai.provider.name") != "crewai"
    ):
        return None
    agent_name = text_attr(attributes, "crewai.task.agent")  # the role of the task's agent
    return SpanFacts(
        convention=CONVENTION,
        context=replace(semconv_context(attributes, "invoke_agent"), agent_name=agent_name),
        answer=text_attr(attributes, "traceloop.entity.output"),
        user_prompt=text_attr(attributes, "crewai.task.description"),
        is_agent=True,
    )


# Before the Traceloop reader, which leaves task spans to the semconv one (no answer there).
PRODUCER = Producer(name=CONVENTION, order=38, gate_keys=GATE_KEYS, read_span=read)
