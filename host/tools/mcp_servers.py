"""MCP servers, run through the official SDK (its stdio and streamable HTTP transports).

Every configured server is started when the host starts, in the background, so its tools
are known when the first turn begins (a turn waits up to PREPARE_S for servers still
starting). Each server's connection lives in one task of its own, which holds the SDK's
client open until the host stops or the server goes away:

- its stderr goes to the host log, line by line, and its last line is kept: when a stdio
  server exits, that line is the reason it is shown as failed;
- a failed server is started again on its next use: at once after one failure, after a
  back-off that doubles from 1 s to 60 s with each further failure in a row; before that,
  a call says when it will be tried;
- a call has a timeout (the server's `timeout`, default 60 s); cancelling the turn
  cancels the call (the SDK tells the server);
- a stdio server gets only the SDK's minimal environment (HOME, LOGNAME, PATH, SHELL,
  TERM, USER) plus the `env` its entry names: never the host's token or an API key.

Results reach the model as plain text: text blocks as they are, structured content as
JSON, images, audio and resources as one short placeholder line each.

The SDK is imported only when a server is configured: a host without MCP servers starts
as fast as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any, Literal, Protocol

from host.execution_path import ExecutionContext
from host.protocol import models as m
from host.protocol.appinfo import app_version
from host.protocol.text import shorten
from host.tools.mcp_config import HttpEntry, ServerEntry, StdioEntry
from host.tools.mcp_results import block_text, result_text, schema_problem
from host.tools.mcp_stdio import stdio_transport
from host.tools.registry import ToolResult

if TYPE_CHECKING:
    from mcp import Client
    from mcp.types import CreateMessageRequestParams, Tool


log = logging.getLogger(__name__)
MAX_LISTED = 1000  # tools of one server in tools.list

PREPARE_S = 10.0  # how long a turn waits for servers still starting
START_S = 30.0  # a server that has not listed its tools by then has failed
FIRST_BACKOFF_S = 1.0
MAX_BACKOFF_S = 60.0
STDERR_LINES = 100  # lines of a server's stderr logged a minute

State = Literal["starting", "ready", "failed", "disabled"]
# Runs a model call a server asked for (sampling) on the MCP path, for the turn whose
# call is in flight: the messages as (role, text) and the system prompt. (Its token limit
# is not passed on: the providers take none per request.)
Sampler = Callable[[ExecutionContext, list[tuple[str, str]], str | None], Awaitable[str]]


class Owner(Protocol):
    """What a server needs of the set it belongs to."""

    sample: Sampler

    def changed(self) -> None: ...


class McpServer:
    def __init__(self, config: ServerEntry, owner: Owner) -> None:
        self.config = config
        self.name = config.name
        self.key = config.key
        self._owner = owner
        self.state: State = "disabled" if config.entry and config.entry.disabled else "failed"
        self.error: str | None = config.problem
        self.tools: list[Tool] = []
        self._client: Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._settled = asyncio.Event()  # ready or failed (this attempt)
        self._stop = asyncio.Event()
        self._failures = 0
        self._retry_at = 0.0
        self._stderr_tail = ""
        self._broken: str | None = None  # why the transport stopped the server
        self.unusable: dict[str, str] = {}  # tools not offered: why (an invalid schema)
        self._logged: tuple[float, int, int] = (0.0, 0, 0)  # stderr: minute, lines, dropped
        self._calls: list[ExecutionContext] = []  # the contexts of the calls in flight

    @property
    def usable(self) -> bool:
        return self.config.entry is not None and not self.config.entry.disabled

    @property
    def approval(self) -> str:
        return self.config.entry.approval if self.config.entry is not None else "ask"

    def info(self) -> m.ServerInfo:
        """As listed: at most MAX_LISTED tools, names and descriptions shortened (a server
        cannot make tools.list or tools.changed outgrow a frame)."""
        tools = tuple(
            m.ToolInfo(
                name=shorten(tool.name, 200), description=shorten(tool.description or "", 300)
            )
            for tool in self.tools[:MAX_LISTED]
        )
        error = self.error
        if len(self.tools) > MAX_LISTED and error is None:
            error = f"{len(self.tools)} tools: the first {MAX_LISTED} are listed"
        return m.ServerInfo(
            name=shorten(self.name, 200), state=self.state, error=error, tools=tools
        )

    # --- lifetime ---------------------------------------------------------------------

    def retry(self) -> None:
        """`tools.retry`: start again now, its back-off forgotten (the user asked)."""
        self._failures, self._retry_at = 0, 0.0
        self.start()

    def start(self) -> None:
        """Start (again) unless running or waiting out its back-off."""
        if not self.usable or self._task is not None:
            return
        if self.state == "failed" and time.monotonic() < self._retry_at:
            return
        self._settled = asyncio.Event()
        self._stop = asyncio.Event()
        self._set("starting", None)
        self._task = asyncio.ensure_future(self._run())

    async def settle(self, timeout: float) -> None:
        if self._task is not None and not self._settled.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._settled.wait(), timeout)

    async def stop(self) -> None:
        task = self._task
        if task is None:
            return
        self._stop.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), 5.0)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    def _set(self, state: State, error: str | None) -> None:
        if (state, error) != (self.state, self.error):
            self.state, self.error = state, error
            self._owner.changed()

    def _failed(self, reason: str) -> None:
        self._failures += 1
        # the first failure: started again at once on next use; in a row: 1, 2, 4 … 60 s
        delay = 0.0 if self._failures == 1 else FIRST_BACKOFF_S * 2 ** (self._failures - 2)
        delay = min(delay, MAX_BACKOFF_S)
        self._retry_at = time.monotonic() + delay
        self.tools = []
        log.warning(
            "MCP server %s failed: %s (retried on next use after %.0f s)", self.name, reason, delay
        )
        self._set("failed", reason)

    async def _run(self) -> None:
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client
        from mcp.types import Implementation

        entry = self.config.entry
        assert entry is not None
        self._broken = None
        gone = asyncio.Event()  # the server process closed its stderr: it has exited
        reader_task: asyncio.Task[None] | None = None
        entered = False  # the process runs and answered the handshake
        try:
            async with AsyncExitStack() as stack:
                if isinstance(entry, StdioEntry):
                    read_fd, write_fd = os.pipe()
                    errlog = os.fdopen(write_fd, "w")
                    stack.callback(_close_quietly, errlog)
                    reader_task = asyncio.ensure_future(self._read_stderr(read_fd, gone))
                    transport: Any = stdio_transport(
                        entry.command,
                        list(entry.args),
                        dict(entry.env),
                        entry.cwd,
                        errlog,
                        on_broken=self._broke,
                    )
                else:
                    assert isinstance(entry, HttpEntry)
                    import httpx2

                    http = await stack.enter_async_context(
                        httpx2.AsyncClient(
                            headers=entry.headers,
                            timeout=httpx2.Timeout(30.0, read=max(300.0, entry.timeout)),
                            follow_redirects=True,
                        )
                    )
                    transport = streamable_http_client(entry.url, http_client=http)
                client = Client(
                    transport,
                    mode="legacy",  # the classic handshake: any server, and sampling's channel
                    sampling_callback=self._sample,
                    client_info=Implementation(name="nib-desktop", version=app_version()),
                )
                async with asyncio.timeout(START_S):
                    await stack.enter_async_context(client)
                    entered = True
                    if isinstance(entry, StdioEntry):
                        _close_quietly(errlog)  # the server holds its own end now
                    tools = await self._list_tools(client)
                self.tools, self._client = tools, client
                self.unusable = {
                    t.name: why for t in tools if (why := schema_problem(t.input_schema))
                }
                for name, why in self.unusable.items():
                    log.warning("MCP server %s: tool %s is not offered: %s", self.name, name, why)
                self._failures = 0
                log.info("MCP server %s is ready with %d tools", self.name, len(tools))
                self._set("ready", None)
                self._settled.set()
                stopping = asyncio.ensure_future(self._stop.wait())
                exited = asyncio.ensure_future(gone.wait())
                try:
                    await asyncio.wait({stopping, exited}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    stopping.cancel()
                    exited.cancel()
                if not self._stop.is_set():
                    raise _Exited  # out of the SDK's context, then failed with why
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # the SDK raises groups and its own errors
            if not self._stop.is_set():
                if reader_task is not None and not gone.is_set():  # did the process end?
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(gone.wait(), 1.0)
                self._failed(self._reason(exc, entered, gone.is_set()))
        finally:
            self._client = None
            self._task = None
            self._settled.set()
            if reader_task is not None:
                reader_task.cancel()

    async def _list_tools(self, client: Client) -> list[Tool]:
        tools: list[Tool] = []
        cursor: str | None = None
        for _page in range(100):
            listing = await client.list_tools(cursor=cursor)
            tools.extend(listing.tools)
            cursor = listing.next_cursor
            if not cursor:
                break
        return tools

    async def _read_stderr(self, fd: int, gone: asyncio.Event) -> None:
        """The server's stderr to the host log; its end means the server exited."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=1 << 20)
        pipe = os.fdopen(fd, "rb", buffering=0)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), pipe
        )
        try:
            while True:
                try:
                    line = await reader.readline()
                except ValueError:  # a line over the limit
                    line = b"(a very long line)\n"
                if not line:
                    gone.set()
                    return
                text = line.decode("utf-8", "replace").strip()
                if text:
                    self._stderr_tail = text[:500]
                    self._log_stderr(text)
        finally:
            transport.close()

    def _broke(self, why: str) -> None:
        self._broken = why

    def _reason(self, exc: BaseException, entered: bool, exited: bool) -> str:
        if self._broken is not None:  # the transport stopped it, and said why
            return self._broken
        if not entered:  # it never ran, or died before the handshake
            if isinstance(exc, TimeoutError):
                return f"it did not list its tools within {START_S:.0f} s"
            return f"it did not start: {self._stderr_tail or _describe(exc)}"
        if exited and _exited_first(exc):  # the process went away by itself
            return f"the server exited: {self._stderr_tail or 'no message on stderr'}"
        if exited:  # what the SDK refused ended the connection, and so the process
            return f"it sent what the MCP client cannot read: {_describe(exc)}"
        if self._stderr_tail:
            return self._stderr_tail
        if isinstance(exc, TimeoutError):
            return f"it did not list its tools within {START_S:.0f} s"
        return _describe(exc)

    # --- calls ------------------------------------------------------------------------

    def _log_stderr(self, text: str) -> None:
        """A server's stderr line to the host log, at most STDERR_LINES a minute (a chatty
        server cannot rotate the host's own log away)."""
        minute, lines, dropped = self._logged
        now = time.monotonic()
        if now - minute >= 60:
            if dropped:
                log.info(
                    "MCP server %s: %d more lines on stderr were not logged", self.name, dropped
                )
            minute, lines, dropped = now, 0, 0
        if lines < STDERR_LINES:
            log.info("MCP server %s: %s", self.name, text[:2000])
            lines += 1
        else:
            dropped += 1
        self._logged = (minute, lines, dropped)

    async def ready_for_call(self) -> bool:
        """Whether a call can be made now: a failed server is started again first (so no
        approval is asked for a tool of a server that is not there)."""
        if self.state == "failed" and self._task is None:
            self.start()
            await self.settle(PREPARE_S)
        return self._client is not None

    def unavailable(self) -> str:
        return self._unavailable()

    async def call(self, ctx: ExecutionContext, tool: str, arguments: dict[str, Any]) -> ToolResult:
        from mcp.shared.exceptions import MCPError

        if self.state == "failed" and self._task is None:
            self.start()
            await self.settle(PREPARE_S)
        client = self._client
        if client is None:
            return ToolResult(self._unavailable(), is_error=True)
        entry = self.config.entry
        timeout = entry.timeout if entry is not None else 60.0
        self._calls.append(ctx)
        try:
            result = await asyncio.wait_for(client.call_tool(tool, arguments), timeout)
        except TimeoutError:
            return ToolResult(
                f"{self.name} did not answer {tool} within {timeout:g} s; the call was cancelled",
                is_error=True,
            )
        except (asyncio.CancelledError, KeyboardInterrupt):
            raise
        except BaseException as exc:
            if await self._ended():
                return ToolResult(f"{self.name} stopped during {tool}: {self.error}", True)
            why = exc.error.message if isinstance(exc, MCPError) else _describe(exc)
            return ToolResult(f"{self.name} could not run {tool}: {why}", is_error=True)
        finally:
            self._calls.remove(ctx)
        return ToolResult(result_text(result), is_error=bool(result.is_error))

    async def _ended(self) -> bool:
        """Whether the server went away (its connection task ends within a second)."""
        task = self._task
        if task is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(task), 1.0)
        return self.state == "failed"

    def _unavailable(self) -> str:
        if self.state == "failed":
            wait = max(0.0, self._retry_at - time.monotonic())
            return (
                f"the MCP server {self.name} is not running ({self.error}); it is started"
                f" again on use in {wait:.0f} s"
            )
        if self.state == "disabled":
            return f"the MCP server {self.name} is disabled in settings.json"
        return f"the MCP server {self.name} is still starting"

    async def _sample(self, context: Any, params: CreateMessageRequestParams) -> Any:
        """A model call the server asked for: run on the MCP path for the turn whose call
        is in flight (TodoWrite refuses it); refused outside a call."""
        from mcp.types import CreateMessageResult, ErrorData, TextContent

        if not self._calls:
            return ErrorData(code=-32600, message="sampling is only answered during a tool call")
        ctx = self._calls[-1]
        messages: list[tuple[str, str]] = []
        for message in params.messages:
            parts = message.content if isinstance(message.content, list) else [message.content]
            text = "\n".join(block_text(part) for part in parts)
            messages.append((message.role, text))
        try:
            text = await self._owner.sample(ctx, messages, params.system_prompt)
        except Exception as exc:
            return ErrorData(code=-32603, message=f"the model call failed: {_describe(exc)}")
        return CreateMessageResult(
            role="assistant", content=TextContent(type="text", text=text), model="nib"
        )


class _Exited(Exception):
    """The server's process went away."""


def _exited_first(exc: BaseException) -> bool:
    """Whether the failure is the process's own end (not an error raised before it)."""
    if isinstance(exc, _Exited):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return all(_exited_first(inner) for inner in exc.exceptions)
    return isinstance(exc, (ConnectionError, EOFError, BrokenPipeError))


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in exc.exceptions[:3])
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _close_quietly(file: Any) -> None:
    with contextlib.suppress(OSError):
        file.close()
