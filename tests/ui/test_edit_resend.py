"""Edit and resend in the window (issue 52, point 2), by keys, on the host's own agent in a
real git repository: E in the transcript takes the user's last message in view into the
input; Alt+R asks for the folder as that turn found it; Enter sends the edited text in a
fork of the session from there; Escape gives it up. The parent stays as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from tests.e2e.test_checkpoints import repository
from tests.ui.test_agents import send, turn_end

ALT = Qt.KeyboardModifier.AltModifier


async def two_turns(gui: Gui, folder: Path) -> str:
    """The window started, a session of the host's own agent on `folder` shown (its id),
    two turns run in it: app.py "print('between')" as the second found it, "after" now."""
    await gui.start()
    await gui.actions.sessions.create_session("agent", "", str(folder))
    session = gui.state.current or ""
    await send(gui, "demo: 1 steps")
    await turn_end(gui)
    (folder / "app.py").write_text("print('between')\n")  # as the second turn finds it
    await send(gui, "demo: 2 steps")
    await turn_end(gui)
    (folder / "app.py").write_text("print('after')\n")
    return session


def test_an_earlier_message_is_edited_and_resent_in_a_fork(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    folder = repository(gui.data_dir.parent / "work")

    async def body() -> None:
        parent = await two_turns(gui, folder)
        before = [row.text for row in gui.transcript.model.rows()]

        input_ = gui.item("composerInput")
        await gui.key(Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)  # to the transcript
        assert gui.item("transcriptList").hasActiveFocus()
        await gui.key(Qt.Key.Key_E)
        await until(lambda: input_.property("text") == "demo: 2 steps", 5, "the message taken")
        words = gui.item("editingWords")
        assert words.property("visible") and "Enter resends in a fork" in words.property("text")
        await gui.key(Qt.Key.Key_Escape)  # given up: the words go
        await until(lambda: not gui.item("editingWords").property("visible"), 5, "given up")

        await gui.key(Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
        await gui.key(Qt.Key.Key_E)
        await until(lambda: gui.item("editingWords").property("visible"), 5, "taken again")
        input_.forceActiveFocus()
        await gui.key(Qt.Key.Key_R, ALT)  # the folder as that turn found it, too
        said = gui.item("editingWords")
        await until(lambda: "files as then ·" in said.property("text"), 5, "the files too")
        input_.setProperty("text", "demo: 3 steps")
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.state.current not in (None, parent), 10, "the fork shown")
        fork = gui.state.session(gui.state.current)
        assert fork is not None and fork.parent_id == parent
        await turn_end(gui)
        texts = [row.text for row in gui.transcript.model.rows()]
        assert "demo: 1 steps" in texts and "demo: 2 steps" not in texts
        assert "demo: 3 steps" in texts
        assert (folder / "app.py").read_text() == "print('between')\n"
        assert not gui.item("editingWords").property("visible")
        await gui.actions.sessions.select_session(parent)
        await until(
            lambda: [r.text for r in gui.transcript.model.rows()] == before,
            10,
            "the parent as it was",
        )

    gui.run(body(), timeout=90)


def test_a_session_without_a_folder_offers_no_files(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No folder, no files to put back: Alt+R is not offered and does nothing; the edited
    message is resent all the same (it was refused, and the text lost, before)."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        parent = gui.state.current
        await send(gui, "demo: 1 steps")
        await turn_end(gui)
        await gui.key(Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
        await gui.key(Qt.Key.Key_E)
        words = gui.item("editingWords")
        await until(lambda: words.property("visible"), 5, "the message taken")
        assert words.property("text") == "Editing: Enter resends in a fork · Esc: cancel"
        gui.item("composerInput").forceActiveFocus()
        await gui.key(Qt.Key.Key_R, ALT)
        assert gui.state.editing is not None and not gui.state.editing.files
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.state.current not in (None, parent), 10, "the fork shown")
        await turn_end(gui)
        assert gui.state.notice == ""

    gui.run(body(), timeout=60)


def test_the_files_only_go_back_to_before_a_message(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alt+F while editing: the folder as it was before that message (its turn's start),
    asked first in the Changes view, by keys; no fork, no message, the transcript and
    the checklist as they were (Claude Code's "restore the code only")."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    folder = repository(gui.data_dir.parent / "work")

    async def body() -> None:
        session = await two_turns(gui, folder)
        lines = [row.text for row in gui.transcript.model.rows()]

        await gui.key(Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
        await gui.key(Qt.Key.Key_E)
        words = gui.item("editingWords")
        await until(lambda: words.property("visible"), 5, "the message taken")
        assert "Alt+F: files only" in words.property("text")
        gui.item("composerInput").forceActiveFocus()
        await gui.key(Qt.Key.Key_F, ALT)

        def asked() -> bool:
            confirm = gui.window.findChild(object, "restoreConfirm")
            return confirm is not None and bool(confirm.property("opened"))

        await until(asked, 10, "the question")
        changes = gui.views.changes_view
        assert changes.property("question") == (
            "Restore the folder to before “Since the message you chose”? It writes back 1"
            " file: app.py. It can be undone."
        )
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: changes.property("undoWords") != "", 10, "the restore answered")
        assert (folder / "app.py").read_text() == "print('between')\n"
        assert gui.state.current == session and gui.state.editing is None
        assert [row.text for row in gui.transcript.model.rows()] == lines

    gui.run(body(), timeout=90)
