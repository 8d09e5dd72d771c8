"""The serving side of a connection, beside the client's (`endpoint.py`), sharing its
message parsing, validation and answers: handshake, dispatch built from the method table,
and the contract's answers to bad input. Transport-agnostic: it is fed bytes and given a
`send` and a `close`; `host.server` connects it to asyncio streams, and `host.rpc` gives
the host's own hello and its storage failures' words."""

from __future__ import annotations

import asyncio
import hmac
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from host.protocol import PROTOCOL_VERSION, SCHEMA_VERSION, errors, models as m
from host.protocol.appinfo import app_version
from host.protocol.endpoint import (
    BadMessage,
    Request,
    encode_notification,
    error_message,
    parse_message,
    response_message,
    validate,
    validation_details,
)
from host.protocol.framing import MAX_FRAME_BYTES, FrameDecoder, FramingError, encode_message
from host.protocol.jsonrpc import JsonId
from host.protocol.methods import CANCEL_REQUEST, HELLO, METHODS, READS, Method
from host.protocol.peers import Handler

log = logging.getLogger(__name__)


def plain_hello() -> m.HelloResult:
    """A server's answer to `host.hello` with no capabilities."""
    return m.HelloResult(
        capabilities=(),
        protocol_version=PROTOCOL_VERSION,
        host_version=app_version(),
        schema_version=SCHEMA_VERSION,
    )


def plain_failure(method: Method[Any, Any], exc: Exception) -> errors.RpcError:
    """A handler's exception as the answer's error: its own if it is one, else internal."""
    if isinstance(exc, errors.RpcError):
        return exc
    log.exception("%s failed", method.name, exc_info=exc)
    return errors.InternalError(f"{method.name} failed: {type(exc).__name__}")


class Dispatcher:
    """Maps every method of the contract's table (but the handshake, which belongs to the
    connection) to a handler. Built once; a missing or unknown handler is a bug found at
    start-up, not at the first call."""

    def __init__(
        self,
        handlers: Mapping[Method[Any, Any], Handler],
        hello: Callable[[], m.HelloResult] = plain_hello,
        failure: Callable[[Method[Any, Any], Exception], errors.RpcError] = plain_failure,
        greeting: Callable[[], Iterable[tuple[str, m.Wire]]] = tuple,
    ) -> None:
        names = {method.name for method in handlers}
        expected = set(METHODS) - {HELLO.name}
        if names != expected:
            raise ValueError(
                f"handlers missing {sorted(expected - names)}, unknown {sorted(names - expected)}"
            )
        self._handlers = {method.name: (method, handler) for method, handler in handlers.items()}
        self.hello = hello  # the handshake's answer
        self.failure = failure  # a handler's exception as the answer's error
        # what a client is told right after its handshake: what still waits for it
        self.greeting = greeting

    def lookup(self, name: str) -> tuple[Method[Any, Any], Handler] | None:
        return self._handlers.get(name)


class ServerConnection:
    def __init__(
        self,
        token: str,
        dispatcher: Dispatcher,
        send: Callable[[bytes], None],
        close: Callable[[], None],
        pre_auth_frame: int = MAX_FRAME_BYTES,
    ) -> None:
        """Before `host.hello` succeeds a frame may be at most `pre_auth_frame` bytes."""
        self._token = token.encode()
        self._dispatcher = dispatcher
        self._send = send
        self._close = close
        self._decoder = FrameDecoder(max_frame=pre_auth_frame)
        self.authenticated = False
        self.closed = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._reads: dict[object, asyncio.Task[None]] = {}  # a read still running, by its id

    def feed(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            frames = self._decoder.feed(data)
        except FramingError as exc:
            error: errors.RpcError = (
                errors.InvalidRequest(str(exc)) if exc.too_large else errors.ParseError(str(exc))
            )
            self._reply(None, error)
            self.shut()
            return
        for body in frames:
            self._handle(body)
            if self.closed:
                return

    def notify_frame(self, frame: bytes) -> None:
        """An encoded notification, shared by every connection it goes to."""
        if self.authenticated and not self.closed:
            self._send(frame)

    def shut(self) -> None:
        # a partial frame's buffer goes now, not when the garbage collector next finds
        # this connection's reference cycles (which it may not do for a long while)
        self._decoder.release()
        if not self.closed:
            self.closed = True
            for task in self._tasks:
                task.cancel()
            self._close()

    # ---------------------------------------------------------------------------------

    def _handle(self, body: bytes) -> None:
        try:
            message = parse_message(body)
        except BadMessage as bad:
            self._reply(bad.id, bad.error)
            return
        if not isinstance(message, Request):
            return  # the host sends no requests, so a response answers nothing
        if not self.authenticated:
            self._handshake(message)
            return
        if message.is_notification:
            if message.method == CANCEL_REQUEST:
                self._cancel(message.params)
            return  # JSON-RPC: a client's notification asks for nothing more
        if message.method == HELLO.name:
            self._reply(message.id, errors.InvalidRequest("already authenticated"), message)
            return
        entry = self._dispatcher.lookup(message.method)
        if entry is None:
            self._reply(message.id, errors.MethodNotFound(f"no method {message.method!r}"), message)
            return
        method, handler = entry
        try:
            params = validate(method.params, message.params)
        except ValidationError as exc:
            self._reply(
                message.id,
                errors.InvalidParams(f"invalid params for {method.name}", validation_details(exc)),
                message,
            )
            return
        try:
            outcome = handler(params)
        except Exception as exc:
            self._reply(message.id, self._dispatcher.failure(method, exc), message)
            return
        if inspect.isawaitable(outcome):
            task = asyncio.ensure_future(self._finish(message, method, outcome))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            if method.name in READS and message.id is not None:
                request_id = message.id
                self._reads[request_id] = task
                task.add_done_callback(lambda _t: self._reads.pop(request_id, None))
        else:
            self._answer(message, outcome)

    def _cancel(self, params: object) -> None:
        """The client stopped waiting for a call: a read still running is dropped (a call
        that changes something goes on; its notifications tell how it ended)."""
        request_id = params.get("id") if isinstance(params, dict) else None
        task = self._reads.pop(request_id, None) if isinstance(request_id, int | str) else None
        if task is not None:
            log.info("a read the client stopped waiting for was cancelled")
            task.cancel()

    async def _finish(
        self, message: Request, method: Method[Any, Any], outcome: Awaitable[m.Wire]
    ) -> None:
        try:
            result = await outcome
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._reply(message.id, self._dispatcher.failure(method, exc), message)
            return
        self._answer(message, result)

    def _answer(self, message: Request, result: m.Wire) -> None:
        if not message.is_notification and not self.closed:
            self._write(response_message(message.id, result.to_wire()))

    def _handshake(self, message: Request) -> None:
        if message.is_notification:
            self._reply(None, errors.NotAuthenticated("host.hello must be a request with an id"))
            self.shut()
            return
        if message.method != HELLO.name:
            self._reply(message.id, errors.NotAuthenticated("the first request must be host.hello"))
            self.shut()
            return
        token = message.params.get("token")
        if self._token and (
            not isinstance(token, str) or not hmac.compare_digest(token.encode(), self._token)
        ):
            self._reply(message.id, errors.NotAuthenticated("wrong or missing token"))
            self.shut()
            return
        version = message.params.get("protocolVersion")
        if type(version) is not int or version != PROTOCOL_VERSION:  # not true, not 1.0
            self._reply(
                message.id,
                errors.ProtocolVersionError(
                    f"protocol version {version!r} is not supported; this host speaks "
                    f"{PROTOCOL_VERSION}",
                    {"supported": [PROTOCOL_VERSION]},
                ),
            )
            self.shut()
            return
        try:
            validate(HELLO.params, message.params)
        except ValidationError as exc:
            self._reply(
                message.id,
                errors.InvalidParams("invalid params for host.hello", validation_details(exc)),
            )
            self.shut()
            return
        self.authenticated = True
        self._decoder.max_frame = MAX_FRAME_BYTES
        result = self._dispatcher.hello()
        self._write(response_message(message.id, result.to_wire()))
        for name, params in self._dispatcher.greeting():
            self._send(encode_notification(name, params))

    def _reply(
        self, message_id: JsonId, error: errors.RpcError, request: Request | None = None
    ) -> None:
        if request is not None and request.is_notification:
            return
        self._write(error_message(message_id, error))

    def _write(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            frame = encode_message(message)
        except UnicodeEncodeError:  # text that is not valid Unicode (a lone surrogate)
            if "id" not in message:
                log.warning("dropped a notification holding text that is not valid Unicode")
                return
            log.exception("an answer held text that is not valid Unicode")
            error = errors.InternalError(
                "the answer holds text that is not valid Unicode, so it cannot be sent"
            )
            frame = encode_message(error_message(message["id"], error))
        if len(frame) - frame.index(b"\r\n\r\n") - 4 > MAX_FRAME_BYTES:
            # the same cap as the reader's: never send what the client must refuse
            size = len(frame) / (1024 * 1024)
            if "id" not in message:
                log.warning("dropped a %.1f MiB notification over the frame limit", size)
                return
            error = errors.InternalError(
                f"the answer is {size:.1f} MiB, over the {MAX_FRAME_BYTES // (1024 * 1024)}"
                " MiB frame limit; ask for less (e.g. a smaller messages.list page)"
            )
            frame = encode_message(error_message(message["id"], error))
        self._send(frame)
