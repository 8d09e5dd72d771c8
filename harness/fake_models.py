"""Real HTTP servers on 127.0.0.1 speaking the model APIs real agents call, with scripted
replies: the OpenAI Responses API (Codex) and Anthropic's Messages API (Claude Code),
both streamed as server-sent events.

A request that offers tools takes the next scripted `Reply` (text and tool calls); any
other request (an agent's side question: a title, a summary) and a request once the
script is used up are answered with plain text. Every request is recorded."""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import count
from typing import Any

from harness.fake_openai import Call, Reply

__all__ = ["Call", "Hold", "Reply", "ScriptedModels"]

DONE = "Done."
TEXT_EVENTS = ("content_block_delta", "response.output_text.delta")
HOLD_LIMIT_S = 60.0


@dataclass
class Hold:
    """Holds the request open until the test releases it (then answers `then`) or the
    agent drops the request; `dropped` is set when the agent gave up on it."""

    then: Reply = field(default_factory=lambda: Reply(DONE))
    started: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    dropped: threading.Event = field(default_factory=threading.Event)

    def wait(self, connection: socket.socket) -> bool:
        """True to answer; False when the client closed the connection meanwhile."""
        self.started.set()
        deadline = time.monotonic() + HOLD_LIMIT_S
        while not self.release.wait(0.05) and time.monotonic() < deadline:
            readable, _, _ = select.select([connection], [], [], 0)
            try:
                closed = bool(readable) and not connection.recv(1, socket.MSG_PEEK)
            except OSError:  # reset by the peer
                closed = True
            if closed:
                self.dropped.set()
                return False
        return True


class ScriptedModels:
    def __init__(self) -> None:
        self.script: list[Reply | Hold] = []
        self.requests: list[dict[str, Any]] = []
        self.retries = 0  # requests answered again (see `_next`)
        self._last: tuple[dict[str, Any], Reply] | None = None
        self.lock = threading.Lock()
        self.requested = threading.Condition(self.lock)
        self._ids = count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> ScriptedModels:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, body: dict[str, Any]) -> Reply | Hold:
        """The reply to a request. A request with the same body as the last scripted one
        is the agent's retry of it (its HTTP client gave up on the answer, e.g. on a
        loaded machine) and gets the same reply: the script never slips by one, which
        would leave a test waiting for a call the agent was never given."""
        with self.lock:
            self.requests.append(body)
            self.requested.notify_all()
            if body.get("tools") and self._last is not None and body == self._last[0]:
                self.retries += 1
                return self._last[1]
            if body.get("tools") and self.script:
                reply = self.script.pop(0)
                self._last = (body, reply if isinstance(reply, Reply) else reply.then)
                return reply
        return Reply(DONE)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        models = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:
                pass

            def do_GET(self) -> None:  # model lists and the like: nothing here
                self._send(404, b'{"error": {"message": "not here"}}')

            def do_HEAD(self) -> None:
                self._send(200, b"")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0].rstrip("/")
                if path.endswith("count_tokens"):
                    self._send(200, b'{"input_tokens": 100}')
                    return
                if path.endswith(":countTokens"):
                    self._send(200, b'{"totalTokens": 100}')
                    return
                if path.endswith(":generateContent"):  # Gemini's whole answer (side questions)
                    reply = models._next(body)
                    answer = gemini_chunk(reply if isinstance(reply, Reply) else Reply(DONE))
                    self._send(200, json.dumps(answer).encode())
                    return
                if path.endswith(":streamGenerateContent"):
                    reply = models._next(body)
                    if isinstance(reply, Hold):
                        if not reply.wait(self.connection):
                            self.close_connection = True
                            return
                        reply = reply.then
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(
                        b"data: " + json.dumps(gemini_chunk(reply)).encode() + b"\r\n\r\n"
                    )
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if not path.endswith(("/responses", "/messages")):
                    self._send(404, b'{"error": {"message": "unknown path"}}')
                    return
                reply = models._next(body)
                if isinstance(reply, Hold):
                    if not reply.wait(self.connection):
                        self.close_connection = True
                        return
                    reply = reply.then
                if path.endswith("/responses"):
                    events = responses_events(reply, next(models._ids))
                else:
                    events = messages_events(reply, next(models._ids))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for name, data in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                    if reply.pace_s and name in TEXT_EVENTS:  # a piece of text, then a pause
                        self.wfile.flush()
                        time.sleep(reply.pace_s)
                self.wfile.flush()
                self.close_connection = True

            def _send(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler


def responses_events(reply: Reply, n: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """One reply as the Responses API streams it."""
    rid = f"resp_{n}"
    response: dict[str, Any] = {
        "id": rid,
        "object": "response",
        "status": "in_progress",
        "output": [],
        "model": "scripted",
    }
    yield "response.created", {"type": "response.created", "response": response}
    index = 0
    if reply.text:
        item = {
            "type": "message",
            "id": f"msg_{n}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
        }
        yield (
            "response.output_item.added",
            {
                "type": "response.output_item.added",
                "output_index": index,
                "item": {**item, "content": []},
            },
        )
        for piece in reply.text_pieces():
            yield (
                "response.output_text.delta",
                {
                    "type": "response.output_text.delta",
                    "item_id": f"msg_{n}",
                    "output_index": index,
                    "content_index": 0,
                    "delta": piece,
                },
            )
        yield (
            "response.output_item.done",
            {"type": "response.output_item.done", "output_index": index, "item": item},
        )
        index += 1
    for k, call in enumerate(reply.calls):
        item = {
            "type": "function_call",
            "id": f"fc_{n}_{k}",
            "call_id": call.id or f"call_{n}_{k}",
            "name": call.name,
            "arguments": call.args_text(),
            "status": "completed",
        }
        yield (
            "response.output_item.added",
            {"type": "response.output_item.added", "output_index": index, "item": item},
        )
        yield (
            "response.output_item.done",
            {"type": "response.output_item.done", "output_index": index, "item": item},
        )
        index += 1
    done = {
        **response,
        "status": "completed",
        "usage": {
            "input_tokens": 100,
            "output_tokens": 10,
            "total_tokens": 110,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }
    yield "response.completed", {"type": "response.completed", "response": done}


def messages_events(reply: Reply, n: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """One reply as Anthropic's Messages API streams it."""
    message = {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": "scripted",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 1},
    }
    yield "message_start", {"type": "message_start", "message": message}
    index = 0
    if reply.text:
        yield (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            },
        )
        for piece in reply.text_pieces():
            yield (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": piece},
                },
            )
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
        index += 1
    for k, call in enumerate(reply.calls):
        yield (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {
                    "type": "tool_use",
                    "id": call.id or f"toolu_{n}_{k}",
                    "name": call.name,
                    "input": {},
                },
            },
        )
        yield (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "input_json_delta", "partial_json": call.args_text()},
            },
        )
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
        index += 1
    stop = "tool_use" if reply.calls else "end_turn"
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": 10},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def gemini_chunk(reply: Reply) -> dict[str, Any]:
    """One reply as the Gemini API answers it (a whole answer, or one streamed chunk)."""
    parts: list[dict[str, Any]] = []
    if reply.text:
        parts.append({"text": reply.text})
    for call in reply.calls:
        args = call.arguments if isinstance(call.arguments, dict) else json.loads(call.arguments)
        parts.append({"functionCall": {"name": call.name, "args": args}})
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": 100,
            "candidatesTokenCount": 10,
            "totalTokenCount": 110,
        },
        "modelVersion": "gemini-2.5-pro",
    }
