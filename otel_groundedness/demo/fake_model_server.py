"""A scripted, local OpenAI Chat Completions server for the demo and instrumentation tests.

It speaks enough of ``POST /v1/chat/completions`` and ``POST /v1/responses`` (JSON and SSE streaming)
and ``GET /v1/models`` for the official ``openai`` client and the libraries built on it (the OpenAI
Agents SDK uses the Responses API); answers come from a script.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# A fixed creation time keeps responses byte-for-byte reproducible.
_CREATED = 1_735_689_600
_STREAM_PIECE_WORDS = 3


@dataclass(frozen=True)
class ScriptedToolCall:
    """A tool call the model makes: function name and JSON-serializable arguments."""

    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class ScriptedTurn:
    """The model's behaviour for one user prompt: optional tool calls first, then ``answer``."""

    tool_calls: tuple[ScriptedToolCall, ...]
    answer: str


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received (body is the parsed JSON, or None when absent)."""

    method: str
    path: str
    body: Any


Script = Mapping[str, ScriptedTurn] | Callable[[str], ScriptedTurn]


class UnknownPromptError(LookupError):
    """The script has no turn for the prompt (answered with HTTP 400)."""


class FakeModelServer:
    """A threaded HTTP server on 127.0.0.1 (free port) answering from a script.

    The script maps the text of the last user message to a ``ScriptedTurn`` (a mapping looked up
    by exact prompt, or a callable that raises ``LookupError`` for unknown prompts). A turn with
    tool calls answers with those calls until a tool message follows the last user message, then
    with its ``answer``. Use as a context manager or call ``start()``/``stop()``.
    """

    def __init__(self, script: Script, *, model: str = "gpt-4o-mini") -> None:
        self.model = model
        self._script = script
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._completions = 0
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> FakeModelServer:
        """Bind a free port on 127.0.0.1 and serve on a daemon thread."""
        if self._httpd is not None:
            return self
        httpd = _QuietServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-model-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, close the socket and join the serving thread."""
        httpd, thread = self._httpd, self._thread
        self._httpd, self._thread = None, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> FakeModelServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, ``http://127.0.0.1:PORT/v1``."""
        if self._httpd is None:
            raise RuntimeError("FakeModelServer is not running")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request received so far, in arrival order."""
        with self._lock:
            return tuple(self._requests)

    # --- behaviour (called from handler threads) -------------------------------------------

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next_completion_number(self) -> int:
        with self._lock:
            self._completions += 1
            return self._completions

    def _turn_for(self, prompt: str) -> ScriptedTurn:
        script = self._script
        try:
            turn = script[prompt] if isinstance(script, Mapping) else script(prompt)
        except LookupError as exc:
            raise UnknownPromptError(prompt) from exc
        return turn

    def _plan(self, body: Mapping[str, Any]) -> _Reply:
        messages = body.get("messages")
        if messages is None and "input" in body:
            messages = _responses_messages(body["input"])
        if not isinstance(messages, list):
            raise UnknownPromptError("request has no messages")
        last_user = _last_user_index(messages)
        if last_user is None:
            raise UnknownPromptError("request has no user message")
        turn = self._turn_for(_message_text(messages[last_user]))
        number = self._next_completion_number()
        tool_answered = any(_role(m) == "tool" for m in messages[last_user + 1 :])
        tool_calls: tuple[_ToolCallOut, ...] = ()
        if turn.tool_calls and not tool_answered:
            tool_calls = tuple(
                _ToolCallOut(_call_id(number, i), call.name, json.dumps(dict(call.arguments)))
                for i, call in enumerate(turn.tool_calls)
            )
        return _Reply(
            completion_id=f"chatcmpl-{_digest(f'completion:{number}', 29)}",
            model=self.model,
            content=None if tool_calls else turn.answer,
            tool_calls=tool_calls,
            prompt_tokens=sum(_word_count(_message_text(m)) for m in messages) + len(messages),
            instructions=body.get("instructions") if isinstance(body.get("instructions"), str) else None,
        )


@dataclass(frozen=True)
class _ToolCallOut:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class _Reply:
    completion_id: str
    model: str
    content: str | None
    tool_calls: tuple[_ToolCallOut, ...]
    prompt_tokens: int
    instructions: str | None = None  # the Responses API echoes the request's instructions

    @property
    def finish_reason(self) -> str:
        return "tool_calls" if self.tool_calls else "stop"

    @property
    def completion_tokens(self) -> int:
        if self.content is not None:
            return _word_count(self.content)
        return sum(_word_count(c.arguments) + 1 for c in self.tool_calls)

    def usage(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
        }

    def completion(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.content, "refusal": None}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        return {
            **self._envelope("chat.completion"),
            "choices": [
                {"index": 0, "message": message, "logprobs": None, "finish_reason": self.finish_reason}
            ],
            "usage": self.usage(),
        }

    def chunks(self, include_usage: bool) -> Iterator[dict[str, Any]]:
        yield self._chunk({"role": "assistant", "content": "" if self.content is not None else None})
        if self.content is not None:
            for piece in _pieces(self.content):
                yield self._chunk({"content": piece})
        for index, call in enumerate(self.tool_calls):
            head = {"index": index, "id": call.id, "type": "function"}
            yield self._chunk({"tool_calls": [{**head, "function": {"name": call.name, "arguments": ""}}]})
            for piece in _pieces(call.arguments):
                yield self._chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        yield self._chunk({}, finish_reason=self.finish_reason)
        if include_usage:
            yield {**self._envelope("chat.completion.chunk"), "choices": [], "usage": self.usage()}

    def response(self) -> dict[str, Any]:
        """The reply as a Responses API ``response`` object."""
        usage = {
            "input_tokens": self.prompt_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": self.completion_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": self.prompt_tokens + self.completion_tokens,
        }
        return {**self._response_head("completed"), "output": self._output_items(), "usage": usage}

    def response_events(self) -> Iterator[dict[str, Any]]:
        """The Responses API stream: created, each output item with its text deltas, completed."""
        yield {"type": "response.created", "response": {**self._response_head("in_progress"), "output": []}}
        for index, item in enumerate(self._output_items()):
            if item["type"] == "message":
                text = item["content"][0]["text"]
                empty = {**item, "status": "in_progress", "content": []}
                yield {"type": "response.output_item.added", "output_index": index, "item": empty}
                part = {"type": "output_text", "text": "", "annotations": []}
                head = {"item_id": item["id"], "output_index": index, "content_index": 0}
                yield {"type": "response.content_part.added", **head, "part": part}
                for piece in _pieces(text):
                    yield {"type": "response.output_text.delta", **head, "delta": piece, "logprobs": []}
                yield {"type": "response.output_text.done", **head, "text": text, "logprobs": []}
                yield {"type": "response.content_part.done", **head, "part": item["content"][0]}
            else:
                empty = {**item, "status": "in_progress", "arguments": ""}
                yield {"type": "response.output_item.added", "output_index": index, "item": empty}
                head = {"item_id": item["id"], "output_index": index}
                yield {"type": "response.function_call_arguments.delta", **head, "delta": item["arguments"]}
                yield {
                    "type": "response.function_call_arguments.done",
                    **head,
                    "arguments": item["arguments"],
                }
            yield {"type": "response.output_item.done", "output_index": index, "item": item}
        yield {"type": "response.completed", "response": self.response()}

    def _output_items(self) -> list[dict[str, Any]]:
        if self.tool_calls:
            return [
                {
                    "type": "function_call",
                    "id": f"fc_{c.id.removeprefix('call_')}",
                    "call_id": c.id,
                    "name": c.name,
                    "arguments": c.arguments,
                    "status": "completed",
                }
                for c in self.tool_calls
            ]
        text = {"type": "output_text", "text": self.content or "", "annotations": []}
        message_id = f"msg_{self.completion_id.removeprefix('chatcmpl-')}"
        return [
            {
                "type": "message",
                "id": message_id,
                "role": "assistant",
                "status": "completed",
                "content": [text],
            }
        ]

    def _response_head(self, status: str) -> dict[str, Any]:
        return {
            "id": f"resp_{self.completion_id.removeprefix('chatcmpl-')}",
            "object": "response",
            "created_at": _CREATED,
            "status": status,
            "model": self.model,
            "instructions": self.instructions,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }

    def _chunk(self, delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        return {**self._envelope("chat.completion.chunk"), "choices": [choice]}

    def _envelope(self, obj: str) -> dict[str, Any]:
        return {
            "id": self.completion_id,
            "object": obj,
            "created": _CREATED,
            "model": self.model,
            "system_fingerprint": "fp_fake",
        }


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients closing idle keep-alive connections is normal; anything else is still reported."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _handler_for(server: FakeModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        owner = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    owner: FakeModelServer
    protocol_version = "HTTP/1.1"
    # Headers and body go out as separate writes; with Nagle on, each response waits ~40 ms for an ACK.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: tests and the demo own the terminal."""

    def do_GET(self) -> None:
        self.owner._record(RecordedRequest("GET", self.path, None))
        if self.path.rstrip("/") == "/v1/models":
            model = {"id": self.owner.model, "object": "model", "created": _CREATED, "owned_by": "fake"}
            self._send_json(HTTPStatus.OK, {"object": "list", "data": [model]})
        else:
            self._send_error(HTTPStatus.NOT_FOUND, f"Unknown path {self.path}", "not_found_error")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self.owner._record(RecordedRequest("POST", self.path, body))
        responses_api = self.path.rstrip("/") == "/v1/responses"
        if self.path.rstrip("/") != "/v1/chat/completions" and not responses_api:
            self._send_error(HTTPStatus.NOT_FOUND, f"Unknown path {self.path}", "not_found_error")
            return
        if not isinstance(body, dict):
            self._send_error(
                HTTPStatus.BAD_REQUEST, "Request body must be a JSON object", "invalid_request_error"
            )
            return
        try:
            reply = self.owner._plan(body)
        except UnknownPromptError as exc:
            self._send_error(
                HTTPStatus.BAD_REQUEST, f"No scripted turn for prompt: {exc}", "invalid_request_error"
            )
            return
        if responses_api:
            if body.get("stream") is True:
                self._send_stream(reply.response_events(), events=True)
            else:
                self._send_json(HTTPStatus.OK, reply.response())
        elif body.get("stream") is True:
            options = body.get("stream_options")
            include_usage = isinstance(options, dict) and options.get("include_usage") is True
            self._send_stream(reply.chunks(include_usage))
        else:
            self._send_json(HTTPStatus.OK, reply.completion())

    def _send_json(self, status: HTTPStatus, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_error(self, status: HTTPStatus, message: str, error_type: str) -> None:
        error = {"message": message, "type": error_type, "param": None, "code": None}
        self._send_json(status, {"error": error})

    def _send_stream(self, chunks: Iterator[dict[str, Any]], *, events: bool = False) -> None:
        """SSE: Chat Completions chunks end with ``[DONE]``; Responses API events are named by type."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for chunk in chunks:
            event = f"event: {chunk['type']}\n" if events else ""
            self._write_chunked(f"{event}data: {json.dumps(chunk)}\n\n".encode())
        if not events:
            self._write_chunked(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _write_chunked(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")


def _role(message: Any) -> str | None:
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) else None


def _responses_messages(items: Any) -> list[Any]:
    """Responses API input as chat messages: a string is the user message, a function call output a
    tool message, items with a role are messages (their ``input_text`` parts carry ``text``)."""
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    messages: list[Any] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call_output":
            messages.append({"role": "tool", "content": item.get("output")})
        elif "role" in item:
            messages.append(item)
    return messages


def _last_user_index(messages: list[Any]) -> int | None:
    for index in range(len(messages) - 1, -1, -1):
        if _role(messages[index]) == "user":
            return index
    return None


def _message_text(message: Any) -> str:
    """Text of a message whose content is a string or a list of ``{"type": "text"}`` parts."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"] for part in content if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def _pieces(text: str) -> Iterator[str]:
    """Split text into a few-word pieces that concatenate back to exactly ``text``."""
    words = text.split(" ")
    for start in range(0, len(words), _STREAM_PIECE_WORDS):
        piece = " ".join(words[start : start + _STREAM_PIECE_WORDS])
        yield piece if start + _STREAM_PIECE_WORDS >= len(words) else piece + " "


def _word_count(text: str) -> int:
    return len(text.split())


def _digest(seed: str, length: int) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()[:length]


def _call_id(completion_number: int, index: int) -> str:
    return f"call_{_digest(f'call:{completion_number}:{index}', 24)}"
