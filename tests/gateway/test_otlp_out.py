"""The evaluation written onto a received protobuf span: the scored span names its turn's agent, and an
instrumentation's own value is never replaced."""

from __future__ import annotations

from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.core import evaluate
from otel_groundedness.evaluator import describe
from otel_groundedness.gateway.otlp_out import write_evaluation
from otel_groundedness.otlp.values import ValueReader, add_key_values
from otel_groundedness.records import Turn, TurnContext
from otel_groundedness.scoring import Evidence, GroundednessPolicy
from otel_groundedness.telemetry import names

POLICY = GroundednessPolicy()
EVIDENCE = (Evidence('{"invoice_id": "INV-2210", "total": 1243500}', "call_1"),)
ANSWER = "Invoice INV-2210 totals $1,234,500."


def scored(own: dict[str, object], agent: str | None) -> dict[str, object]:
    span = Span(trace_id=b"\x01" * 16, span_id=b"\x02" * 8, name="chat gpt-4o")
    add_key_values(span.attributes, {"gen_ai.request.model": "gpt-4o", **own})
    context = TurnContext(operation="chat", request_model="gpt-4o", agent_name=agent)
    turn = Turn(1, 2, ANSWER, EVIDENCE, None, context)
    write_evaluation(span, evaluate(turn, POLICY, describe(POLICY)))
    keys = [item.key for item in span.attributes]
    assert len(keys) == len(set(keys))  # every key once
    return ValueReader().attributes(span.attributes)


def test_the_scored_span_gets_its_turns_agent_name() -> None:
    attributes = scored({}, "billing")
    assert attributes[names.ATTR_LABEL] == "ungrounded"
    assert attributes[names.ATTR_AGENT_NAME] == "billing"


def test_an_instrumentations_own_agent_name_is_kept() -> None:
    attributes = scored({names.ATTR_AGENT_NAME: "billing (own)"}, "billing")
    assert attributes[names.ATTR_AGENT_NAME] == "billing (own)"


def test_a_turn_without_an_agent_adds_no_agent_name() -> None:
    assert names.ATTR_AGENT_NAME not in scored({}, None)
