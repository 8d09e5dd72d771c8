"""The Changes view in the real window (contract section 16): the scripted ACP agent's
three steps in a real git repository, each step's files and diff, a restore asked for and
confirmed by keyboard, and its undo."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from nib_desktop.state import store
from nib_desktop.state.store import Change
from tests.e2e.test_checkpoints import repository
from tests.ui.test_agents import ALT, CTRL_SHIFT, agent_session, configure, send, turn_end

pytestmark = pytest.mark.in_memory  # the host core in this process (tests/helpers/gui.py)

CTRL = Qt.KeyboardModifier.ControlModifier


def checkpoints_heard(gui: Gui) -> list[str]:
    """The sessions of the checkpoints told from now on, in order."""
    taken: list[str] = []

    def heard(_event: object, change: Change) -> None:
        if store.CHECKPOINT in change:
            taken.append(change.session_id or "")

    gui.state.subscribe(heard)
    return taken


async def three_steps(gui: Gui, taken: list[str]) -> None:
    """The scripted agent's three steps (an edit, a new file, a command's change), each
    change allowed once its step's checkpoint is stored, to the turn-end checkpoint."""
    await agent_session(gui)
    await send(gui, "steps")
    await allow_three_steps(gui, taken)


async def allow_three_steps(gui: Gui, taken: list[str]) -> None:
    """The three steps of the "steps" turn sent, each allowed by key once its step's
    checkpoint is told, to the turn-end checkpoint."""
    answered = ""
    for step in range(3):
        await until(
            lambda answered=answered: gui.approvals.property("approvalId") not in ("", answered),
            10,
            "the approval",
        )
        answered = gui.approvals.property("approvalId")
        await until(lambda step=step: len(taken) >= step + 2, 10, "the step's checkpoint")
        await gui.key(Qt.Key.Key_Y, ALT)
    await turn_end(gui)
    await until(lambda: len(taken) >= 6, 10, "the turn-end checkpoint")


def test_a_steps_changes_are_read_restored_and_the_restore_undone(gui: Gui) -> None:
    configure(gui)
    work = repository(gui.data_dir.parent / "work")
    taken = checkpoints_heard(gui)

    async def body() -> None:
        await three_steps(gui, taken)

        await gui.key(Qt.Key.Key_G, CTRL_SHIFT)
        changes = gui.views.changes_view
        scopes = changes.scope_model

        def titles() -> list[str]:
            return [row.title for row in scopes.rows()]

        await until(lambda: len(titles()) == 5, 10, "the changes loaded")
        assert titles() == [
            "Step: Step 1",
            "Step: Step 2",
            "Step: Step 3",
            "The last turn",
            "The whole session",
        ]
        assert [row.summary for row in scopes.rows()][:3] == [
            "1 file +1 −1",
            "1 file +1 −0",
            "1 file +1 −1",
        ]
        await until(lambda: gui.item("changeScopes").hasActiveFocus(), what="the scopes list")
        assert [row.summary for row in changes.file_model.rows()] == ["modified · +1 −1"]
        diff = gui.item("changeDiff").property("text")
        assert "print(2)" in diff and "#2f9e44" in diff  # the added line, coloured

        await gui.key(Qt.Key.Key_Down)  # Step 2: its new file
        assert [row.title for row in changes.file_model.rows()] == ["new.txt"]
        await gui.key(Qt.Key.Key_Up)

        await gui.click(gui.item("restoreScopeButton"))  # asked first, saying what changes

        def asked() -> bool:
            confirm = gui.window.findChild(object, "restoreConfirm")
            return confirm is not None and bool(confirm.property("opened"))

        await until(asked, 5, "the question")
        # every file the restore changes, not only the step's own (issue 47, point 3)
        assert changes.property("question") == (
            "Restore the folder to before “Step: Step 1”? It writes back 2 files: app.py,"
            " data.txt; it removes 1 file: new.txt. It can be undone."
        )
        await gui.key(Qt.Key.Key_Return)
        # done when the host answered (it writes the files one by one until then)
        await until(lambda: changes.property("undoWords") != "", 10, "the restore answered")
        assert (work / "app.py").read_text() == "print(1)\n"
        assert not (work / "new.txt").exists()
        assert (work / "data.txt").read_text() == "original\n"
        assert changes.property("undoWords") == "Restored 3 files: app.py, data.txt, new.txt"

        confirm = gui.window.findChild(object, "restoreConfirm")
        await until(lambda: not confirm.property("visible"), 5, "the question gone")
        undo = gui.item("undoRestoreButton")
        await until(lambda: undo.property("visible") and undo.width() > 0, 5, "the undo button")
        await gui.frame()  # laid out where it is shown
        await gui.click(undo)
        # the folder as the turn left it, every file (the host writes them one by one)
        await until(
            lambda: (
                (work / "new.txt").exists()
                and (work / "app.py").read_text() == "print(2)\n"
                and (work / "data.txt").read_text() == "changed\n"
            ),
            10,
            "the undo",
        )
        # undone: nothing is left to undo from here, and the notice says what was done
        await until(lambda: changes.property("undoWords") == "", 10, "no undo offered")
        assert not undo.property("visible")
        assert gui.state.notice.startswith("The restore is undone. Restored 3 files")

        # the dock's rows say what each step changed, and open that step's changes
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: not changes.property("isOpen"), 5, "the view closed")
        dock_rows = gui.views.dock_view.model.rows
        await until(
            lambda: [r.filesText for r in dock_rows()] == ["1 file"] * 3,
            10,
            "each step's files in the dock",
        )
        assert dock_rows()[1].accessibleName.endswith(", 1 file changed")
        await gui.key(Qt.Key.Key_T, CTRL)
        await until(lambda: len(gui.visible_items("stepFiles")) == 3, 5, "the rows shown")
        await gui.frame()
        await gui.click(gui.visible_items("stepFiles")[1])
        await until(lambda: changes.property("isOpen") and len(titles()) == 5, 10, "reopened")
        await until(
            lambda: [row.title for row in changes.file_model.rows()] == ["new.txt"],
            10,
            "step 2's files",
        )

    gui.run(body(), timeout=90)


def test_a_session_without_a_folder_says_it_keeps_none(gui: Gui) -> None:
    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await gui.key(Qt.Key.Key_G, CTRL_SHIFT)
        await until(
            lambda: (
                gui.views.changes_view.property("note") != "Loading the changes…"
                and gui.views.changes_view.property("note") != ""
            ),
            10,
            "the note",
        )
        assert gui.item("changesNote").property("text") == (
            "This session has no folder, so it keeps no checkpoints of one."
        )
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: not gui.views.changes_view.property("isOpen"), 5, "the view closed")

    gui.run(body())


def test_each_revision_in_the_history_says_its_files_and_opens_them(gui: Gui) -> None:
    """The History view's revisions each say how many files changed in their interval
    (from the checkpoint before to theirs), and F on one opens them in the Changes view."""
    configure(gui)
    repository(gui.data_dir.parent / "work")
    taken = checkpoints_heard(gui)

    async def body() -> None:
        await three_steps(gui, taken)
        await gui.key(Qt.Key.Key_H, CTRL)
        rows = gui.views.history_view.model.rows

        def files() -> dict[int, str]:
            return {row.revision: row.files for row in rows()}

        await until(
            lambda: files() == {4: "1 file", 3: "1 file", 2: "1 file", 1: ""},
            10,
            "each revision's files",
        )
        assert rows()[0].accessibleName.endswith(", 1 file changed")
        await until(lambda: gui.item("historyList").hasActiveFocus(), 5, "the history list")
        await gui.key(Qt.Key.Key_Down)  # revision 3: the new file
        await gui.key(Qt.Key.Key_F)
        changes = gui.views.changes_view
        scopes = changes.scope_model.rows
        await until(
            lambda: changes.property("isOpen") and scopes() and scopes()[0].title == "Revision 3",
            10,
            "opened",
        )
        await until(
            lambda: [r.title for r in changes.file_model.rows()] == ["new.txt"],
            10,
            "revision 3's file chosen",
        )

    gui.run(body(), timeout=90)


def test_one_part_of_a_files_change_is_reverted_by_key_and_undone(gui: Gui) -> None:
    configure(gui)
    work = repository(gui.data_dir.parent / "work")
    taken = checkpoints_heard(gui)

    async def body() -> None:
        await three_steps(gui, taken)
        await gui.key(Qt.Key.Key_G, CTRL_SHIFT)
        changes = gui.views.changes_view
        await until(lambda: len(changes.scope_model.rows()) == 5, 10, "the changes loaded")
        html = gui.item("changeDiff").property("text")
        assert 'href="hunk:0"' in html  # each part's own link
        diff = gui.item("changeDiff")
        for _ in range(3):  # the scopes, the files, the diff
            if diff.hasActiveFocus():
                break
            await gui.key(Qt.Key.Key_Tab)
        assert diff.hasActiveFocus()
        await gui.key(Qt.Key.Key_R)  # the part the cursor is in: Step 1's one edit
        # asked first, as every restore is; nothing changed until the answer
        confirm = gui.window.findChild(object, "restoreConfirm")
        await until(lambda: confirm.property("opened"), 5, "the question")
        assert changes.property("question").startswith("Revert part 1 of app.py? ")
        assert confirm.property("title") == "Revert this part?"
        assert (work / "app.py").read_text() == "print(2)\n"
        await gui.key(Qt.Key.Key_Return)
        await until(
            lambda: changes.property("undoWords") == "Reverted part 1 of app.py", 10, "reverted"
        )
        assert (work / "app.py").read_text() == "print(1)\n"
        assert (work / "new.txt").exists()  # nothing else touched
        undo = gui.item("undoRestoreButton")
        await until(lambda: undo.property("visible") and undo.width() > 0, 5, "the undo button")
        await gui.frame()
        await gui.click(undo)
        await until(lambda: (work / "app.py").read_text() == "print(2)\n", 10, "the undo")

    gui.run(body(), timeout=90)
