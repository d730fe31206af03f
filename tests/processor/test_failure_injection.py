"""Exactly once survives a failure at any stage of reading, pairing, scoring or emitting."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from opentelemetry._logs import SeverityNumber

from otel_groundedness.core import evaluation, evaluation_core
from otel_groundedness.pairing import PairingBuffer
from otel_groundedness.processor import work_handler
from otel_groundedness.telemetry.instruments import GroundednessInstruments
from tests.processor.conftest import (
    CORRUPTED_ANSWER,
    GROUNDED_ANSWER,
    INVOICE_RESULT,
    PipelineFactory,
    emit_chat,
    emit_tool,
)

# (owner, attribute): every step a span or log record passes through on the worker.
STAGES: list[tuple[Any, str]] = [
    (work_handler, "span_record_from_sdk"),
    (evaluation_core, "read_span"),
    (evaluation_core, "read_log_event"),
    (evaluation, "score"),
    (work_handler, "enriched_copy"),
    (evaluation, "evaluation_attributes"),
    (evaluation, "span_attributes"),
    (GroundednessInstruments, "record_evaluation"),
    (GroundednessInstruments, "record_skip"),
    *[
        (PairingBuffer, name)
        for name in (
            "_state",
            "_evict",
            "_enforce_bytes",
            "_add_evidence",
            "_set_prompt",
            "_unhold",
            "_close_open_agent",
            "_close_agent",
            "_standalone",
            "_turn",
            "_claim",
            "_keys",
        )
    ],
]


def flaky(original: Callable[..., Any], every: int) -> Callable[..., Any]:
    """``original``, but every ``every``-th call raises instead."""
    calls = itertools.count(1)

    def call(*args: Any, **kwargs: Any) -> Any:
        if next(calls) % every == 0:
            raise RuntimeError("injected failure")
        return original(*args, **kwargs)

    return call


def traffic(pipeline: Any, turns: int) -> int:
    """Agent turns (with event-form log content and evictions), plain chats and plain spans."""
    tracer, logger = pipeline.tracer, pipeline.logger_provider.get_logger("app")
    sent = 0
    for index in range(turns):
        with tracer.start_as_current_span(
            "invoke_agent billing", attributes={"gen_ai.operation.name": "invoke_agent"}
        ):
            emit_tool(tracer, INVOICE_RESULT, call_id=f"call_{index}")
            emit_chat(tracer, None, name="chat tool-call", response_id=f"r{index}a")
            with tracer.start_as_current_span("chat events", attributes={"gen_ai.operation.name": "chat"}):
                logger.emit(
                    event_name="gen_ai.choice",
                    body={"index": 0, "finish_reason": "stop", "message": {"content": GROUNDED_ANSWER}},
                    severity_number=SeverityNumber.INFO,
                )
            emit_chat(tracer, CORRUPTED_ANSWER if index % 3 else GROUNDED_ANSWER, response_id=f"r{index}b")
            with tracer.start_as_current_span("db.query"):
                pass
        emit_chat(tracer, GROUNDED_ANSWER, name="standalone chat", response_id=f"s{index}")
        sent += 7
    return sent


@pytest.mark.parametrize("every", [1, 3], ids=["always", "every-third-call"])
@pytest.mark.parametrize(("owner", "attribute"), STAGES, ids=[name for _, name in STAGES])
def test_every_span_leaves_exactly_once_when_a_stage_fails(
    make_pipeline: PipelineFactory, monkeypatch: pytest.MonkeyPatch, owner: Any, attribute: str, every: int
) -> None:
    monkeypatch.setattr(owner, attribute, flaky(getattr(owner, attribute), every))
    pipeline = make_pipeline(max_traces=3)
    sent = traffic(pipeline, 12)
    pipeline.processor.force_flush(10_000)
    pipeline.provider.shutdown()
    exported = Counter(span.context.span_id for span in pipeline.spans.get_finished_spans() if span.context)
    assert sum(exported.values()) == sent
    assert set(exported.values()) == {1}
