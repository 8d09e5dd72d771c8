"""A new agent session in a worktree of its own, from the window (issue 49, point 1, in
part), by keys: the New menu's agent, a folder inside a git repository offers "In a new
worktree", the branch's name is checked as it is typed, and the session works in its own
worktree on its own branch, which the sidebar names; the checkout is left as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from tests.e2e.test_worktrees import IDENTITY, git, repository
from tests.ui.test_agents import CTRL_SHIFT, NAME, configure, open_agent_dialog


def test_a_session_in_a_new_worktree_by_keys(
    gui: Gui, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(gui)
    for name, value in IDENTITY.items():  # the host commits the merge as the user
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    repo = repository(tmp_path / "repo")
    plain = tmp_path / "plain"
    plain.mkdir()

    async def body() -> None:
        await gui.start()
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        dialog = await open_agent_dialog(gui)
        field, box = gui.item("folderField"), gui.item("worktreeBox")
        field.setProperty("text", str(plain))
        await gui.frame()
        assert not box.isVisible()  # not a repository: no worktree offered
        field.setProperty("text", str(repo))
        await gui.frame()
        assert box.isVisible()
        box.setProperty("checked", True)
        await gui.frame()
        branch = gui.item("branchField")
        branch.setProperty("text", "a..b")
        await gui.frame()
        assert gui.item("folderProblem").property("text") == "A branch name has no .., @{ or //"
        await gui.key(Qt.Key.Key_Return)
        await gui.frame()
        assert dialog.property("opened")  # refused as typed: nothing made
        branch.setProperty("text", "feat/tidy")
        await gui.frame()
        assert not gui.item("folderProblem").isVisible()
        box.forceActiveFocus()  # Return on the box just ticked creates it, as from a field
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.sessions.property("currentAgent") == NAME, 10, "the session")
        shown = gui.state.shown
        assert shown is not None and shown.branch == "feat/tidy"
        assert shown.cwd != str(repo) and Path(shown.cwd).is_relative_to(gui.data_dir)
        assert "feat/tidy" in git(repo, "branch")
        await until(lambda: gui.visible_items("sessionAgent"), 5, "the session's row")
        assert "⎇ feat/tidy" in gui.visible_items("sessionAgent")[0].property("text")

        # merged back by keys: the palette's command, the dialog, Return
        Path(shown.cwd, "tidy.txt").write_text("tidied\n")  # the agent's work, uncommitted
        # the Changes view: the whole branch against its base, not restored from there
        await gui.key(Qt.Key.Key_G, CTRL_SHIFT)
        changes = gui.views.changes_view
        titles = lambda: [row.title for row in changes.scope_model.rows()]  # noqa: E731
        await until(lambda: "The whole branch against main" in titles(), 10, "the branch")
        changes.chooseScope(titles().index("The whole branch against main"))
        await gui.frame()
        assert [row.title for row in changes.file_model.rows()] == ["tidy.txt"]
        assert not changes.property("restorable")
        assert not gui.item("restoreScopeButton").property("enabled")
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: not changes.property("isOpen"), 5, "the view closed")
        await gui.key(Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: gui.item("paletteField").hasActiveFocus(), 5, "the palette")
        gui.item("paletteField").setProperty("text", "Merge")
        await gui.frame()
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.window.findChild(object, "mergeDialog"), what="the dialog")
        merge = gui.window.findChild(object, "mergeDialog")
        await until(lambda: merge.property("opened"), what="the dialog open")
        summary = gui.item("mergeSummary")
        await until(lambda: "1 file changed" in summary.property("text"), 10, "how it stands")
        if os.environ.get("MERGE_SHOT"):
            await gui.frame()
            assert gui.grab().save(os.environ["MERGE_SHOT"])
        assert "uncommitted changes" in summary.property("text")
        assert gui.item("mergeMessage").property("text") == shown.title  # editable
        await gui.key(Qt.Key.Key_Return)
        await until(
            lambda: gui.state.notice.startswith("Merged ⎇ feat/tidy into main"), 10, "merged"
        )
        assert (repo / "tidy.txt").read_text() == "tidied\n"  # the checkout brought along
        assert git(repo, "log", "-1", "--format=%s") == shown.title  # the default message

    gui.run(body(), timeout=60)


def test_nibs_own_agent_in_a_new_worktree(gui: Gui, tmp_path: Path) -> None:
    """The host's own agent too works in a folder, and in a worktree of its own, from the
    palette's "New agent session in a folder…"."""
    from tests.ui.test_earlier_sessions import palette

    repo = repository(tmp_path / "repo")

    async def body() -> None:
        await gui.start()
        await palette(gui, "New agent session in a folder")
        await until(lambda: gui.window.findChild(object, "agentDialog"), what="the dialog")
        dialog = gui.window.findChild(object, "agentDialog")
        await until(lambda: dialog.property("opened"), what="the dialog open")
        assert dialog.property("title") == "New agent session in a folder"
        gui.item("folderField").setProperty("text", str(repo))
        await gui.frame()
        gui.item("worktreeBox").setProperty("checked", True)
        await gui.frame()
        gui.item("folderField").forceActiveFocus()
        await gui.key(Qt.Key.Key_Return)
        await until(
            lambda: gui.state.shown is not None and gui.state.shown.branch != "",
            10,
            "the session in its worktree",
        )
        shown = gui.state.shown
        assert shown is not None and shown.agent == "" and shown.branch.startswith("nib/")

    gui.run(body(), timeout=60)


@pytest.mark.parametrize("choice", ["remove", "keep"])
def test_deleting_a_session_in_its_worktree_asks_what_becomes_of_it(
    gui: Gui, tmp_path: Path, choice: str
) -> None:
    """Issue 49: the delete question of a worktree session named nothing of its worktree,
    and the host refused the deletion for want of an answer. It names the branch and
    offers removing or keeping the worktree, and does what was chosen."""
    repo = repository(tmp_path / "repo")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent", "", str(repo), ("", "", False))
        await until(lambda: gui.sessions.property("currentBranch") != "", 10, "its worktree")
        from host.protocol import plain_methods as rpc, plain_models as m

        told = await gui.main.link.call(rpc.SESSIONS_GET, m.SessionRef(session_id=session.id))
        assert told.worktree is not None
        tree, branch = Path(told.worktree.path), told.worktree.branch
        assert tree.is_dir()
        await gui.key(Qt.Key.Key_Delete, CTRL_SHIFT)
        await until(lambda: gui.window.findChild(object, "deleteDialog"), what="the dialog")
        dialog = gui.window.findChild(object, "deleteDialog")
        await until(lambda: dialog.property("opened"), what="the question")
        words = dialog.findChild(object, "deleteText").property("text")
        assert f"its own worktree on the branch ⎇ {branch}" in words
        if choice == "remove":
            assert gui.window.findChild(object, "confirmDelete").property("text") == (
                "Delete and remove the worktree"
            )
            await gui.key(Qt.Key.Key_Return)
        else:
            keep = gui.window.findChild(object, "deleteKeepWorktree")
            gui.loop.call_soon(keep.clicked.emit)
        await until(lambda: gui.state.session(session.id) is None, 15, "deleted")
        assert tree.is_dir() == (choice == "keep")
        assert (branch in git(repo, "branch", "--list", branch)) == (choice == "keep")

    gui.run(body(), timeout=60)
