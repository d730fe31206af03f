"""The demo agent: the real ``openai`` client in a tool-calling loop, traced like a real agent.

Each turn is an ``invoke_agent`` span; the instrumented client adds ``chat`` spans; every tool
the model calls runs locally under an ``execute_tool`` span and its JSON result goes back to the
model. With ``record_tool_content`` (GenAI semconv >= 1.37) tool spans carry the call arguments
and result, as an instrumented tool would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openai import OpenAI
from openai.types.chat import (
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageParam,
)
from opentelemetry.trace import SpanKind, Status, StatusCode, Tracer

from otel_groundedness.demo.scenarios import PlannedTurn
from otel_groundedness.demo.tools import TOOL_SPECS, ToolBackend

MAX_MODEL_CALLS = 4  # a scripted turn needs two; more means the loop went wrong
PROVIDER = "openai"


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call as the model returned it."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class Completion:
    """One model response: text, tool calls, or both."""

    content: str | None
    tool_calls: tuple[ToolCall, ...]


@dataclass(frozen=True, slots=True)
class TurnResult:
    """How a turn ended: the trace it produced and the final answer, or the error."""

    trace_id: int
    answer: str | None
    error: str | None = None


class DemoAgent:
    """Runs planned turns against OpenAI-compatible endpoints, one client per model."""

    def __init__(
        self,
        clients: Mapping[str, OpenAI],
        tracer: Tracer,
        backend: ToolBackend,
        *,
        record_tool_content: bool,
        conversation_prefix: str = "demo",
    ) -> None:
        self._clients = clients
        self._tracer = tracer
        self._backend = backend
        self._record_tool_content = record_tool_content
        self._conversation_prefix = conversation_prefix

    def run(self, turn: PlannedTurn) -> TurnResult:
        """Play one turn; errors end the turn (recorded on the agent span), never the demo."""
        scenario = turn.scenario
        attributes = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.provider.name": PROVIDER,
            "gen_ai.agent.name": scenario.agent_name,
            "gen_ai.request.model": scenario.model,
            "gen_ai.conversation.id": f"{self._conversation_prefix}-{turn.index:04d}",
        }
        with self._tracer.start_as_current_span(
            f"invoke_agent {scenario.agent_name}", kind=SpanKind.INTERNAL, attributes=attributes
        ) as span:
            trace_id = span.get_span_context().trace_id
            try:
                answer = self._converse(turn)
            except Exception as error:  # the demo reports failed turns instead of stopping
                span.set_status(Status(StatusCode.ERROR, type(error).__name__))
                span.set_attribute("error.type", type(error).__name__)
                return TurnResult(trace_id, None, f"{type(error).__name__}: {error}")
            return TurnResult(trace_id, answer)

    def _converse(self, turn: PlannedTurn) -> str:
        scenario = turn.scenario
        client = self._clients[scenario.model]
        tools = [TOOL_SPECS[name].openai_schema() for name in dict.fromkeys(r.name for r in scenario.tools)]
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": scenario.system_prompt},
            {"role": "user", "content": scenario.prompt},
        ]
        for _ in range(MAX_MODEL_CALLS):
            completion = _complete(client, scenario.model, messages, tools, stream=turn.stream)
            if not completion.tool_calls:
                return completion.content or ""
            messages.append(
                {
                    "role": "assistant",
                    "content": completion.content,
                    "tool_calls": [
                        {
                            "id": c.id,
                            "type": "function",
                            "function": {"name": c.name, "arguments": c.arguments},
                        }
                        for c in completion.tool_calls
                    ],
                }
            )
            for call in completion.tool_calls:
                messages.append({"role": "tool", "tool_call_id": call.id, "content": self._execute(call)})
        raise RuntimeError(f"no final answer after {MAX_MODEL_CALLS} model calls")

    def _execute(self, call: ToolCall) -> str:
        attributes = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.name,
            "gen_ai.tool.call.id": call.id,
            "gen_ai.tool.type": "function",
        }
        with self._tracer.start_as_current_span(
            f"execute_tool {call.name}", kind=SpanKind.INTERNAL, attributes=attributes
        ) as span:
            result = self._backend.call(call.name, call.arguments)
            if self._record_tool_content:
                span.set_attribute("gen_ai.tool.call.arguments", call.arguments)
                span.set_attribute("gen_ai.tool.call.result", result)
            return result


def _complete(
    client: OpenAI,
    model: str,
    messages: list[ChatCompletionMessageParam],
    tools: list[ChatCompletionFunctionToolParam],
    *,
    stream: bool,
) -> Completion:
    if not stream:
        response = client.chat.completions.create(model=model, messages=messages, tools=tools)
        message = response.choices[0].message
        calls = tuple(
            ToolCall(call.id, call.function.name, call.function.arguments)
            for call in message.tool_calls or ()
            if call.type == "function"
        )
        return Completion(message.content, calls)
    chunks = client.chat.completions.create(
        model=model, messages=messages, tools=tools, stream=True, stream_options={"include_usage": True}
    )
    return _assemble(chunks)


def _assemble(chunks: Iterable[Any]) -> Completion:
    """Rebuild a streamed response: text pieces joined, tool-call deltas merged by index."""
    text: list[str] = []
    calls: dict[int, dict[str, str]] = {}
    for chunk in chunks:
        for choice in chunk.choices:
            delta = choice.delta
            if delta.content:
                text.append(delta.content)
            for piece in delta.tool_calls or ():
                call = calls.setdefault(piece.index, {"id": "", "name": "", "arguments": ""})
                call["id"] = piece.id or call["id"]
                if piece.function is not None:
                    call["name"] = piece.function.name or call["name"]
                    call["arguments"] += piece.function.arguments or ""
    tool_calls = tuple(ToolCall(c["id"], c["name"], c["arguments"]) for _, c in sorted(calls.items()))
    return Completion("".join(text) if text else None, tool_calls)
