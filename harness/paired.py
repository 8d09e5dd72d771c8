"""The Main role's router, loader and intents against the real host core, paired in one
process: the client endpoint of the contract joined to the host's dispatcher through
memory (as the MCP SDK's in-memory sessions do). No subprocess, no socket, no window; the
real-process tests stay for what needs them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TypeVar

from harness.waiting import watch
from host.core import HostCore
from host.handlers import dispatcher
from host.protocol import PROTOCOL_VERSION, plain_methods as rpc, plain_models as m
from host.protocol.endpoint import encode_notification
from host.protocol.jsonrpc import ClientEndpoint
from host.protocol.serving import ServerConnection
from nib_desktop.link.rpc_client import decoded
from nib_desktop.main_role import Hooks, MainRole
from nib_desktop.state.store import AppState

P = TypeVar("P", bound=m.Plain)
R = TypeVar("R", bound=m.Plain)
TOKEN = "in-memory"


class MemoryLink:
    """A host link whose bytes go through memory: each side's writes are fed to the other
    on the next turn of the loop, as a socket would deliver them."""

    def __init__(self, core: HostCore, hooks: Hooks) -> None:
        def later(feed: Callable[[bytes], None]) -> Callable[[bytes], None]:
            return lambda data: asyncio.get_running_loop().call_soon(feed, data)

        self._core = core
        self._hooks = hooks
        self.client = ClientEndpoint(
            later(lambda data: self.server.feed(data)), hooks.notified, rpc.NOTIFICATIONS, decoded
        )
        self.server = ServerConnection(
            TOKEN, dispatcher(core), later(self.client.feed), lambda: None
        )
        core.publisher.subscribe(
            lambda name, params: self.server.notify_frame(encode_notification(name, params))
        )
        self.calls: list[str] = []
        self._begun = False

    async def call(self, method: rpc.Method[P, R], params: P, timeout: float | None = None) -> R:
        self.calls.append(method.name)
        return await self.client.request(method, params, timeout or 10.0)

    async def start(self) -> bool:
        if not self._begun:
            self._begun = True
            self._core.begin()
        params = m.HelloParams(token=TOKEN, protocol_version=PROTOCOL_VERSION, client="test")
        await self.client.request(rpc.HELLO, params, 5.0)
        await self._hooks.connected()
        self._hooks.state("ready", "")
        return True

    async def shutdown(self) -> None:
        await self._core.end()


@contextlib.asynccontextmanager
async def paired(folder: Path) -> AsyncIterator[MainRole]:
    """The Main role opened on a host core in this process (as the app opens it on the
    host process), its link through memory."""
    core = HostCore(folder)
    try:
        state = AppState()
        watch(state)  # its changes wake the waits on conditions
        async with MainRole(state, lambda hooks: MemoryLink(core, hooks), None) as main:
            yield main
    finally:
        core.close()
