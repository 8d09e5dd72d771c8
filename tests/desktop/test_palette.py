"""The command palette's list, made by its view from the state: what can be done now."""

from __future__ import annotations

from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session, TurnView
from ui.views.dock import DockView
from ui.views.palette import PaletteView


def names(state: AppState, collapsed: bool = False) -> list[str]:
    view = PaletteView(state, DockView(state, lambda _intent: None), lambda _intent: None)
    return [c["name"] for c in view.commands({"fork": "Ctrl+Shift+D"}, collapsed)]


def test_a_running_local_session_offers_stop_and_fork_but_not_compact() -> None:
    state = AppState()
    state.apply(ev.SessionsListed((Session("a", "A", "agent", running_turn="t"),)))
    state.apply(ev.TurnChanged(TurnView("a", "running", "", "t")))
    listed = names(state)
    assert "Stop the turn" in listed and "Fork this session" in listed
    assert "Compact the conversation" not in listed
    # Quit after the window's own commands; what a few letters find comes after it
    assert listed[listed.index("Quit Nib") + 1 :] == [
        "New agent session in a folder…",
        "Try a task with several agents…",
    ]
    assert "Hide the sessions list" in listed
    view = PaletteView(state, DockView(state, lambda _intent: None), lambda _intent: None)
    fork = next(c for c in view.commands({"fork": "Ctrl+Shift+D"}, False) if c["id"] == "fork")
    assert fork["key"] == "Ctrl+Shift+D"


def test_an_unreachable_remote_session_offers_to_reach_it_and_no_fork() -> None:
    state = AppState()
    remote = Session("r", "R", "agent", remote=True, remote_state="unreachable")
    state.apply(ev.SessionsListed((remote, Session("b", "B", "agent"))))
    state.apply(ev.SessionShown("r"))
    listed = names(state, collapsed=True)
    assert "Reach the remote host now" in listed and "Fork this session" not in listed
    assert "Go to: B" in listed and "Go to: R" not in listed
    assert "Show the sessions list" in listed
    assert "Theme: as the system" not in listed and "Theme: dark" in listed
