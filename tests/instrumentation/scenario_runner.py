"""Drive one real instrumentation library through the invoice conversation; print what the adapters read.

Usage: ``python scenario_runner.py SCENARIO [--score]`` (prints one JSON document). With ``--score``
the GroundednessSpanProcessor is registered and the report lists what it wrote on the exported spans.
Each scenario runs in a fresh interpreter because some libraries cannot be re-instrumented in one
process (OpenLLMetry's ``uninstrument`` leaves its wrappers in place, util-genai caches its semconv
mode) and the ≤0.54 OpenLLMetry needs its own virtualenv.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for the legacy venv

from otel_groundedness.conventions import is_genai_span, read_log_event, read_span
from otel_groundedness.demo.fake_model_server import FakeModelServer
from otel_groundedness.replay.in_memory import replay
from otel_groundedness.telemetry import names
from tests.instrumentation import frameworks
from tests.instrumentation.conversation import (
    ANSWER,
    CORRUPTED_ANSWER,
    MODEL,
    PROMPT,
    SYSTEM,
    TOOL_RESULT,
    Capture,
    Exchange,
    Telemetry,
    answering_server,
    fake_server,
    run_conversation,
    telemetry,
)

Converse = Callable[[FakeModelServer, bool, Telemetry], Exchange]
Server = Callable[[str], AbstractContextManager[FakeModelServer]]


@dataclass(frozen=True)
class Scenario:
    env: dict[str, str]
    packages: tuple[str, ...]
    instrument: Callable[[Telemetry], Callable[[], None]]
    converse: Converse
    server: Server = field(default=fake_server)


def _openai_v2(telemetry: Telemetry) -> Callable[[], None]:
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(
        tracer_provider=telemetry.tracer_provider, logger_provider=telemetry.logger_provider
    )
    return instrumentor.uninstrument


def _genai_openai(telemetry: Telemetry) -> Callable[[], None]:
    from opentelemetry.instrumentation.genai.openai import OpenAIInstrumentor

    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(
        tracer_provider=telemetry.tracer_provider, logger_provider=telemetry.logger_provider
    )
    return instrumentor.uninstrument


def _openai_v2_on_global(telemetry: Telemetry) -> Callable[[], None]:
    """The official OpenAI instrumentation, with our provider also global (the MCP SDK's tracer)."""
    frameworks.global_provider(telemetry)
    return _openai_v2(telemetry)


def _openllmetry(**options: Any) -> Callable[[Telemetry], Callable[[], None]]:
    def instrument(telemetry: Telemetry) -> Callable[[], None]:
        from opentelemetry.instrumentation.openai import OpenAIInstrumentor

        instrumentor = OpenAIInstrumentor(**options)
        instrumentor.instrument(
            tracer_provider=telemetry.tracer_provider, logger_provider=telemetry.logger_provider
        )
        return instrumentor.uninstrument

    return instrument


def _openinference(telemetry: Telemetry) -> Callable[[], None]:
    from openinference.instrumentation.openai import OpenAIInstrumentor

    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=telemetry.tracer_provider)
    return instrumentor.uninstrument


def _no_global_instrumentation(telemetry: Telemetry) -> Callable[[], None]:
    return lambda: None


def _openai_conversation(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    tracer = telemetry.tracer_provider.get_tracer("invoice-harness")
    return run_conversation(server, stream=stream, tracer=tracer)


def _pydantic_ai_conversation(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """A Pydantic AI agent with one tool, instrumented through its own tracer provider."""
    from pydantic_ai import Agent
    from pydantic_ai.capabilities.instrumentation import Instrumentation
    from pydantic_ai.messages import ModelResponse, ToolCallPart
    from pydantic_ai.models.instrumented import InstrumentationSettings
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    settings = InstrumentationSettings(tracer_provider=telemetry.tracer_provider, include_content=True)
    model = OpenAIChatModel(MODEL, provider=OpenAIProvider(base_url=server.base_url, api_key="test-key"))
    agent = Agent(model, name="invoice-agent", instructions=SYSTEM, capabilities=[Instrumentation(settings)])

    @agent.tool_plain
    def get_invoice(invoice_id: str) -> dict[str, Any]:
        """Look up an invoice by id."""
        result: dict[str, Any] = json.loads(TOOL_RESULT)
        return result

    if stream:

        async def run_streamed() -> tuple[str, list[Any]]:
            async with agent.run_stream(PROMPT) as result:
                output = await result.get_output()
            return output, result.all_messages()

        answer, history = asyncio.run(run_streamed())
    else:
        result = agent.run_sync(PROMPT)
        answer, history = result.output, result.all_messages()
    responses = [m for m in history if isinstance(m, ModelResponse)]
    calls = [p for m in responses for p in m.parts if isinstance(p, ToolCallPart)]
    return Exchange(answer, [str(m.provider_response_id) for m in responses], calls[0].tool_call_id)


_LATEST = {
    "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_and_event",
    "OTEL_INSTRUMENTATION_GENAI_EMIT_EVENT": "true",
}
_V2_PACKAGES = ("opentelemetry-instrumentation-openai-v2", "opentelemetry-util-genai")
_OPENAI_AGENTS_TRACELOOP = ("openai-agents", "opentelemetry-instrumentation-openai-agents")
_OPENAI_AGENTS_OPENINFERENCE = ("openai-agents", "openinference-instrumentation-openai-agents")
_LEGACY_EVENTS = {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true"}
_OPENLLMETRY = ("opentelemetry-instrumentation-openai",)
# The official packages on util-genai 1.x write the latest semconv only; no opt-in variable.
_GENAI_OPENAI = ("opentelemetry-instrumentation-genai-openai", "opentelemetry-util-genai")
SCENARIOS = {
    "openai_v2_latest": Scenario(_LATEST, _V2_PACKAGES, _openai_v2, _openai_conversation),
    "openai_v2_legacy_events": Scenario(
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true"},
        _V2_PACKAGES,
        _openai_v2,
        _openai_conversation,
    ),
    "genai_openai_span": Scenario(
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only"},
        _GENAI_OPENAI,
        _genai_openai,
        _openai_conversation,
    ),
    "genai_openai_event": Scenario(
        {
            "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "event_only",
            "OTEL_INSTRUMENTATION_GENAI_EMIT_EVENT": "true",
        },
        _GENAI_OPENAI,
        _genai_openai,
        _openai_conversation,
    ),
    "openllmetry": Scenario({}, _OPENLLMETRY, _openllmetry(), _openai_conversation),
    "openllmetry_events": Scenario(
        {},
        ("opentelemetry-instrumentation-openai",),
        _openllmetry(use_attributes=False),
        _openai_conversation,
    ),
    "openinference": Scenario(
        {}, ("openinference-instrumentation-openai",), _openinference, _openai_conversation
    ),
    "pydantic_ai": Scenario({}, ("pydantic-ai-slim",), _no_global_instrumentation, _pydantic_ai_conversation),
    "openinference_langchain_rag": Scenario(
        {},
        ("openinference-instrumentation-langchain", "langchain-core", "langchain-openai"),
        frameworks.langchain_openinference,
        frameworks.langchain_rag,
        answering_server,
    ),
    "langsmith_langgraph": Scenario(
        frameworks.LANGSMITH_OTEL,
        ("langsmith", "langgraph", "langchain-core", "langchain-openai"),
        frameworks.global_provider,
        frameworks.langgraph_agent,
    ),
    "langsmith_langchain_rag": Scenario(
        frameworks.LANGSMITH_OTEL,
        ("langsmith", "langchain-core", "langchain-openai"),
        frameworks.global_provider,
        frameworks.langchain_rag,
        answering_server,
    ),
    "langfuse": Scenario({}, ("langfuse",), frameworks.langfuse_client, frameworks.langfuse_agent),
    "langfuse_rag": Scenario(
        {}, ("langfuse",), frameworks.langfuse_client, frameworks.langfuse_rag, answering_server
    ),
    "mlflow": Scenario({}, ("mlflow-tracing",), frameworks.mlflow_over_otlp, frameworks.mlflow_agent),
    "openai_agents_traceloop": Scenario(
        {}, _OPENAI_AGENTS_TRACELOOP, frameworks.openai_agents_traceloop, frameworks.openai_agents
    ),
    "openai_agents_traceloop_chat": Scenario(
        {}, _OPENAI_AGENTS_TRACELOOP, frameworks.openai_agents_traceloop, frameworks.openai_agents_chat
    ),
    "openai_agents_official": Scenario(
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only"},
        ("openai-agents", "opentelemetry-instrumentation-genai-openai-agents", *_GENAI_OPENAI),
        frameworks.openai_agents_official,
        frameworks.openai_agents,
    ),
    "openai_agents_openinference": Scenario(
        {}, _OPENAI_AGENTS_OPENINFERENCE, frameworks.openai_agents_openinference, frameworks.openai_agents
    ),
    "mcp": Scenario(_LATEST, ("mcp", *_V2_PACKAGES), _openai_v2_on_global, frameworks.mcp_agent),
    "adk_legacy": Scenario(
        {"ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN": "1"},
        ("google-adk",),
        frameworks.global_provider,
        frameworks.adk_agent,
    ),
    "adk": Scenario(
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only"},
        ("google-adk",),
        frameworks.global_provider,
        frameworks.adk_agent,
    ),
    "strands": Scenario({}, ("strands-agents",), frameworks.global_provider, frameworks.strands_agent),
    "strands_latest": Scenario(
        {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental"},
        ("strands-agents",),
        frameworks.global_provider,
        frameworks.strands_agent,
    ),
}


def _report(exchange: Exchange, capture: Capture) -> dict[str, Any]:
    spans = [
        {
            "name": record.name,
            "groundedness": {k: v for k, v in record.attributes.items() if k.startswith(names.SPAN_PREFIX)},
            "events": [event.name for event in record.events],
            "span_id": record.span_id,
            "parent_id": record.parent_span_id,
            "gate": is_genai_span(sdk.attributes, record.name),
            "facts": _plain(read_span(record)),
        }
        for sdk, record in zip(capture.sdk_spans, capture.spans, strict=True)
    ]
    logs = [
        {
            "event_name": log.event_name,
            "span_id": log.span_id,
            "attributes": {k: v for k, v in log.attributes.items() if k.startswith("gen_ai.evaluation.")},
            "facts": _plain(read_log_event(log)),
        }
        for log in capture.logs
    ]
    # The same exported spans and logs scored offline, as `otel-groundedness replay` would.
    offline = replay(capture.spans, capture.logs)
    replayed = {str(scored.span.span_id): scored.report.score for scored in offline.scored}
    return {
        "exchange": dataclasses.asdict(exchange),
        "ended": capture.ended,
        "spans": spans,
        "logs": logs,
        "replay": replayed,
        "replay_skipped": dict(offline.skipped),
    }


def _plain(facts: Any) -> Any:
    return None if facts is None else dataclasses.asdict(facts)


def main(name: str, score: bool) -> None:
    scenario = SCENARIOS[name]
    os.environ.update(scenario.env)
    runs = {}
    with telemetry(score=score) as telemetry_:
        uninstrument = scenario.instrument(telemetry_)
        try:
            variants = [("nonstream", False, ANSWER), ("stream", True, ANSWER)]
            if score:  # a corrupted figure shows the score is not a constant
                variants.append(("corrupted", False, CORRUPTED_ANSWER))
            for label, stream, answer in variants:
                telemetry_.clear()
                with scenario.server(answer) as server:
                    exchange = scenario.converse(server, stream, telemetry_)
                runs[label] = _report(exchange, telemetry_.capture())
        finally:
            uninstrument()
    versions = {package: metadata.version(package) for package in (*scenario.packages, "openai")}
    print(json.dumps({"versions": versions, "runs": runs}))


if __name__ == "__main__":
    main(sys.argv[1], score="--score" in sys.argv[2:])
