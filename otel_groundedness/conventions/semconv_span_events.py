"""GenAI content recorded as span events rather than attributes or log records, as Strands Agents
writes it: the ≤1.36 per-message events (``gen_ai.user.message``, ``gen_ai.tool.message``,
``gen_ai.choice``) in its default mode, ``gen_ai.client.inference.operation.details`` events with
``gen_ai.*.messages`` attributes in its latest-experimental mode.

Strands message content is a JSON list of Bedrock-style content blocks (``{"text"}``, ``{"toolUse"}``,
``{"toolResult"}``). On an ``execute_tool`` span, ``gen_ai.tool.message`` holds the tool's *input*
and ``gen_ai.choice`` its result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from otel_groundedness.conventions import semconv_messages as msgs
from otel_groundedness.conventions._common import (
    asks_for_tools,
    clean_id,
    content_text,
    text_blocks,
    turn_start,
)
from otel_groundedness.conventions._json import as_dict, as_list, decode
from otel_groundedness.records import SpanEventRecord
from otel_groundedness.scoring.evidence import Evidence

OPERATION_DETAILS = "gen_ai.client.inference.operation.details"
USER_MESSAGE = "gen_ai.user.message"
TOOL_MESSAGE = "gen_ai.tool.message"
CHOICE = "gen_ai.choice"
_MESSAGE_EVENTS = frozenset({USER_MESSAGE, TOOL_MESSAGE, CHOICE})


def read_messages(events: Iterable[SpanEventRecord], *, agent: bool) -> msgs.MessageFacts | None:
    """What an inference or agent span's events say; None when they carry no message content."""
    events = list(events)
    details: dict[str, Any] = {}
    for event in events:
        if event.name == OPERATION_DETAILS:
            details.update(event.attributes)
    if msgs.INPUT_MESSAGES in details or msgs.OUTPUT_MESSAGES in details:
        return msgs.read_messages(details, agent=agent)
    messages = [event for event in events if event.name in _MESSAGE_EVENTS]
    return _read_message_events(messages) if messages else None


def tool_result(events: Iterable[SpanEventRecord]) -> Any:
    """The result an ``execute_tool`` span's ``gen_ai.choice`` event holds (default mode), else None."""
    for event in events:
        if event.name == CHOICE and event.attributes.get("message") is not None:
            return event.attributes["message"]
    return None


def _read_message_events(events: list[SpanEventRecord]) -> msgs.MessageFacts:
    start = turn_start(events, lambda event: event.name == USER_MESSAGE and _text(event) is not None)
    evidence = tuple(
        item for event in events[start:] if event.name == TOOL_MESSAGE for item in _tool_results(event)
    )
    choice = next((event for event in reversed(events) if event.name == CHOICE), None)
    answer, step, truncated = None, False, False
    if choice is not None:
        decoded = decode(choice.attributes.get("message"))
        blocks = as_list(decoded.value)
        step = asks_for_tools((choice.attributes.get("finish_reason"),), any("toolUse" in b for b in blocks))
        answer = None if step else content_text(decoded.value)
        truncated = decoded.truncated
    return msgs.MessageFacts(
        answer=answer,
        evidence=evidence,
        user_prompt=_text(events[start - 1]) if start else None,
        tool_call_step=step,
        captured=True,
        truncated=truncated,
    )


def _text(event: SpanEventRecord) -> str | None:
    return content_text(decode(event.attributes.get("content")).value)


def _tool_results(event: SpanEventRecord) -> list[Evidence]:
    """A tool message's ``toolResult`` blocks (Strands), or its plain content keyed by its ``id``."""
    content = event.attributes.get("content")
    results = [as_dict(as_dict(block).get("toolResult")) for block in as_list(decode(content).value)]
    if results and all(results):
        return [_result_evidence(result) for result in results if result.get("content") is not None]
    if content is None:
        return []
    return [Evidence(content, clean_id(event.attributes.get("id")))]


def _result_evidence(result: Mapping[str, Any]) -> Evidence:
    return Evidence(text_blocks(result["content"]), clean_id(result.get("toolUseId")))
