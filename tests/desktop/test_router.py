"""The router's answer to `host.stale`: everything is loaded again."""

from __future__ import annotations

from host.protocol import models as m
from nib_desktop.inbound.router import HistoryFeed, LineFeed, Router
from nib_desktop.state.store import AppState


def test_host_stale_asks_for_a_reload() -> None:
    router = Router(AppState(), LineFeed(), HistoryFeed())
    asked: list[bool] = []
    router.on_stale = lambda: asked.append(True)
    router.route("host.stale", m.Stale(notification="tools.changed"))
    assert asked == [True]
