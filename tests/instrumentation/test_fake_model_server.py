"""The fake model server answers the official openai client like the real API would."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import openai
import pytest

from otel_groundedness.demo.fake_model_server import FakeModelServer, ScriptedToolCall, ScriptedTurn

PROMPT = "What is the total of invoice INV-2210?"
ANSWER = "Invoice INV-2210 totals $1,243,500 and is due on March 3, 2025."
TURN = ScriptedTurn((ScriptedToolCall("get_invoice", {"invoice_id": "INV-2210"}),), ANSWER)
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_invoice",
            "parameters": {"type": "object", "properties": {"invoice_id": {"type": "string"}}},
        },
    }
]


@pytest.fixture
def server() -> Iterator[FakeModelServer]:
    with FakeModelServer({PROMPT: TURN}) as running:
        yield running


def _client(server: FakeModelServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0)


def test_non_streaming_tool_call_then_answer(server: FakeModelServer) -> None:
    client = _client(server)
    messages: list[dict[str, object]] = [{"role": "user", "content": PROMPT}]
    first = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert first.id.startswith("chatcmpl-")
    call = choice.message.tool_calls[0]
    assert call.id.startswith("call_") and call.function.name == "get_invoice"
    assert json.loads(call.function.arguments) == {"invoice_id": "INV-2210"}
    assert first.usage is not None and first.usage.total_tokens > 0

    messages += [
        choice.message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": call.id, "content": '{"total": 1243500}'},
    ]
    second = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    assert second.choices[0].finish_reason == "stop"
    assert second.choices[0].message.content == ANSWER
    assert second.id != first.id
    assert [r.body["messages"][-1]["role"] for r in server.requests] == ["user", "tool"]


def test_streaming_reassembles_tool_call_answer_and_usage(server: FakeModelServer) -> None:
    client = _client(server)
    messages: list[dict[str, object]] = [{"role": "user", "content": PROMPT}]
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=messages,
        tools=TOOLS,
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    arguments = "".join(
        c.choices[0].delta.tool_calls[0].function.arguments or ""
        for c in chunks
        if c.choices and c.choices[0].delta.tool_calls
    )
    call_id = next(
        c.choices[0].delta.tool_calls[0].id for c in chunks if c.choices and c.choices[0].delta.tool_calls
    )
    assert json.loads(arguments) == {"invoice_id": "INV-2210"}
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "tool_calls"
    assert chunks[-1].choices == [] and chunks[-1].usage is not None

    messages += [
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": "get_invoice", "arguments": arguments},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "content": "{}"},
    ]
    answer_chunks = list(client.chat.completions.create(model="gpt-4o-mini", messages=messages, stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in answer_chunks if c.choices)
    assert text == ANSWER
    assert len(answer_chunks) > 3 and all(c.usage is None for c in answer_chunks)


def test_unknown_prompt_is_an_openai_style_400(server: FakeModelServer) -> None:
    with pytest.raises(openai.BadRequestError) as caught:
        _client(server).chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": "something else"}]
        )
    assert caught.value.status_code == 400
    assert caught.value.body is not None and "No scripted turn" in caught.value.body["message"]


def test_callable_script_list_content_and_models_endpoint() -> None:
    seen: list[str] = []

    def script(prompt: str) -> ScriptedTurn:
        seen.append(prompt)
        return ScriptedTurn((), f"echo: {prompt}")

    with FakeModelServer(script, model="fake-1") as server:
        client = _client(server)
        reply = client.chat.completions.create(
            model="x", messages=[{"role": "user", "content": [{"type": "text", "text": "hi there"}]}]
        )
        assert reply.choices[0].message.content == "echo: hi there"
        assert reply.model == "fake-1"
        assert [m.id for m in client.models.list()] == ["fake-1"]
    assert seen == ["hi there"]


def test_concurrent_requests_get_distinct_ids_and_stop_is_clean() -> None:
    server = FakeModelServer(lambda prompt: ScriptedTurn((), prompt)).start()
    ids: list[str] = []
    lock = threading.Lock()

    def ask(n: int) -> None:
        reply = _client(server).chat.completions.create(
            model="m", messages=[{"role": "user", "content": f"prompt {n}"}]
        )
        assert reply.choices[0].message.content == f"prompt {n}"
        with lock:
            ids.append(reply.id)

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(ids)) == 8 and len(server.requests) == 8
    server.stop()
    with pytest.raises(RuntimeError):
        _ = server.base_url


@pytest.mark.parametrize("stream", [False, True])
def test_responses_api_function_call_then_answer(server: FakeModelServer, stream: bool) -> None:
    client = _client(server)
    tools = [{"type": "function", "name": "get_invoice", "parameters": TOOLS[0]["function"]["parameters"]}]
    first = client.responses.create(model="gpt-4o-mini", input=PROMPT, tools=tools, instructions="Be brief.")
    (call,) = first.output
    assert call.type == "function_call" and call.name == "get_invoice"
    assert json.loads(call.arguments) == {"invoice_id": "INV-2210"} and first.instructions == "Be brief."
    items = [
        {"role": "user", "content": [{"type": "input_text", "text": PROMPT}]},
        call.model_dump(exclude_none=True),
        {"type": "function_call_output", "call_id": call.call_id, "output": '{"total": 1243500}'},
    ]
    if not stream:
        final = client.responses.create(model="gpt-4o-mini", input=items, tools=tools)
    else:
        with client.responses.stream(model="gpt-4o-mini", input=items, tools=tools) as events:
            deltas = [event.delta for event in events if event.type == "response.output_text.delta"]
            final = events.get_final_response()
        assert "".join(deltas) == ANSWER
    assert final.output_text == ANSWER and final.usage is not None and final.usage.output_tokens > 0
