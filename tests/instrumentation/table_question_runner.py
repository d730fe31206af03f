"""One real instrumentation (the official OpenAI one) through a table question, scored live.

Usage: ``python table_question_runner.py`` (prints one JSON document). The user asks for a
percentage change; the tool returns a markdown table; the model answers only "It is 38.57%."
(and, in a second run, a corrupted "It is 38.75%."). The figure names no computation: only the
question the processor pairs with the turn says what it is. Runs in its own interpreter, as
``scenario_runner`` does, because the instrumentation patches the openai client for good.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import openai

from otel_groundedness.demo.fake_model_server import FakeModelServer, ScriptedToolCall, ScriptedTurn
from otel_groundedness.telemetry import names
from tests.instrumentation.conversation import MODEL, ask, telemetry

QUESTION = "What was the percentage change in operating income between 2023 and 2024?"
TABLE = """| (In millions) | 2024 | 2023 |
|---|---|---|
| Revenue | $ 4,812.6 | $ 4,377.9 |
| Operating income | 1,502.7 | 1,084.4 |
"""
ANSWERS = {"correct": "It is 38.57%.", "corrupted": "It is 38.75%."}
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_income_statement",
            "description": "The income statement of the last two years, as a table.",
            "parameters": {"type": "object", "properties": {}},
        },
    }
]


def converse(server: FakeModelServer) -> None:
    client = openai.OpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
    messages: list[dict[str, Any]] = [{"role": "user", "content": QUESTION}]
    reply = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS)
    call = reply.choices[0].message.tool_calls[0]  # type: ignore[index]
    messages.append(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.function.name, "arguments": "{}"},
                }  # type: ignore[union-attr]
            ],
        }
    )
    messages.append({"role": "tool", "tool_call_id": call.id, "content": TABLE})
    ask(client, messages, False)


def main() -> None:
    # Message content on the spans, as scenario_runner's openai_v2_latest captures it.
    os.environ.update(
        {
            "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
            "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_and_event",
            "OTEL_INSTRUMENTATION_GENAI_EMIT_EVENT": "true",
        }
    )
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

    runs: dict[str, list[dict[str, Any]]] = {}
    with telemetry(score=True) as telemetry_:
        instrumentor = OpenAIInstrumentor()
        instrumentor.instrument(
            tracer_provider=telemetry_.tracer_provider, logger_provider=telemetry_.logger_provider
        )
        try:
            for label, answer in ANSWERS.items():
                telemetry_.clear()
                turn = ScriptedTurn((ScriptedToolCall("get_income_statement", {}),), answer)
                with FakeModelServer({QUESTION: turn}) as server:
                    converse(server)
                runs[label] = [
                    {k: v for k, v in span.attributes.items() if k.startswith(names.SPAN_PREFIX)}
                    for span in telemetry_.capture().spans
                    if names.ATTR_SCORE in span.attributes
                ]
        finally:
            instrumentor.uninstrument()
    print(json.dumps(runs))


if __name__ == "__main__":
    main()
