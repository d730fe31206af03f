"""A seeded generator of hostile GenAI traffic for the processor, and the harness that counts it.

Every producer family's keys, filled with wrong types, huge strings, deep or invalid JSON, lone
surrogates, NULs, NaN/inf and mixed lists; agents that end out of order or never; event-form
log records. ``run`` drives the real SDK and returns what went in and what came out.
"""

from __future__ import annotations

import json
import math
import random
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from opentelemetry._logs import SeverityNumber
from opentelemetry.context import Context
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor, TracerProvider
from opentelemetry.trace import Tracer, set_span_in_context

from otel_groundedness import GroundednessSpanProcessor

# Keys each producer family reads (answers, evidence, prompts, markers).
KEYS = (
    "gen_ai.operation.name",
    "gen_ai.provider.name",
    "gen_ai.request.model",
    "gen_ai.response.id",
    "gen_ai.agent.name",
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.response.finish_reasons",
    "gen_ai.tool.call.id",
    "gen_ai.tool.call.result",
    "gen_ai.completion.0.role",
    "gen_ai.completion.0.content",
    "gen_ai.prompt.0.role",
    "gen_ai.prompt.0.content",
    "gen_ai.prompt.1.role",
    "gen_ai.prompt.1.content",
    "gen_ai.prompt",
    "gen_ai.completion",
    "llm.request.type",
    "openinference.span.kind",
    "llm.output_messages.0.message.content",
    "llm.input_messages.0.message.role",
    "llm.input_messages.0.message.content",
    "output.value",
    "agent.name",
    "ai.operationId",
    "ai.response.text",
    "ai.toolCall.result",
    "ai.prompt.messages",
    "traceloop.span.kind",
    "traceloop.entity.output",
    "final_result",
    "pydantic_ai.all_messages",
)
OPERATIONS = ("chat", "invoke_agent", "execute_tool", "text_completion", "generate_content", "", "\x00")
ANSWERS = (
    "Invoice INV-2210 totals $1,243,500, due March 3, 2025.",
    "Invoice INV-2201 totals $1,234,500, due 2025-03-04.",
    "The margin was -15.3% on 2025-01.",
)


def _deep_json(rng: random.Random) -> str:
    depth = rng.choice((50, 400, 990, 5_000, 100_000))
    opener, closer = rng.choice((("[", "]"), ('{"a":', "}")))
    return opener * depth + '{"total": 1243500}' + closer * depth


def hostile_value(rng: random.Random) -> Any:
    """One attribute value of a random hostile shape."""
    roll = rng.randrange(23)
    if roll == 0:
        return "x" * rng.choice((10_000, 300_000, 1_100_000))
    if roll == 1:
        return _deep_json(rng)
    if roll == 2:
        return '{"total": 12' + "3" * rng.randrange(1, 6_000)  # cut JSON, a long number
    if roll == 3:
        return "\ud800 lone surrogate \udfff $1,243,500"
    if roll == 4:
        return "nul\x00byte $1,243,500\x00"
    if roll == 5:
        return rng.choice((math.nan, math.inf, -math.inf, 1e308, -0.0))
    if roll == 6:
        return [1, "two", 3.0, None]  # mixed list: the SDK drops it
    if roll == 7:
        return {"not": "allowed"}  # a dict: the SDK drops it
    if roll == 8:
        return rng.choice((True, 0, -1, 2**63 - 1))
    if roll == 9:
        return ("a", "b") if rng.random() < 0.5 else (1.5, 2.5)
    if roll == 10:
        return "abcdef0123456789" * rng.choice((16, 4_000, 16_000))  # one long identifier-shaped run
    if roll == 11:
        return "1," * rng.choice((100, 50_000))
    if roll == 12:
        parts = [{"type": "text", "content": rng.choice(ANSWERS)}] * rng.randrange(0, 4)
        return json.dumps([{"role": "assistant", "parts": parts, "finish_reason": "stop"}])
    if roll == 13:
        response = {"type": "tool_call_response", "id": "call_1", "response": {"total": 1243500}}
        return json.dumps([{"role": "tool", "parts": [response]}])
    if roll == 14:
        return json.dumps([{"role": "assistant", "parts": [{"type": "text"}]}, None, 7, "x"])
    if roll == 15:
        return json.dumps({"output": {"content": json.dumps({"total": 1243500})}})
    if roll == 16:
        return "[" + ",".join(['{"role":"tool","content":"12"}'] * 2_000) + "]"
    if roll == 17:
        return rng.choice(ANSWERS) + " " + "9" * rng.choice((30, 5_000))
    if roll == 18:
        return rng.choice(OPERATIONS)
    if roll == 19:
        return json.dumps([{"role": "user", "parts": [{"type": "text", "content": "p" * 200_000}]}])
    if roll == 20:  # parses, so the nested structure itself becomes evidence
        depth = rng.choice((300, 600, 900))
        deep = '{"a":' * depth + '{"total": 1243500}' + "}" * depth
        return '[{"role":"tool","parts":[{"type":"tool_call_response","id":"c","response":' + deep + "}]}]"
    return rng.choice(ANSWERS)


def hostile_attributes(rng: random.Random) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    for key in rng.sample(KEYS, rng.randrange(1, 7)):
        attributes[key] = hostile_value(rng)
    if rng.random() < 0.5:
        attributes["gen_ai.operation.name"] = rng.choice(OPERATIONS)
    return attributes


class CountingProcessor(SpanProcessor):
    """Downstream that remembers only span ids: memory stays flat over long runs."""

    def __init__(self) -> None:
        self.seen: Counter[int] = Counter()
        self._lock = threading.Lock()

    def on_end(self, span: ReadableSpan) -> None:
        if span.context is not None:
            with self._lock:
                self.seen[span.context.span_id] += 1


@dataclass
class FuzzOutcome:
    spans_in: int
    spans_out: int
    duplicates: int
    missing: int
    caller_exceptions: int
    worker_errors: int


def _one_trace(tracer: Tracer, logger: Any, rng: random.Random, ended: set[int], never: list[Span]) -> None:
    """A trace of random shape; spans end in a shuffled order, a few never end."""
    root = tracer.start_span(
        rng.choice(("invoke_agent fuzz", "chat fuzz", "workflow")), hostile_attributes(rng)
    )
    context: Context = set_span_in_context(root)
    open_spans: list[Span] = [root]
    for _ in range(rng.randrange(0, 8)):
        name = rng.choice(("invoke_agent inner", "chat gpt", "execute_tool get", "db.query", "http"))
        attributes = hostile_attributes(rng) if name != "db.query" else {"db.system": "postgres"}
        child = tracer.start_span(name, context=context, attributes=attributes)
        if rng.random() < 0.3:
            context = set_span_in_context(child)
        if rng.random() < 0.3:
            logger.emit(
                event_name=rng.choice(("gen_ai.choice", "gen_ai.tool.message", "gen_ai.user.message", "x")),
                body=rng.choice(
                    ({"message": {"content": rng.choice(ANSWERS)}}, {"content": "12"}, None, "s")
                ),
                attributes={"gen_ai.provider.name": "openai"},
                severity_number=SeverityNumber.INFO,
                context=set_span_in_context(child),
            )
        open_spans.append(child)
    rng.shuffle(open_spans)
    for span in open_spans:
        if rng.random() < 0.01:
            never.append(span)  # never ends: never exported, never counted
            continue
        span.end()
        ended.add(span.get_span_context().span_id)


def run(spans: int, seed: int, **settings: Any) -> FuzzOutcome:
    """Send at least ``spans`` ended spans of hostile traffic through the real SDK and processor."""
    rng = random.Random(seed)
    downstream = CountingProcessor()
    logger_provider = LoggerProvider()
    processor = GroundednessSpanProcessor(downstream, logger_provider=logger_provider, **settings)
    logger_provider.add_log_record_processor(processor.log_processor())
    provider = TracerProvider()
    provider.add_span_processor(processor)
    tracer, logger = provider.get_tracer("fuzz"), logger_provider.get_logger("fuzz")
    ended: set[int] = set()
    never: list[Span] = []
    caller_exceptions = 0
    while len(ended) < spans:
        try:
            _one_trace(tracer, logger, rng, ended, never)
        except Exception:
            caller_exceptions += 1
    provider.shutdown()
    logger_provider.shutdown()
    out = downstream.seen
    return FuzzOutcome(
        spans_in=len(ended),
        spans_out=sum(out.values()),
        duplicates=sum(count - 1 for count in out.values() if count > 1),
        missing=len(ended - out.keys()),
        caller_exceptions=caller_exceptions,
        worker_errors=processor.worker_errors,
    )
