"""GenAI content carried by log records: the ≤1.36 per-message events and the ≥1.37
``gen_ai.client.inference.operation.details`` event (structured attributes, no body)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_groundedness.conventions import semconv_messages as msgs
from otel_groundedness.conventions._common import (
    asks_for_tools,
    clean_id,
    content_text,
    semconv_context,
    text_attr,
)
from otel_groundedness.conventions._json import as_dict, decode
from otel_groundedness.conventions._producer import Producer
from otel_groundedness.records import LogEventRecord, LogFacts
from otel_groundedness.scoring.evidence import Evidence

CONVENTION = "semconv_events"
OPERATION_DETAILS = "gen_ai.client.inference.operation.details"
USER_MESSAGE = "gen_ai.user.message"
TOOL_MESSAGE = "gen_ai.tool.message"
CHOICE = "gen_ai.choice"
LOG_EVENTS = frozenset({OPERATION_DETAILS, USER_MESSAGE, TOOL_MESSAGE, CHOICE})


def read(record: LogEventRecord) -> LogFacts | None:
    name = record.event_name
    if name == OPERATION_DETAILS:
        return _read_operation_details(record)
    body = decode(record.body)
    content = as_dict(body.value)
    context = semconv_context(record.attributes, None)
    if name == USER_MESSAGE:
        return LogFacts(CONVENTION, context, user_prompt=content_text(content.get("content")))
    if name == TOOL_MESSAGE:
        if content.get("content") is None:
            return LogFacts(CONVENTION, context, content_truncated=body.truncated)
        # OpenLLMetry's events mode writes no id: the pairing then keys the result on its span.
        evidence = Evidence(content=content["content"], source_id=clean_id(content.get("id")))
        return LogFacts(CONVENTION, context, evidence=(evidence,), content_truncated=body.truncated)
    if name == CHOICE:
        if _choice_asks_for_tools(content):
            return LogFacts(CONVENTION, context, tool_call_step=True, content_truncated=body.truncated)
        text = content_text(as_dict(content.get("message")).get("content"))
        return LogFacts(CONVENTION, context, answer=text, content_truncated=body.truncated)
    return None


def _read_operation_details(record: LogEventRecord) -> LogFacts:
    attributes = record.attributes
    facts = msgs.read_messages(attributes, agent=False)
    return LogFacts(
        convention=CONVENTION,
        context=semconv_context(attributes, text_attr(attributes, "gen_ai.operation.name")),
        answer=facts.answer,
        evidence=facts.evidence,
        user_prompt=facts.user_prompt,
        tool_call_step=facts.tool_call_step,
        content_truncated=facts.truncated,
    )


def _choice_asks_for_tools(choice: Mapping[str, Any]) -> bool:
    calls = as_dict(choice.get("message")).get("tool_calls") or choice.get("tool_calls")
    return asks_for_tools((choice.get("finish_reason"),), bool(calls))


PRODUCER = Producer(name=CONVENTION, order=100, log_events=LOG_EVENTS, read_log=read)
