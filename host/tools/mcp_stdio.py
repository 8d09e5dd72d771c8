"""An MCP server over stdio, read as a bounded, linear stream of lines.

The SDK's own stdio transport joins a line's chunks by copying all it holds at every
chunk and splitting it again, so a result's cost grows with its square (8 MB took 2.6 s of
the host's event loop, 40 MB over a minute), and a line has no limit. This one reads each
line once (`StreamReader.readuntil`), at most MAX_LINE bytes: a server that sends more in
one message is told in words and stopped. Messages are the SDK's own (`SessionMessage`,
parsed by its adapter), so the SDK's `Client` runs on it as on its own transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, Any

log = logging.getLogger(__name__)

MAX_LINE = 16 * 1024 * 1024  # one message from a server, at most
STOP_GRACE_S = 2.0  # after stdin closes, before the server's process group is ended


@asynccontextmanager
async def stdio_transport(
    command: str,
    args: list[str],
    env: dict[str, str],
    cwd: str | Path | None,
    errlog: IO[str],
    on_broken: Callable[[str], None],
) -> AsyncIterator[tuple[Any, Any]]:
    """The server's process, and the (read, write) streams of SDK messages to it.
    `on_broken` hears why the transport stopped the server (a message too large)."""
    import anyio
    from mcp import types
    from mcp.client.stdio import get_default_environment
    from mcp.shared.message import SessionMessage

    process = await asyncio.create_subprocess_exec(
        command,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=errlog,
        env=get_default_environment() | env,
        cwd=cwd,
        start_new_session=True,  # its own process group: it and its children end together
        limit=MAX_LINE,
    )
    assert process.stdin is not None and process.stdout is not None
    stdout, stdin = process.stdout, process.stdin
    to_session, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    async def read() -> None:
        async with to_session:
            while True:
                try:
                    line = await stdout.readuntil(b"\n")
                except asyncio.IncompleteReadError:
                    return  # the server closed its stdout: it is ending
                except asyncio.LimitOverrunError:
                    why = f"it sent a message over {MAX_LINE // (1024 * 1024)} MiB"
                    log.warning("MCP server %s %s; it is stopped", command, why)
                    on_broken(why)
                    _end_group(process)
                    return
                if not line.strip():
                    continue
                try:
                    message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                except ValueError as exc:
                    await to_session.send(exc)  # the SDK logs what it cannot read
                    continue
                await to_session.send(SessionMessage(message))

    async def write() -> None:
        async with from_session:
            async for item in from_session:
                body = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                stdin.write(body.encode() + b"\n")
                await stdin.drain()

    tasks = [asyncio.ensure_future(read()), asyncio.ensure_future(write())]
    try:
        yield read_stream, write_stream
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for stream in (read_stream, write_stream, to_session, from_session):
            stream.close()
        await _stop(process)


async def _stop(process: asyncio.subprocess.Process) -> None:
    """Close its stdin, give it STOP_GRACE_S to end, then end its process group."""
    if process.stdin is not None:
        with contextlib.suppress(Exception):
            process.stdin.close()
    try:
        await asyncio.wait_for(process.wait(), STOP_GRACE_S)
    except TimeoutError:
        _end_group(process)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), STOP_GRACE_S)
    _end_group(process, signal.SIGKILL)  # what it started and left behind


def _end_group(process: asyncio.subprocess.Process, sig: int = signal.SIGTERM) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)
