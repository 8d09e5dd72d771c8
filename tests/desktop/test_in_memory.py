"""The Main role's router, loader and intents against the real host core, paired in one
process: the client endpoint of the contract joined to the host's dispatcher through
memory (as the MCP SDK's in-memory sessions do). No subprocess, no socket, no window;
the real-process tests stay for what needs them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from host.core import HostCore
from host.protocol import PROTOCOL_VERSION
from host.protocol import methods as rpc
from host.protocol import models as m
from host.protocol.endpoint import ClientEndpoint, encode_notification
from host.rpc import ServerConnection
from nib_desktop.intents import Intents
from nib_desktop.loading import Loader
from nib_desktop.router import LineFeed, Router
from nib_desktop.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state import intents as it
from nib_desktop.state.store import AppState
from tests.helpers.waiting import until

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
            TOKEN, core.dispatcher(), lambda data: loop.call_soon(self.client.feed, data),
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
        feed = LineFeed()
        self.router = Router(self.state, feed)
        self.link = MemoryLink(core, self.router.route)
        self.run = Runner(self.state)
        self.loader = Loader(self.link, self.state, feed, self.run)
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


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_a_demo_turn_fills_the_state_through_router_and_loader(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        async with paired(tmp_path) as main:
            session = await main.intents.create_session("agent")
            await until(lambda: main.state.transcript.loaded, what="the session shown")
            await main.intents.start_turn("1. Add the column\n2. Write the tests")
            await until(lambda: main.state.turn(session.id).state == "completed")
            snapshot = main.state.snapshot(session.id)
            assert snapshot is not None and all(i.status == "completed" for i in snapshot.items)
            todo = [x.text for x in main.state.transcript.lines if x.kind == "todo"]
            # the list, then one live line per step (its "◐" turned "✓" in place)
            assert todo == ["Checklist: 2 steps"] + [f"✓ {i.content}" for i in snapshot.items]
            assert main.state.shown is not None and not main.state.shown.running

    run(body())


def test_a_failed_intent_is_the_notice_in_words(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        async with paired(tmp_path) as main:
            main.intents.ask(it.DeleteSession("no-such-session"))
            await until(lambda: main.state.notice != "", what="the notice")
            assert main.state.notice.startswith("Could not delete the session: ")
            assert "no-such-session" in main.state.notice
            main.intents.ask(it.Dismiss())
            assert main.state.notice == ""

    run(body())


def test_an_open_history_follows_each_write(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        async with paired(tmp_path) as main:
            session = await main.intents.create_session("agent")
            await until(lambda: main.state.transcript.loaded, what="the session shown")
            main.intents.ask(it.OpenHistory())
            await main.intents.start_turn("1. One\n2. Two")
            await until(lambda: main.state.turn(session.id).state == "completed")
            final = main.state.snapshot(session.id)
            assert final is not None
            newest = final.revision
            await until(lambda: (h := main.state.history.revisions) and h[0].revision == newest,
                        what="the newest revision")  # fmt: skip
            revisions = [r.revision for r in main.state.history.revisions]
            assert revisions == list(range(final.revision, 0, -1))
            # the loads were coalesced: fewer than one per write
            assert main.link.calls.count("todos.history") <= final.revision

    run(body())


def test_deleting_the_shown_session_loads_the_next(tmp_path, monkeypatch) -> None:
    async def body() -> None:
        async with paired(tmp_path) as main:
            first = await main.intents.create_session("agent")
            second = await main.intents.create_session("plan")
            await until(lambda: main.state.transcript.session_id == second.id)
            main.state.apply(ev.DraftSaved(second.id, "unsent"))
            await main.intents.delete_session(second.id)
            await until(lambda: main.state.current == first.id, what="the other session shown")
            await until(lambda: main.state.transcript.loaded)
            assert second.id not in main.state.drafts
            assert [s.session_id for s in main.state.sessions] == [first.id]

    run(body())


def test_the_router_has_one_method_for_every_notification() -> None:
    state = AppState()
    router = Router(state, LineFeed())
    assert sorted(router._routes) == sorted(rpc.NOTIFICATIONS)

    class Missing(Router):
        tools_changed = None  # type: ignore[assignment]

    with pytest.raises(ValueError, match=r"tools\.changed"):
        Missing(state, LineFeed())
