"""Framework conversations for the scenario runner: the same invoice question asked through agent
and RAG frameworks (imported lazily: each runs in its own interpreter, some in their own venv)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from otel_groundedness.demo.fake_model_server import FakeModelServer
from tests.instrumentation.conversation import MODEL, PROMPT, SYSTEM, TOOL_RESULT, TOOLS, Exchange, Telemetry

# The knowledge base of the RAG flow: the figures of the answer are only in the first document.
DOCUMENTS = (
    (
        "Invoice INV-2210 for Northwind Traders totals $1,243,500.00 (USD) and is due on 2025-03-03.",
        {"source": "invoices/INV-2210.md"},
    ),
    ("Orders ship within two business days of payment.", {"source": "shipping.md"}),
)
RAG_SYSTEM = "Answer from this context only:\n{context}"
# Names neither the invoice id nor a figure: whatever the answer gets right, it got from the documents.
RAG_QUESTION = "What does the Northwind Traders invoice total, and when is it due?"


def langchain_openinference(telemetry: Telemetry) -> Callable[[], None]:
    from openinference.instrumentation.langchain import LangChainInstrumentor

    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=telemetry.tracer_provider)
    return instrumentor.uninstrument


def langchain_rag(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """Retriever + prompt + ChatOpenAI (LCEL), no tools: the documents are the only evidence.

    The context goes into the system message, as in LangChain's RAG tutorials; the user message is
    the bare question, so the prompt itself holds none of the figures.
    """
    from langchain_core.documents import Document
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.prompts import ChatPromptTemplate
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnablePassthrough
    from langchain_core.tracers.langchain import wait_for_all_tracers
    from langchain_openai import ChatOpenAI

    class InvoiceKnowledgeBase(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
            return [Document(page_content=text, metadata=metadata) for text, metadata in DOCUMENTS]

    def joined(documents: list[Document]) -> str:
        return "\n\n".join(document.page_content for document in documents)

    llm = ChatOpenAI(model=MODEL, base_url=server.base_url, api_key="test-key", streaming=stream)
    prompt = ChatPromptTemplate.from_messages([("system", RAG_SYSTEM), ("human", "{question}")])
    retrieve = InvoiceKnowledgeBase() | joined
    chain = {"context": retrieve, "question": RunnablePassthrough()} | prompt | llm | StrOutputParser()
    answer = chain.invoke(RAG_QUESTION)
    wait_for_all_tracers()  # LangSmith exports in the background
    return Exchange(answer, [], "")


# LangSmith's OpenTelemetry mode, without a LangSmith account: spans go only to the global provider.
LANGSMITH_OTEL = {
    "LANGSMITH_TRACING": "true",
    "LANGSMITH_OTEL_ENABLED": "true",
    "LANGSMITH_OTEL_ONLY": "true",
}


def global_provider(telemetry: Telemetry) -> Callable[[], None]:
    """Libraries that trace through the global tracer provider (LangSmith, Strands) get ours."""
    from opentelemetry import trace

    trace.set_tracer_provider(telemetry.tracer_provider)
    return lambda: None


def langgraph_agent(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """A LangGraph ReAct agent with one tool, traced by LangSmith (exported in the background)."""
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool
    from langchain_core.tracers.langchain import wait_for_all_tracers
    from langchain_openai import ChatOpenAI
    from langgraph.prebuilt import create_react_agent

    @tool
    def get_invoice(invoice_id: str) -> str:
        """Look up an invoice by id."""
        return TOOL_RESULT

    llm = ChatOpenAI(model=MODEL, base_url=server.base_url, api_key="test-key", streaming=stream)
    agent = create_react_agent(llm, [get_invoice], prompt=SYSTEM, name="invoice-agent")
    messages = agent.invoke({"messages": [("user", PROMPT)]})["messages"]
    wait_for_all_tracers()
    replies = [message for message in messages if isinstance(message, AIMessage)]
    calls = [call for reply in replies for call in reply.tool_calls]
    return Exchange(str(replies[-1].content), [], str(calls[0]["id"]))


def strands_agent(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """A Strands agent with one tool on its OpenAI model provider (which always streams)."""
    from strands import Agent, tool
    from strands.models.openai import OpenAIModel

    @tool
    def get_invoice(invoice_id: str) -> str:
        """Look up an invoice by id."""
        return TOOL_RESULT

    model = OpenAIModel(client_args={"base_url": server.base_url, "api_key": "test-key"}, model_id=MODEL)
    agent = Agent(
        model=model, tools=[get_invoice], system_prompt=SYSTEM, name="invoice-agent", callback_handler=None
    )
    result = agent(PROMPT)
    uses = [
        block["toolUse"]["toolUseId"]
        for message in agent.messages
        for block in message["content"]
        if "toolUse" in block
    ]
    return Exchange(str(result).strip(), [], uses[0])


def _chat(client: Any, messages: list[dict[str, Any]], stream: bool) -> dict[str, Any]:
    """One chat completion with the invoice tool; the reply as a message dict (streamed or not)."""
    if not stream:
        reply = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS)
        return dict(reply.choices[0].message.model_dump(exclude_none=True))
    text, calls = "", {}
    for chunk in client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS, stream=True):
        for choice in chunk.choices:
            text += choice.delta.content or ""
            for delta in choice.delta.tool_calls or []:
                call = calls.setdefault(delta.index, {"id": "", "name": "", "arguments": ""})
                call["id"] += delta.id or ""
                call["name"] += delta.function.name or ""
                call["arguments"] += delta.function.arguments or ""
    tool_calls = [
        {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
        for c in calls.values()
    ]
    return {"role": "assistant", "content": text or None, "tool_calls": tool_calls}


def _tool_round(client: Any, prompt: str, stream: bool, tool: Callable[..., str], call_ids: list[str]) -> str:
    """A hand-written agent loop's one tool round: ask, run the tool the model calls (recording the
    call's id in ``call_ids``), answer with its result. Called inside a framework's traced agent
    function, so the LLM calls and the tool nest under the agent."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": prompt},
    ]
    reply = _chat(client, messages, stream)
    call = reply["tool_calls"][0]
    messages.append({"role": "assistant", "content": None, "tool_calls": reply["tool_calls"]})
    result = tool(**json.loads(call["function"]["arguments"]))
    messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    call_ids.append(call["id"])
    return str(_chat(client, messages, stream)["content"])


def langfuse_client(telemetry: Telemetry) -> Callable[[], None]:
    """The Langfuse client on our tracer provider, its own exporter kept in memory: no Langfuse server."""
    from langfuse import Langfuse
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    client = Langfuse(
        public_key="pk-lf-local",
        secret_key="sk-lf-local",
        base_url="http://127.0.0.1:9",
        tracer_provider=telemetry.tracer_provider,
        span_exporter=InMemorySpanExporter(),
    )
    return client.shutdown


def langfuse_agent(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """An agent loop written as Langfuse documents it: ``@observe`` agent and tool functions, the LLM
    calls through ``langfuse.openai`` (generation observations)."""
    from langfuse import get_client, observe
    from langfuse.openai import OpenAI

    @observe(as_type="tool")
    def get_invoice(invoice_id: str) -> str:
        return TOOL_RESULT

    call_ids: list[str] = []

    @observe(as_type="agent", name="invoice-agent")
    def run(prompt: str) -> str:
        client = OpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
        return _tool_round(client, prompt, stream, get_invoice, call_ids)

    answer = run(PROMPT)
    get_client().flush()
    return Exchange(answer, [], call_ids[0])


def langfuse_rag(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """A retriever observation returning LangChain documents, then one ``langfuse.openai`` generation."""
    from langchain_core.documents import Document
    from langfuse import get_client, observe
    from langfuse.openai import OpenAI

    @observe(as_type="retriever")
    def retrieve(question: str) -> list[Document]:
        return [Document(page_content=text, metadata=metadata) for text, metadata in DOCUMENTS]

    @observe(as_type="chain", name="invoice-rag")
    def answer(question: str) -> str:
        context = "\n\n".join(document.page_content for document in retrieve(question))
        client = OpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
        messages = [
            {"role": "system", "content": RAG_SYSTEM.format(context=context)},
            {"role": "user", "content": question},
        ]
        if not stream:
            return str(
                client.chat.completions.create(model=MODEL, messages=messages).choices[0].message.content
            )
        chunks = client.chat.completions.create(model=MODEL, messages=messages, stream=True)
        return "".join(choice.delta.content or "" for chunk in chunks for choice in chunk.choices)

    text = answer(RAG_QUESTION)
    get_client().flush()
    return Exchange(text, [], "")


def mlflow_over_otlp(telemetry: Telemetry) -> Callable[[], None]:
    """MLflow exporting OTLP (to a local sink that accepts and drops it) from the global provider: with
    ``MLFLOW_USE_DEFAULT_TRACER_PROVIDER=false`` it adds its OTLP span processor to ours instead of
    building an isolated provider, so the GroundednessSpanProcessor sees its spans in-process. Without
    an OTLP endpoint MLflow would write to a local tracking store instead. The tracking URI is set
    (and never contacted in OTLP-only mode) because mlflow-tracing 3.17.2 otherwise resolves a default
    one through the file store, which imports ``sqlparse``, not one of its dependencies: every span
    would then fail to start."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Sink(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    sink = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    os.environ.update(
        {
            "MLFLOW_USE_DEFAULT_TRACER_PROVIDER": "false",
            "MLFLOW_TRACKING_URI": f"http://127.0.0.1:{sink.server_port}",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": f"http://127.0.0.1:{sink.server_port}/v1/traces",
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf",
        }
    )
    global_provider(telemetry)
    return sink.shutdown


def mlflow_agent(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """An agent loop traced by MLflow: ``mlflow.openai.autolog()`` for the LLM calls (CHAT_MODEL spans),
    ``@mlflow.trace`` for the agent and the tool."""
    import mlflow
    import openai
    from mlflow.entities import SpanType

    mlflow.openai.autolog()

    @mlflow.trace(span_type=SpanType.TOOL)
    def get_invoice(invoice_id: str) -> str:
        return TOOL_RESULT

    call_ids: list[str] = []

    @mlflow.trace(span_type=SpanType.AGENT, name="invoice-agent")
    def run(prompt: str) -> str:
        client = openai.OpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
        return _tool_round(client, prompt, stream, get_invoice, call_ids)

    answer = run(PROMPT)
    return Exchange(answer, [], call_ids[0])


def openai_agents_traceloop(telemetry: Telemetry) -> Callable[[], None]:
    """Traceloop's OpenAI Agents instrumentation, replacing the SDK's own trace processors (which
    would export to OpenAI's tracing backend)."""
    from opentelemetry.instrumentation.openai_agents import OpenAIAgentsInstrumentor

    instrumentor = OpenAIAgentsInstrumentor(replace_existing_processors=True)
    instrumentor.instrument(tracer_provider=telemetry.tracer_provider)
    return instrumentor.uninstrument


def openai_agents_openinference(telemetry: Telemetry) -> Callable[[], None]:
    """OpenInference's OpenAI Agents instrumentation as the SDK's only trace processor."""
    from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor

    instrumentor = OpenAIAgentsInstrumentor()
    instrumentor.instrument(tracer_provider=telemetry.tracer_provider, exclusive_processor=True)
    return instrumentor.uninstrument


def openai_agents_official(telemetry: Telemetry) -> Callable[[], None]:
    """The official GenAI packages: ``-openai-agents`` for the workflow, agent and tool spans (the SDK's
    own exporter to OpenAI replaced), ``-openai`` for the model calls (the Responses API)."""
    from opentelemetry.instrumentation.genai.openai import OpenAIInstrumentor
    from opentelemetry.instrumentation.genai.openai_agents import OpenAIAgentsInstrumentor

    agents, client = OpenAIAgentsInstrumentor(), OpenAIInstrumentor()
    agents.instrument(tracer_provider=telemetry.tracer_provider, disable_openai_trace_export=True)
    client.instrument(tracer_provider=telemetry.tracer_provider, logger_provider=telemetry.logger_provider)

    def uninstrument() -> None:
        client.uninstrument()
        agents.uninstrument()

    return uninstrument


def _openai_agents_run(server: FakeModelServer, stream: bool, *, chat_completions: bool) -> Exchange:
    import asyncio

    from openai import AsyncOpenAI

    from agents import Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, function_tool

    @function_tool
    def get_invoice(invoice_id: str) -> str:
        """Look up an invoice by id."""
        return TOOL_RESULT

    client = AsyncOpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
    model_class = OpenAIChatCompletionsModel if chat_completions else OpenAIResponsesModel
    model = model_class(model=MODEL, openai_client=client)
    agent = Agent(name="invoice-agent", instructions=SYSTEM, tools=[get_invoice], model=model)

    async def run() -> Any:
        if not stream:
            return await Runner.run(agent, PROMPT)
        result = Runner.run_streamed(agent, PROMPT)
        async for _ in result.stream_events():
            pass
        return result

    result = asyncio.run(run())
    calls = [item.raw_item for item in result.new_items if item.type == "tool_call_item"]
    return Exchange(str(result.final_output), [], str(calls[0].call_id))


def openai_agents(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """An OpenAI Agents SDK agent with one function tool on the Responses API (the SDK's default)."""
    return _openai_agents_run(server, stream, chat_completions=False)


def openai_agents_chat(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """The same agent on ``OpenAIChatCompletionsModel``."""
    return _openai_agents_run(server, stream, chat_completions=True)


def mcp_agent(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """The harness agent loop (official OpenAI instrumentation for the chat spans, a manual
    ``execute_tool`` span as an agent framework writes it) calling its tool on an in-process MCP server
    through the MCP Python SDK, whose client and server spans repeat the call without its result."""
    import asyncio

    import openai
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    from tests.instrumentation.conversation import AGENT_ATTRIBUTES, ask

    tools = MCPServer("invoices")

    @tools.tool()
    def get_invoice(invoice_id: str) -> str:
        """Look up an invoice by id."""
        return TOOL_RESULT

    tracer = telemetry.tracer_provider.get_tracer("invoice-harness")

    async def run() -> Exchange:
        client = openai.OpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": PROMPT},
        ]
        with tracer.start_as_current_span("invoke_agent invoice-agent", attributes=AGENT_ATTRIBUTES):
            _, _, calls = ask(client, messages, stream)
            call_id, name, arguments = calls[0]
            call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
            attributes = {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": name,
                "gen_ai.tool.call.id": call_id,
            }
            with tracer.start_as_current_span(f"execute_tool {name}", attributes=attributes) as span:
                async with Client(tools) as session:
                    result = await session.call_tool(name, json.loads(arguments))
                text = "".join(block.text for block in result.content if block.type == "text")
                span.set_attribute("gen_ai.tool.call.result", text)
            messages.append({"role": "tool", "tool_call_id": call_id, "content": text})
            _, answer, _ = ask(client, messages, stream)
        return Exchange(answer, [], call_id)

    return asyncio.run(run())


def adk_agent(server: FakeModelServer, stream: bool, telemetry: Telemetry) -> Exchange:
    """A Google ADK ``LlmAgent`` with one function tool. ADK's models speak Gemini (or go through
    LiteLLM); here a ``BaseLlm`` subclass, ADK's extension point for other models, forwards each
    ``LlmRequest`` to the fake model server as a chat completion. ADK traces through the global
    provider; ``stream`` runs it in SSE mode (the model then streams and yields the whole reply)."""
    import asyncio
    from collections.abc import AsyncGenerator

    from google.adk.agents import LlmAgent
    from google.adk.agents.run_config import RunConfig, StreamingMode
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types
    from openai import OpenAI

    from tests.instrumentation.conversation import ask

    client = OpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)

    class ChatCompletionsLlm(BaseLlm):
        async def generate_content_async(
            self, llm_request: LlmRequest, stream: bool = False
        ) -> AsyncGenerator[LlmResponse, None]:
            _, text, calls = ask(client, _openai_messages(llm_request), stream)  # blocking is fine here
            parts = [
                types.Part(
                    function_call=types.FunctionCall(id=call_id, name=name, args=json.loads(arguments))
                )
                for call_id, name, arguments in calls
            ] or [types.Part(text=text)]
            yield LlmResponse(content=types.Content(role="model", parts=parts), turn_complete=True)

    def get_invoice(invoice_id: str) -> str:
        """Look up an invoice by id."""
        return TOOL_RESULT

    agent = LlmAgent(
        name="invoice_agent", model=ChatCompletionsLlm(model=MODEL), instruction=SYSTEM, tools=[get_invoice]
    )
    runner = InMemoryRunner(agent=agent, app_name="invoices")

    async def run() -> Exchange:
        session = await runner.session_service.create_session(app_name="invoices", user_id="user")
        message = types.Content(role="user", parts=[types.Part(text=PROMPT)])
        config = RunConfig(streaming_mode=StreamingMode.SSE if stream else StreamingMode.NONE)
        answer, call_ids = "", []
        async for event in runner.run_async(
            user_id="user", session_id=session.id, new_message=message, run_config=config
        ):
            for part in (event.content.parts or []) if event.content else []:
                if part.function_call is not None:
                    call_ids.append(str(part.function_call.id))
                if part.text and event.is_final_response():
                    answer = part.text
        return Exchange(answer, [], call_ids[0])

    return asyncio.run(run())


def _openai_messages(llm_request: Any) -> list[dict[str, Any]]:
    """An ADK ``LlmRequest`` (google-genai contents) as Chat Completions messages."""
    messages: list[dict[str, Any]] = []
    system = llm_request.config.system_instruction if llm_request.config else None
    if isinstance(system, str) and system:
        messages.append({"role": "system", "content": system})
    for content in llm_request.contents:
        for part in content.parts or []:
            if part.text:
                role = "assistant" if content.role == "model" else "user"
                messages.append({"role": role, "content": part.text})
            elif part.function_call is not None:
                call = part.function_call
                function = {"name": call.name, "arguments": json.dumps(call.args or {})}
                messages.append(
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [{"id": call.id, "type": "function", "function": function}],
                    }
                )
            elif part.function_response is not None:
                response = part.function_response.response or {}
                content_text = response.get("result") if set(response) == {"result"} else json.dumps(response)
                messages.append(
                    {"role": "tool", "tool_call_id": part.function_response.id, "content": str(content_text)}
                )
    return messages
