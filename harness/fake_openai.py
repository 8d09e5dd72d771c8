"""A real OpenAI-compatible HTTP server on 127.0.0.1 with scripted replies.

Each request to /v1/chat/completions takes the next scripted reply and is recorded. A
reply is a `Reply` (text and tool calls, sent as SSE when the request streams and as one
JSON body otherwise), an `HttpError`, or a `Hang` that holds the response open until the
client goes away or the test releases it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Call:
    name: str
    arguments: str | dict[str, Any]
    id: str = ""

    def args_text(self) -> str:
        return self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)


@dataclass(frozen=True)
class Reply:
    text: str = ""
    calls: tuple[Call, ...] = ()
    prompt_tokens: int | None = None  # reported as the answer's usage when given
    # the text streamed in this many pieces, `pace_s` apart (the Messages and Responses
    # endpoints of fake_models)
    pieces: int = 1
    pace_s: float = 0.0

    def text_pieces(self) -> list[str]:
        size = max(1, -(-len(self.text) // max(1, self.pieces)))
        return [self.text[i : i + size] for i in range(0, len(self.text), size)]


@dataclass(frozen=True)
class HttpError:
    status: int
    message: str = "scripted failure"
    code: str | None = None


@dataclass
class Hang:
    release: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)


Scripted = Reply | HttpError | Hang


class FakeOpenAI:
    def __init__(self) -> None:
        self.script: list[Scripted] = []
        self.requests: list[dict[str, Any]] = []
        self.sent_at: list[float] = []  # when each streamed answer was fully written
        # a model's context window, in characters of the request's messages: a request
        # over it is answered HTTP 400 context_length_exceeded, as OpenAI does
        self.window_chars: int | None = None
        self.force_context_errors = 0  # answer the next N requests as too long
        self.refused: list[int] = []  # sizes of the requests refused as too long
        self.compactions: list[dict[str, Any]] = []  # summarising requests, answered apart
        self.compaction_hold: Hang | None = None
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self.disconnected = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                with server._lock:
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    step = server._next(body)
                server._answer(self, body, step)

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def _next(self, body: dict[str, Any]) -> Scripted:
        size = len(json.dumps(body.get("messages", [])))
        too_long = self.window_chars is not None and size > self.window_chars
        if too_long or self.force_context_errors > 0:
            self.force_context_errors = max(0, self.force_context_errors - 1)
            self.refused.append(size)
            return HttpError(
                400,
                "This model's maximum context length is exceeded.",
                code="context_length_exceeded",
            )
        first = (body.get("messages") or [{}])[0]
        if first.get("role") == "system" and str(first.get("content", "")).startswith(
            "You are compacting"
        ):
            self.compactions.append(body)
            if self.compaction_hold is not None:  # a summary that takes its time
                return self.compaction_hold
            return Reply(
                f"Summary {len(self.compactions)}: the user wants the long task done;"
                " where it stands is in the checklist."
            )
        self.requests.append(body)
        return self.script.pop(0) if self.script else Reply("(script ended)")

    @property
    def base_url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        for step in self.script:
            if isinstance(step, Hang):
                step.release.set()
        self._http.shutdown()
        self._http.server_close()

    def _answer(
        self, handler: BaseHTTPRequestHandler, body: dict[str, Any], step: Scripted
    ) -> None:
        if isinstance(step, HttpError):
            error = {"message": step.message, "type": "server_error", "code": step.code}
            payload = json.dumps({"error": error})
            self._send(handler, step.status, "application/json", payload.encode())
            return
        if isinstance(step, Hang):
            step.started.set()
            handler.close_connection = True
            try:  # a closed client shows as a failed write, whenever it goes
                handler.send_response(200)
                handler.send_header("Content-Type", "text/event-stream")
                handler.send_header("Connection", "close")
                handler.end_headers()
                handler.wfile.write(self._chunk({"role": "assistant", "content": "thinking"}))
                handler.wfile.flush()
                while not step.release.is_set():
                    handler.wfile.write(b": keep-alive\n\n")
                    handler.wfile.flush()
                    step.release.wait(0.05)
            except OSError:
                self.disconnected.set()
            return
        if body.get("stream"):
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream")
            handler.send_header("Cache-Control", "no-cache")
            handler.send_header("Connection", "close")
            handler.end_headers()
            for event in self._stream_events(step):
                handler.wfile.write(event)
            if step.prompt_tokens is not None:  # as servers do: usage on a last, empty chunk
                usage = {
                    "prompt_tokens": step.prompt_tokens,
                    "completion_tokens": 1,
                    "total_tokens": step.prompt_tokens + 1,
                }
                payload = {
                    "id": "chatcmpl-test",
                    "object": "chat.completion.chunk",
                    "created": 0,
                    "model": "test",
                    "choices": [],
                    "usage": usage,
                }
                handler.wfile.write(b"data: " + json.dumps(payload).encode() + b"\n\n")
            handler.wfile.write(b"data: [DONE]\n\n")
            handler.wfile.flush()
            self.sent_at.append(time.time())
            handler.close_connection = True
            return
        message: dict[str, Any] = {"role": "assistant", "content": step.text or None}
        if step.calls:
            message["tool_calls"] = [
                {
                    "id": call.id or f"call_{i}",
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.args_text()},
                }
                for i, call in enumerate(step.calls)
            ]
        payload = {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "test"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if step.calls else "stop",
                }
            ],
        }
        if step.prompt_tokens is not None:
            payload["usage"] = {
                "prompt_tokens": step.prompt_tokens,
                "completion_tokens": 1,
                "total_tokens": step.prompt_tokens + 1,
            }
        self._send(handler, 200, "application/json", json.dumps(payload).encode())

    def _stream_events(self, step: Reply) -> Iterator[bytes]:
        yield self._chunk({"role": "assistant", "content": ""})
        text = step.text
        for start in range(0, len(text), 5):
            yield self._chunk({"content": text[start : start + 5]})
        for index, call in enumerate(step.calls):
            args = call.args_text()
            head = {
                "index": index,
                "id": call.id or f"call_{index}",
                "type": "function",
                "function": {"name": call.name, "arguments": ""},
            }
            yield self._chunk({"tool_calls": [head]})
            for start in range(0, len(args), 7):
                part = {"index": index, "function": {"arguments": args[start : start + 7]}}
                yield self._chunk({"tool_calls": [part]})
        yield self._chunk({}, "tool_calls" if step.calls else "stop")

    @staticmethod
    def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        payload = {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "test",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return b"data: " + json.dumps(payload).encode() + b"\n\n"

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, kind: str, payload: bytes) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
