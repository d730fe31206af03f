"""The log-record companion: only GenAI content events feed pairing; every record still goes downstream."""

from __future__ import annotations

import pytest
from opentelemetry import trace

from otel_groundedness.records import LogEventRecord
from tests.processor.conftest import PipelineFactory


def test_only_genai_content_events_are_submitted_and_all_records_pass_through(
    make_pipeline: PipelineFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipeline = make_pipeline()
    submitted: list[LogEventRecord] = []
    submit = pipeline.processor.submit_log_event

    def record_and_submit(event: LogEventRecord) -> None:
        submitted.append(event)
        submit(event)

    monkeypatch.setattr(pipeline.processor, "submit_log_event", record_and_submit)
    logger = pipeline.logger_provider.get_logger("app")
    with pipeline.tracer.start_as_current_span("request"):
        context = trace.set_span_in_context(trace.get_current_span())
        logger.emit(body="user logged in", attributes={"user": "ada"}, context=context)
        logger.emit(event_name="http.request", attributes={"http.route": "/ask"}, context=context)
        logger.emit(event_name="gen_ai.evaluation.result", attributes={"x": 1}, context=context)
        logger.emit(event_name="gen_ai.user.message", body={"content": "Total of INV-2210?"}, context=context)
    pipeline.flush()

    assert [event.event_name for event in submitted] == ["gen_ai.user.message"]
    assert submitted[0].body == {"content": "Total of INV-2210?"}
    forwarded = [record.log_record for record in pipeline.log_records()]
    assert [record.event_name for record in forwarded] == [
        None,
        "http.request",
        "gen_ai.evaluation.result",
        "gen_ai.user.message",
    ]
    assert forwarded[0].attributes == {"user": "ada"}
