"""The Main role assembled: the host link, the state, the router that turns notifications
into events, the loader that follows the state, and the intents the views ask for; opened
and closed as one async context (`async with main:` starts the link and shuts it down
again, whatever happens between), by the app, the scripted runs and the tests alike.

    host -> link -> router -> state.apply -> views (read the state)
    view slot -> intent -> host call -> answer or failure -> state.apply -> views

The link is the real host (`host_link`: the supervised process over its socket) or any
other `Link` (the tests pair the host core in memory). Made after the window's first
frame, so the protocol's models are not imported before the window is on screen.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, cast

from nib_desktop.inbound.loading import Loader
from nib_desktop.inbound.router import HistoryFeed, LineFeed, Router
from nib_desktop.link.connection import MAX_RECONNECTS, HostConnection, HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.link.supervisor import HostSupervisor
from nib_desktop.shell.drafts import DraftKeeper
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.state.tuples import NamedTuple

if TYPE_CHECKING:
    from nib_desktop.state.intents import Intent
    from nib_desktop.work.dispatch import Intents


class Link(HostLink, Protocol):
    """A host link the Main role can open and close."""

    async def shutdown(self) -> None: ...


class Hooks(NamedTuple):
    """What a link tells the Main role."""

    notified: Callable[[str, Any], None]  # a notification, by name, with its params
    state: Callable[[str, str], None]  # the link's state and its error in words
    connected: Callable[[], Awaitable[None]]  # after every (re)connect, before "ready"


MakeLink = Callable[[Hooks], Link]


def host_link(supervisor: HostSupervisor, max_reconnects: int = MAX_RECONNECTS) -> MakeLink:
    """The real host: the supervised process, over its socket."""

    def make(hooks: Hooks) -> HostConnection:
        connection = HostConnection(supervisor, hooks.connected, max_reconnects=max_reconnects)
        connection.notification.connect(hooks.notified)
        connection.stateChanged.connect(hooks.state)
        return connection

    return make


class MainRole:
    def __init__(self, state: AppState, make_link: MakeLink, data_dir: Path | None) -> None:
        self.state = state
        feed, told = LineFeed(), HistoryFeed()
        self.router = Router(state, feed, told)
        hooks = Hooks(
            self._route,
            lambda s, error: state.apply(ev.ConnectionChanged(s, error)),  # type: ignore[arg-type]
            self._reload,
        )
        self.link = make_link(hooks)
        self.run = Runner(state)
        self.loader = Loader(self.link, state, feed, told, self.run)
        self.router.on_stale = self._reload_all
        self._data_dir = data_dir
        # each session's unsent text, written to the data folder as it is typed
        self.drafts = DraftKeeper(state, data_dir) if data_dir is not None else None
        self.ready = False  # the link started (False: its failure is the state's, in words)

    @cached_property
    def intents(self) -> Intents:
        """The user's intents and the areas that carry them out, made on first use: the
        first intent, the first notification routed (some areas follow the state, and
        hear every change from then on), or once the window has shown what the start
        loaded (`settle`). Not before: their modules are about 6 ms of the way to
        "connected", and nothing on it needs them."""
        from nib_desktop.work.dispatch import Intents

        return Intents(self.link, self.state, self.loader, self.run, self._data_dir)

    def ask(self, intent: Intent | ev.Event) -> None:
        """The views' intents carried out; an event a view names (a draft kept as the
        shown session changes, a session shown) applied as it is, the intents not made
        for it."""
        if type(intent) in ev.EVENTS:
            self.state.apply(intent)  # type: ignore[arg-type]
            return
        self.intents.ask(cast("Intent", intent))

    def settle(self) -> None:
        """Once start-up's answers are on screen: the intents made, before the user's
        first one waits for them."""
        _ = self.intents

    @classmethod
    def on_host(
        cls, supervisor: HostSupervisor, state: AppState, max_reconnects: int = MAX_RECONNECTS
    ) -> MainRole:
        return cls(state, host_link(supervisor, max_reconnects), supervisor.data_dir)

    async def __aenter__(self) -> MainRole:
        try:
            self.ready = await self.link.start()
        except BaseException:  # stopped while starting (the window closed): closed too
            await self.close()
            raise
        from nib_desktop.state.markdown import preload

        # once the sessions are shown: agents' messages are Markdown. Not before: the
        # import's thread would take the interpreter's lock in turns with every answer of
        # the start (about 12 ms later "connected"); a message rendered before then
        # imports the parser itself
        preload()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        if self.drafts is not None:
            self.drafts.flush()
        if "intents" in self.__dict__:  # (none made: none asked to stop remote turns)
            with contextlib.suppress(Exception):  # said in the log; the window closes anyway
                await self.intents.sessions.before_close()
        self.run.cancel_all()
        await self.link.shutdown()

    def _route(self, name: str, params: Any) -> None:
        _ = self.intents  # the areas that follow the state hear what is routed
        self.router.route(name, params)

    def _reload_all(self) -> None:
        """The host said a notification was too large to send: load it all again."""
        self.run(self.loader.reload(), "load the sessions again")

    async def _reload(self) -> None:
        await self.loader.reload()
