"""The library of sessions in the real window, on a real host: the sidebar saying who
needs the user, a session renamed (F2), every session searched (Ctrl+Shift+F) and one
exported as Markdown (Ctrl+Shift+E), all by keyboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from tests.ui.test_keyboard import CTRL, SHIFT, type_text
from ui.views.library_view import HitRow
from ui.views.rows import SearchHitModel


async def dialog(gui: Gui, name: str) -> Any:
    await until(lambda: gui.window.findChild(object, name), what=name)
    found = gui.window.findChild(object, name)
    await until(lambda: found.property("opened"), what=f"{name} open")
    return found


def row_of(gui: Gui, session_id: str) -> Any:
    return next(r for r in gui.items("sessionRow") if r.property("sessionId") == session_id)


async def turn(gui: Gui, text: str) -> str:
    session = await gui.actions.sessions.create_session("agent")
    await gui.actions.sessions.start_turn(text)
    await until(lambda: gui.state.turn(session.id).state == "completed", 15, "the turn's end")
    return session.id


def test_the_sidebar_says_progress_what_ended_unseen_and_the_whole_title(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "300")
    long_title = "Migrate the billing service to the new queue, keep old jobs"

    async def body() -> None:
        await gui.start()
        first = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("1. One\n2. Two\n3. Three")
        await until(
            lambda: row_of(gui, first.id).property("progress") in ("1/3", "2/3"),
            15,
            "the row's progress",
        )
        await gui.frame()
        mark = [
            m for m in gui.visible_items("sessionProgress") if m.property("text") in ("1/3", "2/3")
        ]
        assert mark, "the progress is drawn in the row"
        await gui.actions.sessions.create_session("plan")  # the user moves on; the turn ends unseen
        await until(lambda: gui.state.turn(first.id).state == "completed", 15, "the end")
        await gui.frame()
        row = row_of(gui, first.id)
        assert row.property("unseen") and row.property("progress") == ""
        assert "finished, not seen" in row.property("accessible")
        assert [m.property("visible") for m in gui.items("sessionMark")].count(True) == 1
        await gui.actions.sessions.select_session(first.id)  # seen
        await until(lambda: not row_of(gui, first.id).property("unseen"), what="the mark gone")
        # a stopped turn says so; a long title is cut at its end, whole in the name
        second = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn(f"{long_title}\n1. a\n2. b\n3. c")
        await until(lambda: gui.sessions.property("currentRunning"), what="running")
        await gui.actions.sessions.cancel_turn()
        await until(lambda: row_of(gui, second.id).property("ended") == "stopped", 15, "stopped")
        await gui.frame()
        row = row_of(gui, second.id)
        assert row.property("accessible").startswith(long_title)
        assert "its last turn stopped" in row.property("accessible")
        title = next(t for t in gui.items("sessionTitle") if t.property("text") == long_title)
        assert title.property("truncated"), "cut to the sidebar, the whole in its name"

    gui.run(body(), timeout=60)


def test_f2_renames_the_session_shown(gui: Gui, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        sid = await turn(gui, "1. Fix the parser")
        await gui.key(Qt.Key.Key_F2)
        rename = await dialog(gui, "renameDialog")
        field = gui.item("renameField")
        assert field.property("text") == "Fix the parser"
        assert field.property("selectedText") == "Fix the parser"  # typed over
        await gui.key(Qt.Key.Key_Backspace)
        assert not gui.item("confirmRename").property("enabled")
        assert gui.item("renameProblem").isVisible()
        await type_text(gui, "parser work")
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: not rename.property("visible"), what="the dialog closed")
        await until(lambda: gui.state.session(sid).title == "parser work", 10, "the new title")
        await gui.frame()
        assert row_of(gui, sid).property("title") == "parser work"
        assert gui.window.title().startswith("parser work")
        assert gui.window.activeFocusItem() is gui.item("composerInput")

    gui.run(body())


def test_ctrl_shift_f_finds_what_was_said_and_opens_the_session_at_it(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    assert HitRow._fields == SearchHitModel.ROLES

    async def body() -> None:
        await gui.start()
        wanted = await turn(gui, "1. Teach the tokenizer about heredocs\n2. Test it")
        await turn(gui, "1. Write the release notes")
        assert gui.state.current != wanted
        await gui.key(Qt.Key.Key_F, CTRL | SHIFT)
        search = await dialog(gui, "searchDialog")
        assert gui.window.activeFocusItem() is gui.item("searchField")
        await type_text(gui, "heredo")  # half typed: the last word is a prefix
        await until(lambda: gui.state.search.query == "heredo", 10, "the answer to all typed")
        await until(lambda: gui.visible_items("searchHit"), 10, "the results")
        hits = gui.item("searchHits")
        rows = hits.property("model").rows()
        assert {r.sessionId for r in rows} == {wanted}
        said = next(i for i, r in enumerate(rows) if r.seq)
        assert "<b>heredocs</b>" in rows[said].snippetHtml
        for _ in range(said):
            await gui.key(Qt.Key.Key_Down)
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: not search.property("visible"), what="the dialog closed")
        await until(lambda: gui.state.current == wanted, what="the session shown")
        await until(lambda: gui.transcript.property("findRow") >= 0, 10, "the match found")
        row = gui.transcript.property("findRow")
        assert gui.transcript.model.rows()[row].seq == rows[said].seq
        assert gui.item("findBar").isVisible()
        assert gui.item("findField").property("text") == "heredocs"
        # nothing found is said; outside text never becomes markup
        await gui.key(Qt.Key.Key_F, CTRL | SHIFT)
        await dialog(gui, "searchDialog")
        await type_text(gui, "zzyzx")
        await until(
            lambda: gui.item("searchNote").property("text") == "No session says “zzyzx”",
            10,
            "the note",
        )
        # the results gone with it (counted: a removed row's item is deleted a moment later)
        await until(lambda: gui.item("searchHits").property("count") == 0, 10, "no results")

    gui.run(body())


def test_ctrl_shift_e_exports_the_session_as_markdown(
    gui: Gui, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        await turn(gui, "1. Add the column\n2. Write the tests")
        await gui.key(Qt.Key.Key_E, CTRL | SHIFT)
        exported = await dialog(gui, "exportDialog")
        field = gui.item("exportField")
        assert field.property("text") == "~/Add-the-column.md"
        target = tmp_path / "out.md"
        field.setProperty("text", str(target))
        await gui.frame()
        assert gui.item("confirmExport").property("enabled")
        await gui.key(Qt.Key.Key_Return)
        await until(target.exists, 10, "the file")
        text = target.read_text()
        assert text.startswith("# Add the column\n") and "- [x] Write the tests" in text
        await until(lambda: "exported to" in gui.state.notice, what="the notice")
        assert str(target) in gui.state.notice
        # a file there is replaced only once the user says so
        await gui.key(Qt.Key.Key_E, CTRL | SHIFT)
        await until(lambda: exported.property("opened"), what="open again")
        field.setProperty("text", str(target))
        await gui.frame()
        assert gui.item("exportReplace").isVisible()
        assert not gui.item("confirmExport").property("enabled")
        field.setProperty("text", str(tmp_path / "nowhere" / "x.md"))
        await gui.frame()
        problem = gui.item("exportProblem").property("text")
        assert problem == f"There is no folder {tmp_path}/nowhere"
        # ticked by Space, Return on the box replaces it, as Return in the field would
        target.write_text("older\n")
        field.setProperty("text", str(target))
        await gui.frame()
        replace = gui.item("exportReplace")
        replace.forceActiveFocus()
        await gui.key(Qt.Key.Key_Space)
        await until(lambda: replace.property("checked"), what="ticked")
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: target.read_text().startswith("# Add the column\n"), 10, "replaced")

    gui.run(body())


def test_a_match_in_an_older_page_is_opened_where_it_was_said(gui: Gui, tmp_path: Path) -> None:
    """The session opens at its newest page; the pages before it are read until the
    message the search found is held, and the find shows it."""
    from host.core import HostCore
    from host.protocol import models as m

    core = HostCore(gui.data_dir)
    session = core.sessions.create(m.CreateSessionParams(title="long"))
    for i in range(1, 651):
        text = "the albatross was here" if i == 7 else f"message {i}"
        core.sessions.transcript.append(session.id, None, "assistant", text)
    core.close()

    async def body() -> None:
        await gui.start()
        await gui.key(Qt.Key.Key_F, CTRL | SHIFT)
        await dialog(gui, "searchDialog")
        await type_text(gui, "albatross")
        await until(lambda: gui.state.search.query == "albatross", 10, "the answer")
        await until(lambda: gui.visible_items("searchHit"), 10, "the result")
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.transcript.property("findRow") >= 0, 20, "the older page read")
        row = gui.transcript.property("findRow")
        assert gui.transcript.model.rows()[row].seq == 7
        assert gui.state.transcript.oldest_seq <= 7

    gui.run(body())


def test_the_suggested_file_is_never_in_the_agents_folder(tmp_path, monkeypatch) -> None:
    """An export suggested inside the agent's repository left an untracked file there."""
    from nib_desktop.state import events as ev
    from nib_desktop.state.store import AppState
    from nib_desktop.state.types import Session
    from ui.views.library_view import LibraryView

    monkeypatch.setenv("HOME", str(tmp_path))
    state = AppState()
    state.apply(ev.SessionsListed((Session("s", "Fix: the parser", "agent", folder="/work/app"),)))
    view = LibraryView(state, lambda _intent: None)
    assert view.exportPath("s") == "~/Fix-the-parser.md"
    (tmp_path / "Documents").mkdir()
    assert view.exportPath("s") == "~/Documents/Fix-the-parser.md"


def test_a_search_hit_names_the_sessions_agent_not_agent() -> None:
    """Issue 47, point 21: search results said "Agent" for Claude Code's words."""
    from host.protocol import models as m
    from nib_desktop.work.library_work import hit

    found = m.SearchHit.model_validate(
        {
            "sessionId": "s",
            "title": "Fix it",
            "messageId": "m1",
            "seq": 3,
            "role": "assistant",
            "createdAt": "2026-12-05T06:00:00Z",
            "snippet": "the parser is fixed",
            "marks": [[4, 10]],
        }
    )
    assert hit(found, "claude").who == "claude"
    assert hit(found).who == "Agent"  # Nib's own
    assert hit(found.model_copy(update={"role": "user"}), "claude").who == "You"
