"""JSON-RPC 2.0 messages, independent of any transport and of pydantic.

`parse_message` classifies one frame body; `ClientEndpoint` keeps the ids and futures of
outstanding requests and routes notifications, each decoded by the codec it is given (the
wire models in the host, their plain twins in the window). The transport adapters
(QLocalSocket in the window, asyncio streams for RACP) only move bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol, TypeVar

from host.protocol import errors
from host.protocol.framing import FrameDecoder, encode_message
from host.protocol.method_types import CANCEL_REQUEST, Method, Notification
from host.protocol.text import valid_text

JsonId = int | str | None

log = logging.getLogger(__name__)


class Wired(Protocol):
    """What a request's params are: a model or its plain twin, either encodes itself."""

    def to_wire(self) -> dict[str, Any]: ...


P = TypeVar("P", bound=Wired)
R = TypeVar("R")


class Malformed(ValueError):
    """A value that is not the contract's type; `details` as validation errors are listed
    (loc, type, msg), at most a few."""

    def __init__(self, details: list[dict[str, Any]]) -> None:
        super().__init__(str(details[:3]))
        self.details = details


# a codec's decoding: the type from JSON data, or Malformed
Decode = Callable[[type[Any], Any], Any]


class Request(NamedTuple):
    id: JsonId
    method: str
    params: Any
    is_notification: bool


class Response(NamedTuple):
    id: JsonId
    result: Any
    error: dict[str, Any] | None


class BadMessage(Exception):
    """A frame that is not a usable JSON-RPC message; `error` says what to answer."""

    def __init__(self, error: errors.RpcError, message_id: JsonId = None) -> None:
        super().__init__(error.message)
        self.error = error
        self.id = message_id


def _valid_id(value: Any) -> bool:
    return value is None or (isinstance(value, int | str) and not isinstance(value, bool))


MAX_NESTING = 64  # levels of arrays and objects in one message


def _clean(data: Any) -> tuple[Any, bool]:
    """`data` with every string made valid Unicode, and whether it was nested within
    MAX_NESTING levels; iterative, so no depth can overflow the stack."""
    root: list[Any] = [data]
    stack: list[tuple[Any, Any, int]] = [(root, 0, 0)]
    while stack:
        parent, key, depth = stack.pop()
        value = parent[key]
        if isinstance(value, str):
            parent[key] = valid_text(value)
        elif isinstance(value, dict | list):
            if depth >= MAX_NESTING:
                return data, False
            if isinstance(value, dict):
                if any(isinstance(k, str) and valid_text(k) != k for k in value):
                    value = parent[key] = {valid_text(k): v for k, v in value.items()}
                stack.extend((value, k, depth + 1) for k in value)
            else:
                stack.extend((value, i, depth + 1) for i in range(len(value)))
    return root[0], True


def _shallow(data: Any) -> bool:
    """Whether `data` is nested within MAX_NESTING levels: a walk over its containers only."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if not isinstance(value, dict | list):
            continue
        if depth >= MAX_NESTING:
            return False
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True


def _may_hold_surrogates(body: bytes) -> bool:
    """A lone surrogate can only come from a JSON escape (strict UTF-8 refuses an encoded
    one): without `\\ud`/`\\uD` in the body every string is valid Unicode already."""
    return b"\\ud" in body or b"\\uD" in body


def valid_data(body: bytes, data: Any) -> tuple[Any, bool]:
    """JSON `data` parsed from `body`, every string made valid Unicode (a lone surrogate
    becomes U+FFFD), and whether it is nested within MAX_NESTING levels: what any peer
    says (a host, a remote host, an ACP agent) goes through this before it is used."""
    if _may_hold_surrogates(body):
        return _clean(data)
    return data, _shallow(data)  # the common case: a walk over containers only


def parse_message(body: bytes) -> Request | Response:
    """A message from a body, strictly: UTF-8 only, nested at most MAX_NESTING deep, an id
    that is a string (valid Unicode), an integer or null; other strings made valid Unicode
    (a lone surrogate becomes U+FFFD) so nothing read can fail to be written again."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadMessage(errors.ParseError(f"body is not UTF-8: {exc.reason}")) from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise BadMessage(errors.ParseError("body is nested too deeply")) from None
    except ValueError as exc:
        raise BadMessage(errors.ParseError(f"body is not JSON: {exc}")) from None
    raw_id = data.get("id") if isinstance(data, dict) else None
    if isinstance(raw_id, str) and valid_text(raw_id) != raw_id:
        raise BadMessage(errors.InvalidRequest("id is not valid Unicode"))
    data, shallow = valid_data(body, data)
    if not shallow:
        raise BadMessage(
            errors.ParseError(f"body is nested deeper than {MAX_NESTING} levels"),
            data.get("id") if isinstance(data, dict) and _valid_id(data.get("id")) else None,
        )
    if isinstance(data, list):
        raise BadMessage(errors.InvalidRequest("batches are not supported"))
    if not isinstance(data, dict):
        raise BadMessage(errors.InvalidRequest("a message must be a JSON object"))
    message_id = data.get("id")
    if not _valid_id(message_id):
        raise BadMessage(errors.InvalidRequest("id must be a string, an integer or null"))
    if data.get("jsonrpc") != "2.0":
        raise BadMessage(errors.InvalidRequest('"jsonrpc" must be "2.0"'), message_id)
    if "method" in data:
        method = data["method"]
        if not isinstance(method, str):
            raise BadMessage(errors.InvalidRequest("method must be a string"), message_id)
        params = data.get("params", {})
        if not isinstance(params, dict):
            raise BadMessage(errors.InvalidRequest("params must be an object"), message_id)
        return Request(message_id, method, params, is_notification="id" not in data)
    if "result" in data or "error" in data:
        error = data.get("error")
        if error is not None and not isinstance(error, dict):
            raise BadMessage(errors.InvalidRequest("error must be an object"), message_id)
        return Response(message_id, data.get("result"), error)
    raise BadMessage(errors.InvalidRequest("neither a request nor a response"), message_id)


def response_message(message_id: JsonId, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message_id, "result": result}


def error_message(message_id: JsonId, error: errors.RpcError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message_id, "error": error.to_wire()}


NotificationHandler = Callable[[str, Any], None]


class ConnectionLost(errors.RpcError):
    """The transport closed while a request was waiting for its answer."""


class ClientEndpoint:
    """The requesting side: sends typed requests, matches answers, routes notifications.

    `send` writes bytes to the transport. Notifications are decoded against the
    contract's table (`notifications`) and handed to `on_notification` with their typed
    params; answers are decoded as their method's result. `decode` makes a type from
    JSON data or raises Malformed.

    Answers and notifications take effect in the order the peer sent them: once an answer
    is handed to its caller, the frames after it wait until that caller has run on (the
    step of its task that received the answer). Without this a notification read in the
    same chunk as an answer was applied first, and the older answer then overwrote it (a
    `tools.list` answer of "starting" undid the "failed" that followed it).
    """

    def __init__(
        self,
        send: Callable[[bytes], None],
        on_notification: NotificationHandler,
        notifications: dict[str, Notification[Any]],
        decode: Decode,
        on_bad: Callable[[str], None] | None = None,
    ) -> None:
        """With `on_bad`, a frame that is not the contract's is reported there (and the
        caller disconnects) rather than logged and dropped."""
        self._send = send
        self._notifications = notifications
        self._decode = decode
        self._on_notification = on_notification
        self._on_bad = on_bad
        self._decoder = FrameDecoder()
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[Method[Any, Any], asyncio.Future[Any]]] = {}
        self._holder: asyncio.Future[Any] | None = None  # the answer whose caller runs next
        self._held: deque[bytes] = deque()  # the frames after it, in order

    async def request(self, method: Method[P, R], params: P, timeout: float | None = 30.0) -> R:
        request_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = (method, future)
        message = {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": method.name,
            "params": params.to_wire(),
        }
        try:
            self._send(encode_message(message))
            result: R = await asyncio.wait_for(future, timeout)
            return result
        except TimeoutError:  # no one waits for it now: a read is dropped at the host too
            cancel = {"jsonrpc": "2.0", "method": CANCEL_REQUEST, "params": {"id": request_id}}
            with contextlib.suppress(Exception):
                self._send(encode_message(cancel))
            raise
        finally:
            self._pending.pop(request_id, None)
            if self._holder is future:  # after this step of the caller: the frames after it
                asyncio.get_running_loop().call_soon(self._release, future)

    def feed(self, data: bytes) -> None:
        """Bytes from the transport. Raises FramingError if the stream is unusable."""
        for body in self._decoder.feed(data):
            self._handle(body)

    def frames(self, data: bytes) -> list[bytes]:
        """The whole frames in `data` (and what came before it), not yet handled: for a
        caller that spreads their handling over time (`handle` each, in order). Raises
        FramingError if the stream is unusable."""
        return self._decoder.feed(data)

    def handle(self, body: bytes) -> None:
        self._handle(body)

    def close(self, reason: str = "connection closed") -> None:
        """What the peer said before it went takes effect first, then every call still
        waiting fails."""
        self._holder = None
        while self._held:
            self._handle_now(self._held.popleft())
            self._holder = None
        for _method, future in list(self._pending.values()):
            if not future.done():
                future.set_exception(ConnectionLost(reason))
        self._pending.clear()

    def _release(self, future: asyncio.Future[Any]) -> None:
        if self._holder is not future:
            return
        self._holder = None
        while self._held and self._holder is None:
            self._handle_now(self._held.popleft())

    def _handle(self, body: bytes) -> None:
        if self._holder is not None:
            self._held.append(body)
        else:
            self._handle_now(body)

    def _handle_now(self, body: bytes) -> None:
        """One frame from the peer. A frame that cannot be used is dropped, and every drop
        is logged with its reason: a malformed notification never vanishes silently."""
        try:
            message = parse_message(body)
        except BadMessage as bad:
            self._bad(f"sent a frame that is not JSON-RPC ({bad.error.message})")
            return
        if isinstance(message, Request):
            note = self._notifications.get(message.method)
            if note is None or not message.is_notification:
                self._bad(
                    f"sent a request for {message.method[:100]!r}, which is not a"
                    " notification of the contract"
                )
                return
            try:
                params = self._decode(note.params, message.params)
            except Malformed as exc:
                self._bad(f"sent a malformed {note.name}: {exc.details[:3]}")
                return
            self._on_notification(note.name, params)
            return
        entry = self._pending.get(message.id) if isinstance(message.id, int) else None
        if entry is None:
            if message.id is None and message.error is not None:  # it refused our stream
                self._bad(f"refused the connection: {message.error.get('message')}")
                return
            log.warning("dropped an answer to no request of ours (id %r)", message.id)
            return
        method, future = entry
        if future.done():
            log.info("dropped the answer to %s: its caller stopped waiting", method.name)
            return
        self._holder = future  # its caller takes it before anything after it
        if message.error is not None:
            future.set_exception(errors.error_from_wire(message.error))
            return
        try:
            future.set_result(self._decode(method.result, message.result))
        except Malformed as exc:
            future.set_exception(
                errors.InternalError(f"malformed {method.name} result", exc.details)
            )

    def _bad(self, what: str) -> None:
        if self._on_bad is not None:
            self._on_bad(what)
        else:
            log.warning("dropped a frame from the host: it %s", what)
