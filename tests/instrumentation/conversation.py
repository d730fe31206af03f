"""The invoice conversation every instrumentation test drives, and SDK capture helpers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import openai
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Tracer

from otel_groundedness.core.log_events import log_event_from_fields
from otel_groundedness.demo.fake_model_server import FakeModelServer, ScriptedToolCall, ScriptedTurn
from otel_groundedness.processor.sdk_records import span_record_from_sdk
from otel_groundedness.records import LogEventRecord, SpanRecord

SYSTEM = "You are a billing assistant. Use tools to look up invoices."
PROMPT = "What is the total and due date of invoice INV-2210?"
ANSWER = "Invoice INV-2210 totals $1,243,500 and is due on March 3, 2025."
CORRUPTED_ANSWER = "Invoice INV-2210 totals $1,234,500 and is due on March 3, 2025."  # two digits swapped
MODEL = "gpt-4o-mini"
TOOL_RESULT = json.dumps(
    {
        "invoice_id": "INV-2210",
        "customer": "Northwind Traders",
        "total": 1243500.0,
        "total_formatted": "$1,243,500.00",
        "currency": "USD",
        "due_date": "2025-03-03",
        "status": "open",
    }
)
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_invoice",
            "description": "Look up an invoice by id.",
            "parameters": {
                "type": "object",
                "properties": {"invoice_id": {"type": "string"}},
                "required": ["invoice_id"],
            },
        },
    }
]


@dataclass
class Capture:
    """Finished spans and log records of one run, as neutral records; ``ended`` counts the spans the
    application ended (spans in), ``sdk_spans`` the spans exported (spans out)."""

    sdk_spans: list[ReadableSpan]
    logs: list[LogEventRecord]
    ended: int

    @property
    def spans(self) -> list[SpanRecord]:
        return [span_record_from_sdk(span) for span in self.sdk_spans]


class EndCounter(SpanProcessor):
    """Counts every span the application ends, ahead of the processor under test."""

    def __init__(self) -> None:
        self.ended = 0

    def on_end(self, span: ReadableSpan) -> None:
        self.ended += 1


@dataclass
class Telemetry:
    """A private tracer and logger provider writing to in-memory exporters."""

    tracer_provider: TracerProvider
    logger_provider: LoggerProvider
    spans: InMemorySpanExporter
    logs: InMemoryLogExporter
    counter: EndCounter

    def clear(self) -> None:
        self.spans.clear()
        self.logs.clear()
        self.counter.ended = 0

    def capture(self) -> Capture:
        self.tracer_provider.force_flush()
        self.logger_provider.force_flush()
        records = []
        for data in self.logs.get_finished_logs():
            log = data.log_record
            record = log_event_from_fields(
                log.trace_id, log.span_id, log.event_name, log.attributes, log.body, log.timestamp
            )
            if record is not None:
                records.append(record)
        return Capture(list(self.spans.get_finished_spans()), records, self.counter.ended)


@contextmanager
def telemetry(*, score: bool = False) -> Iterator[Telemetry]:
    """Providers exporting to memory; with ``score`` the GroundednessSpanProcessor (and its log
    companion) sits in front of the exporters, as an application would register it."""
    spans, logs = InMemorySpanExporter(), InMemoryLogExporter()
    tracer_provider = TracerProvider()
    logger_provider = LoggerProvider()
    counter = EndCounter()
    tracer_provider.add_span_processor(counter)
    if score:
        from otel_groundedness import GroundednessSpanProcessor

        processor = GroundednessSpanProcessor(SimpleSpanProcessor(spans), logger_provider=logger_provider)
        tracer_provider.add_span_processor(processor)
        logger_provider.add_log_record_processor(processor.log_processor(SimpleLogRecordProcessor(logs)))
    else:
        tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
        logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
    try:
        yield Telemetry(tracer_provider, logger_provider, spans, logs, counter)
    finally:
        tracer_provider.shutdown()
        logger_provider.shutdown()


@contextmanager
def fake_server(answer: str = ANSWER) -> Iterator[FakeModelServer]:
    """The model: calls ``get_invoice`` for PROMPT, then answers ``answer``."""
    turn = ScriptedTurn((ScriptedToolCall("get_invoice", {"invoice_id": "INV-2210"}),), answer)
    with FakeModelServer({PROMPT: turn}) as server:
        yield server


@contextmanager
def answering_server(answer: str = ANSWER) -> Iterator[FakeModelServer]:
    """The model of a RAG flow: no tools, it answers ``answer`` to whatever it is asked."""
    with FakeModelServer(lambda prompt: ScriptedTurn((), answer)) as server:
        yield server


@dataclass
class Exchange:
    """What the application saw: the final answer, the response ids and the tool-call id."""

    answer: str
    response_ids: list[str]
    tool_call_id: str


def run_conversation(server: FakeModelServer, *, stream: bool, tracer: Tracer | None = None) -> Exchange:
    """Tool call, tool result, final answer through the openai client.

    With a ``tracer`` the run happens inside an ``invoke_agent`` span and the tool runs inside a
    manual ``execute_tool`` span, as an application instrumenting its own agent loop would do.
    """
    with _span(tracer, "invoke_agent invoice-agent", AGENT_ATTRIBUTES):
        client = openai.OpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": PROMPT},
        ]
        first_id, _, calls = ask(client, messages, stream)
        call_id, name, arguments = calls[0]
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
                ],
            }
        )
        tool_attributes = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.call.id": call_id,
            "gen_ai.tool.call.result": TOOL_RESULT,
        }
        with _span(tracer, f"execute_tool {name}", tool_attributes):
            messages.append({"role": "tool", "tool_call_id": call_id, "content": TOOL_RESULT})
        final_id, answer, _ = ask(client, messages, stream)
    return Exchange(answer, [first_id, final_id], call_id)


AGENT_ATTRIBUTES = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "invoice-agent"}


@contextmanager
def _span(tracer: Tracer | None, name: str, attributes: dict[str, Any]) -> Iterator[None]:
    if tracer is None:
        yield
        return
    with tracer.start_as_current_span(name, attributes=attributes):
        yield


def ask(
    client: openai.OpenAI, messages: list[dict[str, Any]], stream: bool
) -> tuple[str, str, list[tuple[str, str, str]]]:
    """One completion: (response id, text, tool calls as (id, name, arguments))."""
    if not stream:
        reply = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS)
        message = reply.choices[0].message
        calls = [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls or []]
        return reply.id, message.content or "", calls
    response_id = ""
    text: list[str] = []
    parts: dict[int, list[str]] = {}
    chunks = client.chat.completions.create(
        model=MODEL, messages=messages, tools=TOOLS, stream=True, stream_options={"include_usage": True}
    )
    with chunks:
        for chunk in chunks:
            response_id = chunk.id
            for choice in chunk.choices:
                text.append(choice.delta.content or "")
                for delta in choice.delta.tool_calls or []:
                    call = parts.setdefault(delta.index, ["", "", ""])
                    call[0] += delta.id or ""
                    if delta.function is not None:
                        call[1] += delta.function.name or ""
                        call[2] += delta.function.arguments or ""
    return response_id, "".join(text), [(c[0], c[1], c[2]) for c in parts.values()]
