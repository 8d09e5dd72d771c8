"""A success said is not an error (issue 47, point 11): it carries `until="done"`, is
drawn in the plain colour, goes by itself, and stays with the session it was said of."""

from __future__ import annotations

from nib_desktop.state import events as ev, store
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session


def listed() -> AppState:
    state = AppState()
    state.apply(ev.SessionsListed((Session("a", "A", "agent"), Session("b", "B", "agent"))))
    return state


def test_a_success_stays_with_its_session_and_a_failure_follows_the_user() -> None:
    state = listed()
    shown = state.current
    other = "b" if shown == "a" else "a"
    state.apply(ev.NoticeShown("Restored 3 files", "done"))
    change = state.apply(ev.SessionShown(other))
    assert state.notice == "" and store.NOTICE in change
    state.apply(ev.NoticeShown("Could not restore: the folder is gone"))
    state.apply(ev.SessionShown(shown or ""))
    assert state.notice == "Could not restore: the folder is gone"  # until the user acts


def test_the_view_tells_a_success_from_a_failure(qapp) -> None:
    from ui.views.notices import NoticeView

    state = listed()
    view = NoticeView(state, lambda _intent: None)
    state.apply(ev.NoticeShown("Merged ⎇ nib/x into main (squash): 1234", "done"))
    assert view.property("done") and view.property("text").startswith("Merged")
    state.apply(ev.NoticeShown("Could not merge: a conflict"))
    assert not view.property("done")
