"""Dropped agent ends always reach the worker, and the notices that bypass the queue stay bounded."""

from __future__ import annotations

from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_groundedness.processor.agent_ledger import AgentLedger
from tests.processor.conftest import GROUNDED_ANSWER, PipelineFactory, emit_chat
from tests.processor.test_invariants import GateProcessor


def test_ledger_is_bounded_and_lets_stale_agents_go() -> None:
    ledger = AgentLedger(capacity=2, max_age_s=60)
    assert ledger.announce(1, now=0) and ledger.announce(2, now=1)
    assert not ledger.announce(3, now=30)  # full of live agents: not announced
    assert ledger.announce(3, now=61)  # agent 1 is older than the TTL: its trace is gone anyway
    assert len(ledger) == 2
    assert ledger.withdraw(3) and not ledger.withdraw(3) and not ledger.withdraw(1)


def test_agent_end_dropped_on_a_full_queue_still_releases_its_held_answer(
    make_pipeline: PipelineFactory,
) -> None:
    exporter = InMemorySpanExporter()
    gate = GateProcessor(SimpleSpanProcessor(exporter))
    pipeline = make_pipeline(gate, max_queue_size=2)
    emit_chat(pipeline.tracer, GROUNDED_ANSWER, response_id="first")
    assert gate.entered.wait(10)  # the worker is stuck; the queue is empty
    with pipeline.tracer.start_as_current_span(
        "invoke_agent billing", attributes={"gen_ai.operation.name": "invoke_agent"}
    ):  # AgentStart queued (1 of 2)
        emit_chat(pipeline.tracer, GROUNDED_ANSWER, name="held chat", response_id="held")  # queued (2 of 2)
    # The agent's end found the queue full: forwarded at once, and a notice passed the limit.
    assert [span.name for span in exporter.get_finished_spans()] == ["invoke_agent billing"]
    assert pipeline.processor._worker.queue_size == 3
    # Many more agents while stuck: their starts are refused, so no further notices pile up.
    for index in range(200):
        with pipeline.tracer.start_as_current_span(f"invoke_agent a{index}"):
            pass
    assert pipeline.processor._worker.queue_size == 3
    gate.opened.set()
    pipeline.flush()  # the held answer is scored now, not after the 60 s TTL
    out = {span.name: span for span in exporter.get_finished_spans()}
    assert len(exporter.get_finished_spans()) == 2 + 1 + 200
    assert "gen_ai.evaluation.groundedness.score" in (out["held chat"].attributes or {})
