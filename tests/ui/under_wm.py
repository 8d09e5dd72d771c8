"""Run by test_window_manager.py only: the real window on an X server managed by openbox,
driven by X key events from xdotool (the XTEST extension, as a keyboard would). The test
never focuses or activates anything itself: the window manager does, as for a user."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from harness.gui import Gui
from harness.waiting import until

pytestmark = pytest.mark.skipif(
    os.environ.get("NIBTEST_WM") != "1", reason="run by test_window_manager.py under openbox"
)


async def xdotool(*args: str) -> None:
    proc = await asyncio.create_subprocess_exec("xdotool", *args)
    assert await proc.wait() == 0, f"xdotool {' '.join(args)} failed"


async def keys(*names: str) -> None:
    await xdotool("key", "--delay", "40", *names)


async def type_text(text: str) -> None:
    await xdotool("type", "--delay", "20", text)


def focus(gui: Gui) -> Any:
    return gui.window.activeFocusItem()


def inside(item: Any, dialog: Any) -> bool:
    """Whether `item` is part of the dialog (its content, header or footer)."""
    popup = dialog.property("contentItem").parentItem()
    while item is not None:
        if item is popup:
            return True
        item = item.parentItem()
    return False


async def launched(gui: Gui) -> None:
    await gui.start(activate=False)
    # openbox gives the new window the focus; nothing here asks for it
    await until(lambda: gui.window.isActive(), what="the window manager activating the window")


async def opened(gui: Gui, name: str) -> Any:
    await until(lambda: gui.window.findChild(object, name), what=f"the {name}")
    dialog = gui.window.findChild(object, name)
    await until(lambda: dialog.property("opened"), what=f"the {name} open")
    await until(lambda: inside(focus(gui), dialog), what=f"the focus in the {name}")
    return dialog


async def tab_stays_inside(gui: Gui, dialog: Any, presses: int = 7) -> set[str]:
    reached = set()
    for _ in range(presses):
        before = focus(gui)
        await keys("Tab")
        await until(lambda b=before: focus(gui) is not b, what="Tab moving the focus")
        assert inside(focus(gui), dialog), f"Tab left the dialog for {focus(gui)}"
        reached.add(focus(gui).objectName())
    return reached


async def closed(gui: Gui, dialog: Any) -> None:
    await until(lambda: not dialog.property("visible"), what="the dialog closed")
    input_ = gui.item("composerInput")
    await until(lambda: input_.hasActiveFocus(), what="the focus back in the input")


def test_the_remote_dialog_owns_the_keyboard(gui: Gui) -> None:
    async def body() -> None:
        await launched(gui)
        input_ = gui.item("composerInput")
        await keys("ctrl+shift+n")  # the New menu, then its last item
        await until(lambda: gui.window.findChild(object, "newMenu").property("opened"))
        await keys("Down", "Down", "Down", "Return")
        dialog = await opened(gui, "remoteDialog")
        endpoint = gui.window.findChild(object, "endpointField")
        assert focus(gui) is endpoint
        await type_text("ssh://me@box")
        await until(lambda: endpoint.property("text") == "ssh://me@box", what="typing")
        assert input_.property("text") == ""  # nothing reached the window behind
        reached = await tab_stays_inside(gui, dialog)
        assert {"endpointField", "remoteIdField", "attachButton"} <= reached, reached
        # Return in the endpoint field goes to the session id, never to the composer
        endpoint.forceActiveFocus()
        await keys("Return")
        await until(lambda: focus(gui).objectName() == "remoteIdField", what="Return")
        assert dialog.property("visible") and input_.property("text") == ""
        await keys("Escape")
        await closed(gui, dialog)
        assert gui.sessions.model.rows() == [] and input_.property("text") == ""

    gui.run(body())


def test_the_delete_dialog_owns_the_keyboard_and_return_confirms(gui: Gui) -> None:
    async def body() -> None:
        await launched(gui)
        await keys("ctrl+n")
        await until(lambda: len(gui.sessions.model.rows()) == 1, what="Ctrl+N")
        await keys("ctrl+shift+Delete")
        dialog = await opened(gui, "deleteDialog")
        confirm = gui.window.findChild(object, "confirmDelete")
        assert confirm.property("primary") and confirm.property("font").bold()  # the default
        await type_text("xy")  # typing reaches nothing behind the dialog
        assert gui.item("composerInput").property("text") == ""
        await tab_stays_inside(gui, dialog, presses=4)
        await keys("Escape")
        await closed(gui, dialog)
        assert len(gui.sessions.model.rows()) == 1  # Escape deleted nothing
        await keys("ctrl+shift+Delete")
        dialog = await opened(gui, "deleteDialog")
        await until(lambda: focus(gui) is not None and inside(focus(gui), dialog))
        await keys("Return")  # the default button
        await until(lambda: gui.sessions.model.rows() == [], what="Return deleting")
        await closed(gui, dialog)

    gui.run(body())


def test_the_settings_and_tools_views_own_the_keyboard(gui: Gui) -> None:
    async def own_the_keyboard(key: str, name: str, presses: int) -> None:
        await keys(key)
        dialog = await opened(gui, name)
        await type_text("q")
        assert gui.item("composerInput").property("text") == ""
        await tab_stays_inside(gui, dialog, presses)
        await keys("Escape")
        await closed(gui, dialog)

    async def body() -> None:
        await launched(gui)
        await own_the_keyboard("ctrl+comma", "settingsDialog", presses=5)
        await own_the_keyboard("ctrl+shift+t", "toolsDialog", presses=3)

    gui.run(body())


def test_the_close_dialog_owns_the_keyboard(gui: Gui) -> None:
    async def body() -> None:
        await launched(gui)
        input_ = gui.item("composerInput")
        await type_text("1. one 2. two")
        await keys("Return")
        await until(lambda: gui.sessions.property("runningCount") == 1, what="a running turn")
        await keys("ctrl+n")  # a second session, a second turn
        await until(lambda: len(gui.sessions.model.rows()) == 2, what="Ctrl+N")
        await type_text("1. three 2. four")
        await keys("Return")
        await until(lambda: gui.sessions.property("runningCount") == 2, what="two running turns")
        await keys("alt+F4")  # the window manager closing the window
        dialog = await opened(gui, "closeDialog")
        words = gui.window.findChild(object, "closeText").property("text")
        assert words.startswith("2 turns are still running.")
        await type_text("zz")
        assert input_.property("text") == ""
        await tab_stays_inside(gui, dialog, presses=4)
        await keys("Escape")
        await closed(gui, dialog)
        assert gui.window.isVisible() and gui.sessions.property("runningCount") == 2

    gui.run(body())


async def tab_to(gui: Gui, name: str, presses: int = 12) -> None:
    """Tab until the item named `name` has the focus."""
    for _ in range(presses):
        if focus(gui) is not None and focus(gui).objectName() == name:
            return
        before = focus(gui)
        await keys("Tab")
        await until(lambda b=before: focus(gui) is not b, what="Tab moving the focus")
    assert focus(gui).objectName() == name, f"Tab never reached {name}"


def test_an_agents_work_read_found_copied_and_a_step_restored_by_keys(gui: Gui) -> None:
    """The scripted ACP agent's work, by X key events only: its edit's diff read and a
    word of its folded part found with Ctrl+F (Escape: the focus back in the input), its
    code block copied with C, and its three steps' changes opened with Ctrl+Shift+G, the
    first step restored and the restore undone, all by Tab and Return."""
    from PySide6.QtGui import QGuiApplication

    from nib_desktop.state import store
    from tests.e2e.test_checkpoints import repository
    from tests.ui.test_agents import NAME, configure

    configure(gui)
    work = repository(gui.data_dir.parent / "work")
    taken: list[str] = []
    gui.state.subscribe(lambda _e, change: taken.append("") if store.CHECKPOINT in change else None)

    async def say(text: str) -> None:
        before = gui.state.turn(gui.state.current).turn_id
        await type_text(text)
        await keys("Return")
        await until(lambda: gui.state.turn(gui.state.current).turn_id != before, 10, text)

    async def ended() -> None:
        await until(lambda: not gui.sessions.property("currentRunning"), 30, "the turn's end")

    async def body() -> None:
        await launched(gui)
        input_ = gui.item("composerInput")
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await gui.actions.sessions.create_session("agent", NAME, str(work))
        await until(lambda: input_.hasActiveFocus(), what="the input")
        await say("edit")
        await ended()
        await keys("ctrl+f")
        await until(lambda: focus(gui).objectName() == "findField", what="the find field")
        await type_text("line 20")  # in the diff's folded part
        await until(lambda: gui.item("findCount").property("text") == "1 of 1", what="found")
        shown = [d.property("text") for d in gui.visible_items("toolDetail")]
        assert any("line 20" in text for text in shown), "the found diff unfolded"
        await keys("Escape")
        await until(lambda: input_.hasActiveFocus(), what="the focus back in the input")
        await say("markdown")
        await ended()
        await keys("shift+F6", "c")
        clipboard = QGuiApplication.clipboard()
        await until(lambda: clipboard.text() == "print(1)\n", what="the code block copied")
        await keys("F6")
        await until(lambda: input_.hasActiveFocus(), what="the input again")
        before = len(taken)
        await say("steps")
        answered = ""
        for step in range(3):  # each change allowed once its step's checkpoint is stored
            await until(
                lambda answered=answered: (
                    gui.approvals.property("approvalId") not in ("", answered)
                ),
                10,
                "the approval",
            )
            answered = gui.approvals.property("approvalId")
            await until(lambda step=step: len(taken) >= before + step + 2, 10, "a checkpoint")
            await keys("alt+y")
        await ended()
        await until(lambda: len(taken) >= before + 6, 10, "the turn-end checkpoint")
        await keys("ctrl+shift+g")
        dialog = await opened(gui, "changesDialog")
        changes = gui.views.changes_view
        await until(lambda: len(changes.scope_model.rows()) == 5, 10, "the changes")
        assert "print(2)" in gui.item("changeDiff").property("text")  # Step 1's diff, read
        await tab_to(gui, "restoreScopeButton")
        await keys("Return")
        await until(
            lambda: gui.window.findChild(object, "restoreConfirm").property("opened"),
            what="the question",
        )
        await keys("Return")
        await until(lambda: changes.property("undoWords") != "", 10, "restored")
        assert (work / "app.py").read_text() == "print(1)\n" and not (work / "new.txt").exists()
        await tab_to(gui, "undoRestoreButton")
        await keys("Return")
        await until(
            lambda: (
                (work / "new.txt").exists()
                and (work / "app.py").read_text() == "print(2)\n"
                and (work / "data.txt").read_text() == "changed\n"
            ),
            10,
            "the undo",
        )
        await keys("Escape")
        await closed(gui, dialog)

    gui.run(body(), timeout=90)


def test_steering_by_keys_a_mode_a_file_and_feedback_the_agent_writes(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By X key events only: an agent's mode changed with Ctrl+Shift+M, a file of its
    folder attached with "@" and Tab, and, in a session of the host's own agent, a step
    asked for from the dock (F6, Down, A, its words, Ctrl+Return): the agent's next list
    is the new checklist, written by the agent alone."""
    from tests.ui.test_agents import NAME, configure

    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")  # the demo's turns end at once
    configure(gui)
    work = gui.data_dir.parent / "work"
    (work / "src").mkdir(parents=True)
    (work / "src" / "app.py").write_text("print(1)\n")

    def lines() -> list[str]:
        return [row.text for row in gui.transcript.model.rows()]

    async def body() -> None:
        await launched(gui)
        input_ = gui.item("composerInput")
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await gui.actions.sessions.create_session("agent", NAME, str(work))
        sid = gui.state.current or ""
        await until(lambda: input_.hasActiveFocus(), what="the input")
        await type_text("hello")
        await keys("Return")
        await until(
            lambda: (s := gui.state.steering.get(sid)) is not None and s.mode,
            15,
            "the agent's modes",
        )
        await keys("ctrl+shift+m")
        await until(lambda: gui.window.findChild(object, "commandPalette").property("opened"))
        await type_text("Plan")
        await keys("Return")
        await until(lambda: gui.state.steering[sid].mode == "Plan", 10, "the mode changed")
        await until(lambda: input_.hasActiveFocus(), what="the input again")
        await type_text("attached see @appp")
        await until(lambda: gui.visible_items("slashCompletion"), 10, "files offered")
        await keys("Tab")
        await until(lambda: input_.property("text") == "attached see @src/app.py ", what="Tab")
        await keys("Return")
        await until(
            lambda: any(t.startswith("got: ") and "app.py" in t for t in lines()),
            15,
            "the file reached the agent",
        )
        await keys("ctrl+n")  # a session of the host's own agent
        await until(lambda: gui.state.current != sid, what="Ctrl+N")
        own = gui.state.current or ""
        await type_text("1. one 2. two 3. three")
        await keys("Return")

        def listed() -> bool:
            snapshot = gui.state.snapshot(own)
            return snapshot is not None and len(snapshot.items) == 3

        await until(
            lambda: listed() and not gui.sessions.property("currentRunning"), 20, "the demo's list"
        )
        revision = gui.state.snapshot(own).revision  # type: ignore[union-attr]
        await keys("ctrl+t")
        dock = gui.item("dockList")
        for _ in range(4):
            if dock.hasActiveFocus():
                break
            await keys("F6")
            await asyncio.sleep(0)
        await until(lambda: dock.hasActiveFocus(), what="F6 to the dock's list")
        await keys("Down", "Down", "a")  # a step after the last (the three are done)
        words = gui.item("feedbackWords")
        await until(lambda: words.hasActiveFocus(), what="the new step's words asked for")
        await type_text("four")
        await keys("Return")
        await until(lambda: dock.hasActiveFocus(), what="the focus back in the list")
        await keys("ctrl+Return")

        def rewritten() -> bool:
            snapshot = gui.state.snapshot(own)
            return (
                snapshot is not None
                and snapshot.revision > revision
                and [i.content for i in snapshot.items][-1:] == ["four"]
            )

        await until(rewritten, 20, "the agent's new list")

    gui.run(body(), timeout=90)


def test_the_library_dialogs_own_the_keyboard(gui: Gui, monkeypatch: pytest.MonkeyPatch) -> None:
    """F2, Ctrl+Shift+F and Ctrl+Shift+E under a window manager: each takes the focus,
    what is typed goes to its field, Return does its work, the focus comes back."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await launched(gui)
        await type_text("1. Teach the tokenizer about heredocs")
        await keys("Return")
        await until(
            lambda: gui.state.current and gui.state.turn(gui.state.current).ended,
            15,
            "the turn's end",
        )
        sid = gui.state.current
        await keys("F2")
        dialog = await opened(gui, "renameDialog")
        await type_text("Heredoc work")  # over the selected title
        await keys("Return")
        await closed(gui, dialog)
        await until(lambda: gui.state.session(sid).title == "Heredoc work", what="renamed")
        await keys("ctrl+n")
        await until(lambda: gui.state.current != sid, what="another session")
        await keys("ctrl+shift+f")
        dialog = await opened(gui, "searchDialog")
        await type_text("heredocs")
        await until(
            lambda: gui.state.search.query == "heredocs" and gui.visible_items("searchHit"),
            10,
            "the results",
        )
        await keys("Return")
        await until(lambda: gui.state.current == sid, what="the session opened at its match")
        await until(lambda: not dialog.property("visible"), what="the search closed")
        await keys("ctrl+shift+e")
        dialog = await opened(gui, "exportDialog")
        assert gui.item("exportField").hasActiveFocus()
        await keys("Escape")
        await closed(gui, dialog)

    gui.run(body())


def agent_and_repository(gui: Gui, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The scripted agent configured, Nib's demo without pauses, git committing as the
    test's user with no global config, and a repository to work in (its path)."""
    from tests.e2e.test_worktrees import IDENTITY, repository
    from tests.ui.test_agents import configure

    configure(gui)
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    for name, value in IDENTITY.items():  # the host commits a merge as the user
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    return repository(tmp_path / "repo")


def test_an_attempt_started_followed_compared_and_one_kept_by_keys(
    gui: Gui, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 50 under a window manager, by keys only: the palette's "Try a task with
    several agents…", the repository, the task and two agents, started; the runs' view
    (Ctrl+Shift+A) followed to the end; C compares two runs in the Changes view; K keeps
    one through its merge dialog, which Return carries out."""
    from tests.ui.test_agents import NAME

    repo = agent_and_repository(gui, tmp_path, monkeypatch)

    async def body() -> None:
        await launched(gui)
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await keys("ctrl+k")
        await type_text("Try a task")
        await keys("Return")
        dialog = await opened(gui, "attemptDialog")
        assert gui.item("attemptFolder").hasActiveFocus()
        await type_text(str(repo))
        await keys("Tab")
        assert gui.item("attemptTask").hasActiveFocus()
        await type_text("demo: 2 steps")
        await keys("Tab")  # the task's field lets Tab go on to the agents
        await until(lambda: focus(gui).objectName() == f"attemptAgent_{NAME}", what="agent 1")
        await keys("space", "Tab")
        await until(lambda: focus(gui).objectName() == "attemptAgent_nib", what="agent 2")
        await keys("space", "Return")
        await until(lambda: len(gui.state.sessions) == 2, 20, "the two runs")
        await closed(gui, dialog)

        def ended() -> bool:
            told = list(gui.state.attempts.values())
            return bool(told) and all(r.state == "completed" for r in told[0].runs)

        await until(ended, 60, "both runs done")
        await keys("ctrl+shift+a")
        runs = await opened(gui, "runsDialog")
        await until(lambda: len(runs.property("runs")) == 2, 10, "both runs shown")
        await keys("c")
        changes = await opened(gui, "changesDialog")
        await until(lambda: gui.state.changes.pinned != (), 15, "the comparison")
        assert gui.state.changes.scopes[0].title.startswith("From ")
        await keys("Escape")
        await closed(gui, changes)
        await keys("ctrl+shift+a")
        await opened(gui, "runsDialog")
        await keys("k")
        merge = await opened(gui, "mergeDialog")
        await keys("Return")  # squash, the default
        await until(lambda: gui.state.notice.startswith("Merged ⎇"), 20, "the merge")
        await closed(gui, merge)

    gui.run(body(), timeout=100)


def test_a_worktree_session_made_read_merged_with_a_message_and_removed_by_keys(
    gui: Gui, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 49 under a window manager, by keys only: the New menu's agent, "In a new
    worktree" with a branch named, the branch's changes read in the Changes view, merged
    with a message typed, then the worktree removed from the palette."""
    from pathlib import Path

    from tests.e2e.test_worktrees import git
    from tests.ui.test_agents import NAME

    repo = agent_and_repository(gui, tmp_path, monkeypatch)

    async def body() -> None:
        await launched(gui)
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await keys("ctrl+shift+n", "Down", "Down", "Down", "Down", "Return")
        dialog = await opened(gui, "agentDialog")
        await tab_to(gui, "folderField")
        await keys("ctrl+a")
        await type_text(str(repo))
        await until(lambda: gui.item("worktreeBox").isVisible(), what="the worktree offered")
        await tab_to(gui, "worktreeBox")
        await keys("space")
        await tab_to(gui, "branchField")
        await type_text("feat/tidy")
        await keys("Return")
        await until(lambda: gui.sessions.property("currentAgent") == NAME, 15, "the session")
        await closed(gui, dialog)
        shown = gui.state.shown
        assert shown is not None and shown.branch == "feat/tidy"
        Path(shown.cwd, "tidy.txt").write_text("tidied\n")  # the agent's work

        await keys("ctrl+shift+g")
        changes = await opened(gui, "changesDialog")
        titles = lambda: [r.title for r in gui.views.changes_view.scope_model.rows()]  # noqa: E731
        await until(lambda: "The whole branch against main" in titles(), 10, "the branch")
        await keys("Escape")
        await closed(gui, changes)

        await keys("ctrl+k")
        await type_text("Merge")
        await keys("Return")
        merge = await opened(gui, "mergeDialog")
        await until(lambda: "1 file changed" in gui.item("mergeSummary").property("text"), 10)
        await tab_to(gui, "mergeMessage")
        await keys("ctrl+a")
        await type_text("Tidy the parser")
        await keys("ctrl+Return")
        await until(lambda: gui.state.notice.startswith("Merged ⎇ feat/tidy into main"), 15)
        await closed(gui, merge)
        assert git(repo, "log", "-1", "--format=%s") == "Tidy the parser"
        assert (repo / "tidy.txt").read_text() == "tidied\n"

        await keys("ctrl+k")
        await type_text("Remove the worktree")
        await keys("Return")
        await until(lambda: not Path(shown.cwd).exists(), 15, "the worktree removed")
        # said once the host answers, which is after the folder is gone
        await until(lambda: gui.state.notice.startswith("Removed the worktree"), 15, "said")

    gui.run(body(), timeout=100)


def test_an_earlier_session_imported_a_message_resent_and_a_form_answered_by_keys(
    gui: Gui, tmp_path: Any
) -> None:
    """Issue 52 under a window manager, by keys only: the palette's "Open an earlier …
    session…", its folder typed, the second listed opened with its history; E takes the
    user's last message into the input, edited and resent in a fork; the agent's form
    that turn asks for is answered in its dialog."""
    from tests.ui.test_agents import NAME, configure, transcript

    configure(gui, "--sessions")
    work = tmp_path / "work"
    work.mkdir()

    async def body() -> None:
        await launched(gui)
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await keys("ctrl+k")
        await type_text(f"Open an earlier {NAME}")
        await keys("Return")
        earlier = await opened(gui, "earlierDialog")
        assert gui.item("earlierFolder").hasActiveFocus()
        await type_text(str(work))
        await keys("Return")
        await until(lambda: gui.item("earlierList").hasActiveFocus(), 10, "the list")
        await until(lambda: len(gui.views.earlier_view.model.rows()) == 2, 10, "a page")
        await keys("Down", "Return")
        await until(lambda: "Done." in transcript(gui), 15, "its history")
        await closed(gui, earlier)
        imported = gui.state.current

        await keys("shift+F6", "e")  # the transcript, then its last message of the user's
        await until(lambda: gui.item("composerInput").hasActiveFocus(), 5, "the input")
        assert gui.item("composerInput").property("text") == "Thanks"
        await keys("ctrl+a")
        await type_text("form")
        await keys("Return")
        await until(lambda: gui.state.current not in (None, imported), 10, "the fork")
        form = await opened(gui, "formDialog")
        await type_text("ada")
        await keys("Return")
        await closed(gui, form)
        said = lambda: [t for t in transcript(gui) if t.startswith("form: ")]  # noqa: E731
        await until(said, 15, "the agent's word")
        assert said()[0].startswith("form: accept") and '"name": "ada"' in said()[0]
        assert "Thanks" not in transcript(gui)  # the fork from before the message resent

    gui.run(body(), timeout=100)


@pytest.mark.timeout(150)  # real Claude Code starts and takes its turn
def test_a_remote_claude_code_session_made_from_the_new_menu_and_used_by_keys(
    gui: Gui, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 51 under a window manager, by keys only: real Claude Code (its model
    scripted) under a second host, reached as a remote host: made from the New menu's
    "Remote session…" on that host's agent, in a worktree of a repository there; a
    message typed, its approval answered by Alt+Y, its plan the dock's checklist, its
    file made in its worktree there and not in the checkout."""
    import json
    import tempfile
    from pathlib import Path

    from harness import real_agents
    from harness.agent_calls import AGENTS, plan_call, risky_call
    from harness.fake_models import Reply, ScriptedModels
    from harness.host_process import host_env, running_host
    from tests.e2e.test_checkpoints import repository

    bin_dir = real_agents.installed()
    short = Path(tempfile.mkdtemp(prefix="far-", dir="/tmp"))  # Unix socket paths are short
    repo = repository(tmp_path / "repo")
    far = tmp_path / "far-data"
    far.mkdir()
    monkeypatch.setenv("NIB_RACP_TOKEN", "far-token-wm")
    with ScriptedModels() as models:
        entry = AGENTS["claude"](bin_dir, tmp_path / "claude-home", models.url)
        (far / "settings.json").write_text(json.dumps({"agents": {"claude": entry}}))
        env = host_env(NIB_HOST_TOKEN="far-token-wm")
        with running_host(far, str(short / "far.sock"), env):

            async def body() -> None:
                await launched(gui)
                await keys("ctrl+shift+n")  # the New menu: Remote session…
                await until(lambda: gui.window.findChild(object, "newMenu").property("opened"))
                await keys("Down", "Down", "Down", "Return")
                dialog = await opened(gui, "remoteDialog")
                await type_text(f"unix:{short / 'far.sock'}")
                await tab_to(gui, "listRemoteButton")
                await keys("space")  # that host's sessions and agents listed
                box = gui.item("remoteAgentBox")
                await until(lambda: box.property("count") == 2, 20, "the host's agents")
                await tab_to(gui, "remoteAgentBox")
                await keys("Down")  # nib, then its own Claude Code
                await until(lambda: box.property("currentText") == "claude", 5, "chosen")
                await tab_to(gui, "remoteFolderField")
                await type_text(str(repo))
                await until(lambda: gui.item("remoteWorktreeBox").property("enabled"), 10)
                await tab_to(gui, "remoteWorktreeBox")
                await keys("space")
                await keys("Return")  # on the box just ticked: attached, as from a field
                await until(lambda: gui.state.shown is not None and gui.state.shown.remote, 60)
                await closed(gui, dialog)
                shown = gui.state.shown
                assert shown.agent == "claude" and shown.branch
                tree = Path(shown.cwd)
                models.script = [
                    Reply(calls=(plan_call("claude", "in_progress", "pending"),)),
                    Reply(calls=(risky_call("claude", tree),)),
                    Reply(calls=(plan_call("claude", "completed", "completed"),)),
                    Reply("Made it."),
                ]
                await type_text("Make a file")
                await keys("Return")
                await until(lambda: gui.approvals.property("approvalId") != "", 120, "asked")
                await keys("alt+y")
                await until(
                    lambda: (
                        not gui.sessions.property("currentRunning")
                        and gui.state.turn(gui.state.current).state == "completed"
                    ),
                    120,
                    "the turn's end",
                )
                assert [r.content for r in gui.dock.model.rows()] == ["Step 1", "Step 2"]
                assert (tree / "made.txt").exists() and not (repo / "made.txt").exists()

            gui.run(body(), timeout=240)
