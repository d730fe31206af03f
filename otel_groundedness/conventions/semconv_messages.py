"""The OTel GenAI (≥1.37) message-parts vocabulary: text, tool_call and tool_call_response parts.

Works on decoded ``gen_ai.input.messages`` / ``gen_ai.output.messages`` lists (also Pydantic AI's
``pydantic_ai.all_messages``), tolerating the variants seen in the wild: the tool result under
``response``, ``result`` or ``output``; tool results in messages of role ``tool`` or ``user``.
Parts of any other type (``reasoning``, media, ``type: "generic"``) are neither answer text nor
evidence nor a tool call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from otel_groundedness.conventions._common import (
    asks_for_tools,
    clean_id,
    finish_reasons,
    stopped_for_tools,
    text_blocks,
    turn_start,
)
from otel_groundedness.conventions._json import as_dict, as_list, decode
from otel_groundedness.scoring.evidence import Evidence

INPUT_MESSAGES = "gen_ai.input.messages"
OUTPUT_MESSAGES = "gen_ai.output.messages"
_TOOL_RESULT_PART_TYPES = frozenset({"tool_call_response", "tool_result"})
# The spec's key first, then Pydantic AI and the early spec example, then openllmetry-js.
_TOOL_RESULT_KEYS = ("response", "result", "output")


def message_parts(message: Any) -> list[Mapping[str, Any]]:
    return [as_dict(part) for part in as_list(as_dict(message).get("parts"))]


def message_role(message: Any) -> str | None:
    role = as_dict(message).get("role")
    return role if isinstance(role, str) else None


def message_text(message: Any) -> str:
    """Concatenated content of the message's text parts."""
    return "".join(
        part["content"]
        for part in message_parts(message)
        if part.get("type") == "text" and isinstance(part.get("content"), str)
    )


def has_tool_call(message: Any) -> bool:
    return any(part.get("type") == "tool_call" for part in message_parts(message))


def current_turn_start(messages: list[Any]) -> int:
    """Index just after the last user message with text: where the current turn's tool results begin.

    Tool results can arrive in ``user`` messages (Pydantic AI format v5), so only a user message
    that carries text counts as a new turn.
    """
    return turn_start(messages, _opens_turn)


def _opens_turn(message: Any) -> bool:
    return message_role(message) == "user" and message_text(message) != ""


def last_user_text(messages: list[Any]) -> str | None:
    start = current_turn_start(messages)
    return message_text(messages[start - 1]) if start else None


def tool_results(messages: list[Any], start: int = 0) -> tuple[Evidence, ...]:
    """Evidence for every tool-result part in ``messages[start:]``, named after its tool call."""
    names = _tool_names(messages)
    found: list[Evidence] = []
    for message in messages[start:]:
        for part in message_parts(message):
            if part.get("type") not in _TOOL_RESULT_PART_TYPES:
                continue
            key = next((k for k in _TOOL_RESULT_KEYS if k in part), None)
            if key is None or part[key] is None:
                continue
            call_id = clean_id(part.get("id")) or clean_id(part.get("toolCallId"))
            name = part.get("name") if isinstance(part.get("name"), str) else names.get(call_id or "")
            found.append(Evidence(content=text_blocks(part[key]), source_id=call_id, name=name))
    return tuple(found)


def output_asks_for_tools(output_messages: list[Any], span_finish_reasons: tuple[str, ...]) -> bool:
    """Whether the model stopped to call a tool: by a span or message finish reason, or tool_call parts."""
    if not output_messages:
        return stopped_for_tools(span_finish_reasons)
    message = output_messages[0]
    reasons = (*span_finish_reasons, as_dict(message).get("finish_reason"))
    return asks_for_tools(reasons, has_tool_call(message))


def agent_answer(output_messages: list[Any]) -> str | None:
    """The text of the last assistant output message that has text, ignoring tool parts.

    Agent spans (AI SDK 7 ``invoke_agent``) may put the final text, the tool calls and their
    results into one output message; the text is the run's answer.
    """
    for message in reversed(output_messages):
        if message_role(message) in (None, "assistant"):
            text = message_text(message)
            if text:
                return text
    return None


def _tool_names(messages: list[Any]) -> dict[str, str]:
    names: dict[str, str] = {}
    for message in messages:
        for part in message_parts(message):
            call_id, name = clean_id(part.get("id")), part.get("name")
            if part.get("type") == "tool_call" and call_id and isinstance(name, str):
                names[call_id] = name
    return names


@dataclass(frozen=True, slots=True)
class MessageFacts:
    """What the content attributes of one span or log record hold."""

    answer: str | None
    evidence: tuple[Evidence, ...]
    user_prompt: str | None
    tool_call_step: bool
    captured: bool
    truncated: bool


def read_messages(attributes: Mapping[str, Any], *, agent: bool) -> MessageFacts:
    """Answer, current-turn evidence and prompt from the (string or structured) message attributes."""
    raw_input, raw_output = attributes.get(INPUT_MESSAGES), attributes.get(OUTPUT_MESSAGES)
    if raw_input is None and raw_output is None:  # content off (or in log events): only the finish reason
        return _no_content(attributes, agent=agent)
    decoded_input, decoded_output = decode(raw_input), decode(raw_output)
    inputs, outputs = as_list(decoded_input.value), as_list(decoded_output.value)
    start = current_turn_start(inputs)  # found once: the evidence and the prompt both need it
    evidence = tool_results(inputs, start)
    tool_call_step = False
    if agent:
        answer = agent_answer(outputs)
        evidence += tool_results(outputs)
    else:
        reasons = finish_reasons(attributes.get("gen_ai.response.finish_reasons"))
        tool_call_step = output_asks_for_tools(outputs, reasons)
        # The first output message's text, unless the model asks for tools.
        answer = None if not outputs or tool_call_step else message_text(outputs[0]) or None
    return MessageFacts(
        answer=answer,
        evidence=evidence,
        user_prompt=message_text(inputs[start - 1]) if start else None,  # as ``last_user_text``
        tool_call_step=tool_call_step,
        captured=raw_input is not None or raw_output is not None,
        truncated=decoded_input.truncated or decoded_output.truncated,
    )


def _no_content(attributes: Mapping[str, Any], *, agent: bool) -> MessageFacts:
    """``read_messages`` when neither message attribute is present (what the full reading yields then)."""
    reasons = () if agent else finish_reasons(attributes.get("gen_ai.response.finish_reasons"))
    return MessageFacts(
        answer=None,
        evidence=(),
        user_prompt=None,
        tool_call_step=stopped_for_tools(reasons),
        captured=False,
        truncated=False,
    )
