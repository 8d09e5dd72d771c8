"""The agent's standard input and output as the SDK's message transport, bounded:
newline-delimited JSON-RPC (ACP's stdio framing) where one message may have at most
MAX_AGENT_LINE bytes (a tool call's diff of a large file is one line: what is kept of it
is cut later, and said), parsed off the event loop past PARSE_INLINE bytes, and a line
that is not a JSON object ends the connection rather than being skipped.
`session/update` notifications are handed, in the order they arrive, to the host before
anything after them (a prompt's answer included) reaches the SDK."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from host.acp.trace import Trace
from host.protocol.endpoint import MAX_NESTING, valid_data

SESSION_UPDATE = "session/update"
MAX_AGENT_LINE = 32 * 1024 * 1024  # one message of an agent's, in bytes
PARSE_INLINE = 512 * 1024  # a longer line is parsed on a worker thread: the loop goes on
# time spent on updates in a row (lines already buffered are read without waiting)
# before the loop runs its other tasks: a replay of thousands held it 29 ms at a time
# when counted in updates (16); the host's other clients wait at most about this long
YIELD_AFTER_S = 0.004
MAX_WAITING = 256  # messages for an agent that does not read them, before it is broken
# what the client offers that the SDK's models have no field for (they drop it), added to
# the `initialize` request on its way out: ACP v1's opt-in to the agent's compaction
# updates (`compaction_update`, `compaction_summary_chunk`)
UNTYPED_CAPABILITIES: dict[str, dict[str, Any]] = {"session": {"compaction": {}}}


def offering_untyped(message: dict[str, Any]) -> dict[str, Any]:
    """The `initialize` request with UNTYPED_CAPABILITIES among its client capabilities."""
    params = message.get("params")
    if not isinstance(params, dict):
        return message
    offered = dict(params.get("clientCapabilities") or {})
    for key, value in UNTYPED_CAPABILITIES.items():
        offered[key] = {**(offered.get(key) or {}), **value}
    return {**message, "params": {**params, "clientCapabilities": offered}}


class AgentBroken(Exception):
    """The agent sent what this host will not read; the message says what, in words."""


class LineTransport:
    """The SDK's `Transport` over an agent process's pipes."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        on_update: Callable[[Any], None],
        on_broken: Callable[[str], None],
        trace: Trace | None = None,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._on_update = on_update
        self._on_broken = on_broken
        self._lock = asyncio.Lock()
        self._waiting = 0  # messages for the agent not yet taken by its input
        self._trace = trace

    async def send(self, message: dict[str, Any]) -> None:
        """One message to the agent, once its input takes it. An agent that stops reading
        while it asks for more (its answers waiting past MAX_WAITING) is broken: what the
        host holds for it stays bounded."""
        if message.get("method") == "initialize":
            message = offering_untyped(message)
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        if self._waiting >= MAX_WAITING:
            self._broken(
                f"it stopped reading what the host sends ({self._waiting} messages waiting for it)"
            )
        self._waiting += 1
        if self._trace is not None:
            self._trace.write(">", line)
        try:
            async with self._lock:
                self._writer.write(line)
                await self._writer.drain()
        finally:
            self._waiting -= 1

    async def receive(self) -> dict[str, Any] | None:
        since = time.monotonic()
        while True:
            try:
                line = await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:
                if not exc.partial.strip():
                    return None  # the agent closed its output
                line = exc.partial
            except asyncio.LimitOverrunError:
                self._broken(f"it sent a message over {MAX_AGENT_LINE // (1024 * 1024)} MiB")
            except (ConnectionError, ValueError) as exc:
                self._broken(f"its output could not be read: {exc}")
            if not line.strip():
                continue
            if self._trace is not None:
                self._trace.write("<", line)
            if len(line) > PARSE_INLINE:
                message = await asyncio.to_thread(self._parse, line)
            else:
                message = self._parse(line)
            if message.get("method") == SESSION_UPDATE and "id" not in message:
                try:
                    self._on_update(message.get("params"))
                except AgentBroken as exc:
                    self._broken(str(exc))
                if time.monotonic() - since > YIELD_AFTER_S:
                    await asyncio.sleep(0)  # the host's other clients get their turn
                    since = time.monotonic()
                continue
            return message

    def _parse(self, line: bytes) -> dict[str, Any]:
        """A line as a message, its strings valid Unicode (a lone surrogate in a title or
        an error stored raw made every later read of the transcript fail)."""
        try:
            message: Any = json.loads(line)
        except (ValueError, RecursionError):
            sample = line[:80].decode("utf-8", "replace").strip()
            self._broken(f"it sent a line that is not JSON: {sample!r}")
        message, shallow = valid_data(line, message)
        if not shallow:
            self._broken(f"it sent a message nested deeper than {MAX_NESTING} levels")
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self._broken("it sent JSON that is not a JSON-RPC 2.0 message")
        return dict(message)

    def _broken(self, why: str) -> Any:
        self._on_broken(why)
        raise AgentBroken(why)

    async def close(self) -> None:
        if not self._writer.is_closing():
            self._writer.close()
        if self._trace is not None:
            self._trace.close()
