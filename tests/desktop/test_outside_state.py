"""What the app shows outside its window, read from the state (no Qt): the title, the
launcher's progress and badge, and which turn ends the user has not seen."""

from __future__ import annotations

from pathlib import Path

import pytest

from nib_desktop.outside import desktop_prefs
from nib_desktop.outside.progress import approval_words, turn_words
from nib_desktop.state import events as ev
from nib_desktop.state.outside import launcher, waiting, window_title
from nib_desktop.state.store import AppState
from nib_desktop.state.tool_types import Approval
from nib_desktop.state.types import DesktopPrefs, Item, Session, Snapshot, TurnView


def state_with(*ids: str) -> AppState:
    state = AppState()
    state.apply(ev.SessionsListed(tuple(Session(i, f"Title {i}", "agent") for i in ids)))
    state.apply(ev.SessionShown(ids[0]))
    return state


TURNS: dict[str, int] = {}


def run(state: AppState, sid: str) -> None:
    """A new turn of `sid`, running (each later than the one before)."""
    TURNS[sid] = TURNS.get(sid, 0) + 1
    at = f"2026-01-01T00:00:{TURNS[sid]:02d}Z"
    state.apply(ev.TurnChanged(TurnView(sid, "running", "", f"t-{sid}-{TURNS[sid]}", at)))


def end(state: AppState, sid: str, how: str = "completed", error: str = "") -> None:
    at = f"2026-01-01T00:00:{TURNS[sid]:02d}Z"
    state.apply(ev.TurnChanged(TurnView(sid, how, error, f"t-{sid}-{TURNS[sid]}", at)))


def checklist(state: AppState, sid: str, *statuses: str) -> None:
    items = tuple(Item(f"S{i}", s) for i, s in enumerate(statuses))  # type: ignore[arg-type]
    held = state.snapshot(sid)
    state.apply(ev.SnapshotArrived(Snapshot(sid, (held.revision if held else 0) + 1, items)))


def test_the_title_tells_progress_an_approval_or_nothing() -> None:
    state = state_with("a")
    assert window_title(state) == "Title a — Nib"
    run(state, "a")
    assert window_title(state) == "Title a — Nib"  # no checklist yet
    checklist(state, "a", "completed", "completed", "in_progress", "pending", "cancelled")
    assert window_title(state) == "(2/4) Title a — Nib"
    state.apply(ev.ApprovalRequested(Approval("ap", "a", "echo (test)", "{}")))
    assert window_title(state) == "● Title a — Nib"
    state.apply(ev.ApprovalResolved("ap"))
    end(state, "a")
    assert window_title(state) == "Title a — Nib"
    run(state, "a")
    state.apply(ev.DesktopPrefsSet(DesktopPrefs(title_progress=False)))
    assert window_title(state) == "Title a — Nib"
    assert window_title(AppState()) == "Nib"


def test_the_launcher_follows_the_shown_or_only_running_checklist() -> None:
    state = state_with("a", "b")
    assert launcher(state).progress_visible is False
    run(state, "b")
    checklist(state, "b", "completed", "pending")
    shown = launcher(state)
    assert (shown.progress, shown.progress_visible) == (0.5, True)  # the only running one
    run(state, "c")  # unknown sessions do not count
    run(state, "a")
    checklist(state, "a", "pending", "pending", "pending", "completed")
    assert launcher(state).progress == 0.25  # the shown one when it runs
    state.apply(ev.SessionShown("b"))
    assert launcher(state).progress == 0.5
    end(state, "a")
    end(state, "b")
    assert launcher(state).progress_visible is False


def test_unseen_ends_and_approvals_are_what_waits() -> None:
    state = state_with("a", "b")
    run(state, "a")
    run(state, "b")
    end(state, "a")  # shown and the window active: seen
    assert waiting(state) == frozenset()
    end(state, "b")  # not shown
    assert waiting(state) == {"b"} and launcher(state).count == 1
    state.apply(ev.WindowActivated(False))
    run(state, "a")
    end(state, "a")  # shown, but nobody looks
    assert waiting(state) == {"a", "b"}
    state.apply(ev.ApprovalRequested(Approval("ap", "b", "echo (test)", "{}")))
    assert launcher(state).urgent
    state.apply(ev.WindowActivated(True))  # looking at "a" again
    assert waiting(state) == {"b"}
    state.apply(ev.SessionShown("b"))
    assert waiting(state) == {"b"}  # the approval still waits
    state.apply(ev.ApprovalResolved("ap"))
    assert waiting(state) == frozenset()
    state.apply(ev.WindowActivated(False))
    run(state, "a")
    end(state, "a")
    state.apply(ev.SessionDeleted("a"))
    assert waiting(state) == frozenset()


@pytest.mark.parametrize(
    ("turn", "words"),
    [
        (TurnView("s", "completed"), "All 3 steps completed"),
        (TurnView("s", "cancelled"), "Stopped (3 of 3 steps completed)"),
        (
            TurnView("s", "interrupted", "host restarted"),
            "Interrupted: the host restarted (3 of 3 steps completed)",
        ),
        (TurnView("s", "failed", "the model is down"), "Failed: the model is down"),
    ],
)
def test_turn_ends_in_words(turn: TurnView, words: str) -> None:
    assert turn_words(turn, 3, 3) == words


def test_an_approval_shows_at_most_100_characters_of_its_arguments() -> None:
    words = approval_words(Approval("a", "s", "write (files)", "x" * 500))
    assert words == "write (files) waits for your approval: " + "x" * 100 + "…"


def test_desktop_prefs_are_read_for_the_first_frame(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"agents": {}, "desktop": {"badge": false}}')
    assert desktop_prefs.load(tmp_path) == DesktopPrefs(badge=False)
    (tmp_path / "settings.json").write_text("{broken")
    assert desktop_prefs.load(tmp_path) == DesktopPrefs()


def test_the_windows_desktop_prefs_are_the_contracts_desktop_section() -> None:
    """`DesktopPrefs` is read from settings.json for the first frame, before the contract's
    twins are loaded, so it is a type of its own: the same fields, in the same order,
    with the same defaults as the contract's `DesktopSettings`, which replaces it once
    the host answers (`settings.get`)."""
    from host.protocol.plain_models import DesktopSettings

    assert DesktopPrefs()._asdict() == DesktopSettings().field_values()
    assert DesktopPrefs._fields == tuple(DesktopSettings().field_values())
