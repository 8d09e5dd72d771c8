"""Each session's unsent text survives a quit (issue 35, point 5): written to the data
folder as it is typed, off the GUI thread, and back in the input at the next launch."""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from harness.gui import Gui
from harness.waiting import until
from nib_desktop.shell import drafts
from nib_desktop.state.types import PlanAsk

pytestmark = pytest.mark.in_memory


def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A data folder for the launches, and its drafts file, in an environment without
    the suite's NIB_ settings (as a user's launch)."""
    for key in [k for k in os.environ if k.startswith("NIB_")]:
        monkeypatch.delenv(key)
    data = tmp_path / "data"
    return data, data / drafts.FILENAME


def two_launches(
    aio_loop: Any,
    data: Path,
    before: Callable[[Gui], Awaitable[str]],
    after: Callable[[Gui, str], Awaitable[None]],
) -> None:
    """`before` in a window on `data` (a session's id back), then, once it quit, `after`
    in the next launch on the same data folder."""
    first = Gui(aio_loop, data, True)
    try:
        sid = first.run(before(first))
    finally:
        first.close()
    second = Gui(aio_loop, data, True)
    try:
        second.run(after(second, sid))
    finally:
        second.close()


def test_a_draft_is_kept_as_it_is_typed_and_comes_back_at_the_next_launch(
    aio_loop: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, kept = data_folder(tmp_path, monkeypatch)

    async def type_a_draft(first: Gui) -> str:
        await first.start()
        session = await first.actions.sessions.create_session("agent")
        first.item("composerInput").setProperty("text", "half a thought")
        await until(
            lambda: kept.exists() and "half a thought" in kept.read_text(), 10, "the draft written"
        )
        assert json.loads(kept.read_text())["drafts"] == {session.id: "half a thought"}
        return session.id

    async def see_it_again(second: Gui, sid: str) -> None:
        await second.start()
        await until(lambda: second.state.current == sid, 10, "the session shown")
        await until(
            lambda: second.item("composerInput").property("text") == "half a thought",
            5,
            "the draft in the input",
        )

    two_launches(aio_loop, data, type_a_draft, see_it_again)


def test_text_typed_before_any_session_exists_comes_back_at_the_next_launch(
    aio_loop: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first launch: no session yet, the user types, then quits before sending. The
    input held it under no session, which was never kept."""
    data, kept = data_folder(tmp_path, monkeypatch)

    async def type_with_no_session(first: Gui) -> str:
        await first.start()
        assert first.state.current is None and not first.state.sessions
        first.item("composerInput").setProperty("text", "first words")
        await until(lambda: kept.exists() and "first words" in kept.read_text(), 10, "written")
        assert json.loads(kept.read_text())["drafts"] == {"": "first words"}
        return ""

    async def see_it_again(second: Gui, _sid: str) -> None:
        await second.start()
        assert second.item("composerInput").property("text") == "first words"
        session = await second.actions.sessions.create_session("agent")
        await until(lambda: second.state.current == session.id, 10, "the new session shown")
        # the text typed with no session shown is the shown one's now, and only its
        await until(lambda: second.state.drafts == {session.id: "first words"}, 5, "moved")
        assert second.item("composerInput").property("text") == "first words"

    two_launches(aio_loop, data, type_with_no_session, see_it_again)


def test_text_typed_before_a_session_is_shown_joins_its_kept_draft(qapp: Any) -> None:
    """At a launch, the last session is shown again once the host answers; what was typed
    meanwhile goes after that session's kept draft, and neither is lost."""
    from nib_desktop.state import events as ev
    from nib_desktop.state.store import AppState
    from nib_desktop.state.types import Session
    from ui.views.composer import ComposerView

    state = AppState()
    state.apply(ev.SessionsListed((Session("a", "A", "agent"), Session("b", "B", "agent"))))
    state.apply(ev.DraftSaved("a", "half a thought"))
    view = ComposerView(state, state.apply)
    assert view.swapDraft("", "a", "and more") == "half a thought\nand more"
    assert state.drafts == {"a": "half a thought\nand more"}
    assert view.swapDraft("a", "b", "half a thought\nand more") == ""  # a keeps its text
    assert view.swapDraft("b", "a", "") == "half a thought\nand more"
    assert view.swapDraft("a", "a", "") == "half a thought\nand more"


def test_a_file_that_cannot_be_read_keeps_no_draft(tmp_path: Any) -> None:
    (tmp_path / drafts.FILENAME).write_text("{not json")
    assert drafts.load(tmp_path) == drafts.nothing()
    (tmp_path / drafts.FILENAME).write_text(json.dumps({"version": 1, "drafts": {"a": 3}}))
    assert drafts.load(tmp_path) == drafts.nothing()
    bad_asks = {"s": {"asks": [["explode", "x", "", 0], ["skip", "Step", "", "1"]]}}
    (tmp_path / drafts.FILENAME).write_text(json.dumps({"version": 1, "asks": bad_asks}))
    assert drafts.load(tmp_path) == drafts.nothing()
    kept = drafts.Unsent(
        {"a": "text"},
        {"a": "after the turn"},
        {"a": (PlanAsk("skip", "Step 2"), PlanAsk("move", "Step 3", places=-1))},
        {"a"},
    )
    drafts.save(tmp_path, kept)
    assert drafts.load(tmp_path) == kept
    older = {"version": 1, "drafts": {"a": "text"}}  # a file written before round 5
    (tmp_path / drafts.FILENAME).write_text(json.dumps(older))
    assert drafts.load(tmp_path) == drafts.Unsent({"a": "text"}, {}, {}, set())


def test_a_fifo_in_place_of_the_drafts_file_does_not_hold_the_window(tmp_path: Path) -> None:
    """Issue 46, point 13: a FIFO named window-drafts.json blocked the window before its
    first frame (reading it waits for a writer that never comes)."""
    os.mkfifo(tmp_path / drafts.FILENAME)
    assert drafts.load(tmp_path) == drafts.nothing()


def test_a_queued_message_and_the_asks_on_the_plan_survive_a_quit(
    aio_loop: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 47, point 25: what waits for a turn's end is kept as a draft is."""
    from nib_desktop.state import events as ev

    data, kept = data_folder(tmp_path, monkeypatch)
    asks = (PlanAsk("skip", "Write the tests"), PlanAsk("add", "", "Tag the release"))

    async def queue_them(first: Gui) -> str:
        await first.start()
        session = await first.actions.sessions.create_session("agent")
        first.state.apply(ev.MessageQueued(session.id, "then tidy up"))
        first.state.apply(ev.PlanAsked(session.id, asks, queued=True))
        await until(lambda: kept.exists() and "Tag the release" in kept.read_text(), 10, "written")
        return session.id

    async def see_them_again(second: Gui, sid: str) -> None:
        await second.start()
        await until(lambda: second.state.current == sid, 10, "the session shown")
        assert second.state.queued == {sid: "then tidy up"}
        assert second.state.plan_asks == {sid: asks}
        assert second.state.asks_queued == {sid}

    two_launches(aio_loop, data, queue_them, see_them_again)
