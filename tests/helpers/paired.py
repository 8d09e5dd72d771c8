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

from host.core import HostCore
from host.handlers import dispatcher
from host.protocol import PROTOCOL_VERSION
from host.protocol import methods as rpc
from host.protocol import models as m
from host.protocol.endpoint import ClientEndpoint, encode_notification
from host.protocol.serving import ServerConnection
from nib_desktop.intents import Intents
from nib_desktop.loading import Loader
from nib_desktop.router import HistoryFeed, LineFeed, Router
from nib_desktop.runner import Runner
from nib_desktop.state.store import AppState

P = TypeVar("P", bound=m.Wire)
R = TypeVar("R", bound=m.Wire)
TOKEN = "in-memory"


class MemoryLink:
    """A host link whose bytes go through memory: each side's writes are fed to the other
    on the next turn of the loop, as a socket would deliver them."""

    def __init__(self, core: HostCore, on_notification: Callable[[str, m.Wire], None]) -> None:
        loop = asyncio.get_running_loop()
        self.client = ClientEndpoint(
            lambda data: loop.call_soon(self.server.feed, data), on_notification
        )
        self.server = ServerConnection(
            TOKEN, dispatcher(core), lambda data: loop.call_soon(self.client.feed, data),
            lambda: None,
        )  # fmt: skip
        core.publisher.subscribe(
            lambda name, params: self.server.notify_frame(encode_notification(name, params))
        )
        self.calls: list[str] = []

    async def hello(self) -> None:
        params = m.HelloParams(token=TOKEN, protocol_version=PROTOCOL_VERSION, client="test")
        await self.client.request(rpc.HELLO, params, 5.0)

    async def call(self, method: rpc.Method[P, R], params: P, timeout: float | None = None) -> R:
        self.calls.append(method.name)
        return await self.client.request(method, params, timeout or 10.0)

    async def start(self) -> bool:
        return True


class Paired:
    def __init__(self, core: HostCore) -> None:
        self.state = AppState()
        feed, told = LineFeed(), HistoryFeed()
        self.router = Router(self.state, feed, told)
        self.link = MemoryLink(core, self.router.route)
        self.run = Runner(self.state)
        self.loader = Loader(self.link, self.state, feed, told, self.run)
        self.intents = Intents(self.link, self.state, self.loader, self.run)


@contextlib.asynccontextmanager
async def paired(folder: Path) -> AsyncIterator[Paired]:
    core = HostCore(folder)
    main = Paired(core)
    try:
        await main.link.hello()
        await main.loader.reload()
        yield main
    finally:
        main.run.cancel_all()
        await core.runtime.shutdown()
        core.close()
