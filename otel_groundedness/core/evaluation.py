"""A scored turn rendered once for every host: the report, span attributes and event attributes."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from otel_groundedness.evaluator import Evaluator
from otel_groundedness.records import SpanEventRecord, SpanRecord, Turn
from otel_groundedness.scoring import GroundednessPolicy, GroundednessReport, score
from otel_groundedness.telemetry import names
from otel_groundedness.telemetry.evaluation import (
    AttributeValue,
    evaluation_attributes,
    span_attributes,
    turn_attributes,
)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One scored turn: what goes on the span, on the ``gen_ai.evaluation.result`` event and record."""

    turn: Turn
    report: GroundednessReport
    span_attributes: dict[str, AttributeValue]
    # Written on the span only where it has no value of its own (the agent name, ``turn_attributes``).
    span_defaults: dict[str, AttributeValue]
    event_attributes: dict[str, AttributeValue]
    duration_s: float


def evaluate(turn: Turn, policy: GroundednessPolicy, evaluator: Evaluator) -> Evaluation:
    """Score ``turn`` and render the result."""
    started = time.perf_counter()
    report = score(turn.answer, turn.evidence, user_prompt=turn.user_prompt, policy=policy)
    duration_s = time.perf_counter() - started
    return Evaluation(
        turn,
        report,
        span_attributes(report, turn.evidence_truncated, evaluator),
        turn_attributes(turn.context),
        evaluation_attributes(report, turn.context.response_id, evaluator),
        duration_s,
    )


def enrich_record(span: SpanRecord, evaluation: Evaluation, *, with_event: bool = True) -> SpanRecord:
    """The scored copy of a recorded span: evaluation attributes added (the defaults where the span has
    none of its own), and the event at its end."""
    events = span.events
    if with_event:
        # Stamped at the span end so that viewers draw it inside the span it evaluates.
        event = SpanEventRecord(names.EVENT_EVALUATION_RESULT, evaluation.event_attributes, span.end_time_ns)
        events = (*events, event)
    attributes = {**evaluation.span_defaults, **span.attributes, **evaluation.span_attributes}
    return replace(span, attributes=attributes, events=events)
