"""The Main role assembled: the host link (supervisor, connection), the state, the
router that turns notifications into events, the loader that follows the state, and the
intents the views ask for.

    host -> connection -> router -> state.apply -> views (read the state)
    view slot -> intent -> host call -> answer or failure -> state.apply -> views

Made after the window's first frame, so the protocol's models are not imported before
the window is on screen.
"""

from __future__ import annotations

from nib_desktop.connection import MAX_RECONNECTS, HostConnection
from nib_desktop.intents import Intents
from nib_desktop.loading import Loader
from nib_desktop.router import HistoryFeed, LineFeed, Router
from nib_desktop.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.supervisor import HostSupervisor


class MainRole:
    def __init__(
        self,
        supervisor: HostSupervisor,
        state: AppState,
        max_reconnects: int = MAX_RECONNECTS,
    ) -> None:
        self.state = state
        feed, told = LineFeed(), HistoryFeed()
        self.router = Router(state, feed, told)
        self.connection = HostConnection(supervisor, self._reload, max_reconnects=max_reconnects)
        self.connection.notification.connect(self.router.route)
        self.connection.stateChanged.connect(
            lambda s, error: state.apply(ev.ConnectionChanged(s, error))
        )
        self.run = Runner(state)
        self.loader = Loader(self.connection, state, feed, told, self.run)
        self.router.on_stale = self._reload_all
        self.intents = Intents(self.connection, state, self.loader, self.run,
                               supervisor.data_dir)  # fmt: skip

    async def start(self) -> bool:
        from nib_desktop.state.markdown import preload

        preload()  # while the host starts: agents' messages are Markdown
        return await self.connection.start()

    async def shutdown(self) -> None:
        self.run.cancel_all()
        await self.connection.shutdown()

    def _reload_all(self) -> None:
        """The host said a notification was too large to send: load it all again."""
        self.run(self.loader.reload(), "load the sessions again")

    async def _reload(self) -> None:
        await self.loader.reload()
