"""Run as a child process: heavy GenAI traffic under an address-space cap (``RLIMIT_AS``).

Keeping each scored answer's text (1 GB here before answers were remembered by digest) or the
spans held for open agents (512 MB before they were counted) would not fit in the headroom.
Prints the spans sent and seen downstream, and the worker's error count, as JSON.
"""

from __future__ import annotations

import json
import resource
import sys

from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.trace import Span, set_span_in_context

from otel_groundedness import GroundednessSpanProcessor

MIB = 1024 * 1024


class Count(SpanProcessor):
    def __init__(self) -> None:
        self.seen = 0

    def on_end(self, span: ReadableSpan) -> None:
        self.seen += 1


def vm_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("VmSize:"))
    return int(line.split()[1]) * 1024


def output(text: str) -> str:
    message = {"role": "assistant", "parts": [{"type": "text", "content": text}], "finish_reason": "stop"}
    return json.dumps([message])


def main(headroom_mb: int) -> None:
    downstream = Count()
    processor = GroundednessSpanProcessor(
        downstream, max_buffer_bytes=16 * MIB, max_queue_size=64, max_queue_bytes=16 * MIB
    )
    provider = TracerProvider()
    provider.add_span_processor(processor)
    tracer = provider.get_tracer("bounds")
    limit = vm_bytes() + headroom_mb * MIB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    tool = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.call.id": "c",
        "gen_ai.tool.call.result": '{"total": 1243500}',
    }
    sent = 0
    for turn in range(1024):  # one trace per turn, a 1 MB answer scored in each
        with tracer.start_as_current_span("turn"):
            with tracer.start_as_current_span("execute_tool", attributes=tool):
                pass
            answer = f"Turn {turn}: the total is $1,243,500. " + "y" * 1_000_000
            chat = {"gen_ai.operation.name": "chat", "gen_ai.output.messages": output(answer)}
            with tracer.start_as_current_span("chat", attributes=chat):
                pass
        sent += 3
        processor.force_flush(10_000)

    history = json.dumps([{"role": "user", "parts": [{"type": "text", "content": "h" * 512 * 1024}]}])
    held_chat = {
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": history,
        "gen_ai.output.messages": output("Total $1,243,500."),
    }
    agents: list[Span] = []
    for turn in range(1024):  # agents that stay open hold a span with 512 KB of history each
        agent = tracer.start_span("invoke_agent open", attributes={"gen_ai.operation.name": "invoke_agent"})
        with tracer.start_as_current_span("chat", context=set_span_in_context(agent), attributes=held_chat):
            pass
        sent += 1
        agents.append(agent)
        if turn % 32 == 0:
            processor.force_flush(10_000)
    processor.force_flush(10_000)
    for agent in agents:
        agent.end()
        sent += 1
    provider.shutdown()
    print(json.dumps({"sent": sent, "seen": downstream.seen, "errors": processor.worker_errors}))


if __name__ == "__main__":
    main(int(sys.argv[1]))
