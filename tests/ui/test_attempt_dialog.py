"""One task tried by several agents, started from the window (issue 50, point 1, in
part): the palette's "Try a task with several agents…", a repository, the task, two
agents (the scripted ACP agent and Nib's own); each run is a session in a worktree of its
own from one base, the first shown, the sidebar naming each one's branch."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from nib_desktop.state import events as ev, intents as it
from tests.e2e.test_worktrees import repository
from tests.ui.test_agents import NAME, configure
from tests.ui.test_earlier_sessions import palette


def test_a_task_tried_by_two_agents(gui: Gui, tmp_path: Path) -> None:
    configure(gui)
    repo = repository(tmp_path / "repo")

    async def body() -> None:
        await gui.start()
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await palette(gui, "Try a task with several")
        await until(lambda: gui.window.findChild(object, "attemptDialog"), what="the dialog")
        dialog = gui.window.findChild(object, "attemptDialog")
        await until(lambda: dialog.property("opened"), what="the dialog open")
        gui.item("attemptFolder").setProperty("text", str(repo))
        gui.item("attemptTask").setProperty("text", "demo: 1 steps")
        start = gui.item("startAttempt")
        await gui.frame()
        assert not start.property("enabled")  # fewer than two agents
        gui.item(f"attemptAgent_{NAME}").setProperty("checked", True)
        gui.item("attemptAgent_nib").setProperty("checked", True)
        await gui.frame()
        assert start.property("enabled")
        gui.item("attemptCheck").forceActiveFocus()
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: len(gui.state.sessions) == 2, 15, "the two runs")
        runs = sorted(gui.state.sessions, key=lambda s: s.agent)
        assert [s.agent for s in runs] == ["", NAME]  # Nib's own, and the agent
        assert all(s.branch.startswith("nib/") for s in runs)
        await until(lambda: gui.state.notice.startswith("Started 2 runs"), 10, "said")
        assert gui.state.current in {s.session_id for s in runs}
        # one group in the sidebar, its heading over its first run (issue 50, point 4)
        await until(
            lambda: (
                [g.property("text") for g in gui.visible_items("sessionGroup")]
                == ["Tried by 2 agents: demo: 1 steps"]
            ),
            10,
            "the attempt's heading",
        )

    gui.run(body(), timeout=60)


CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def runs_shown(gui: Gui) -> list[str]:
    """The agents of the runs' columns, as drawn."""
    return sorted(i.objectName() for i in columns(gui))


def columns(gui: Gui) -> list[object]:
    from harness.gui import walk

    return [
        i
        for i in walk(gui.window.contentItem())
        if i.objectName().startswith("run_") and i.isVisible()
    ]


@pytest.mark.timeout(180)
def test_the_runs_side_by_side_compared_and_one_kept_by_keys(
    gui: Gui, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 50, points 2-4 in part: the runs' view (Ctrl+Shift+A) shows one column per
    run with its turn, checklist, changes and check, live; C compares the run with the
    next in the Changes view (pinned above its steps); K shows the run and opens its
    worktree's merge."""
    configure(gui)
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    repo = repository(tmp_path / "repo")

    async def body() -> None:
        await gui.start()
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await gui.actions.attempts.attempt(
            it.StartAttempt(str(repo), "demo: 2 steps", (NAME, "nib"), "", "true")
        )
        await until(lambda: len(gui.state.attempts) == 1, 15, "the attempt told")
        (attempt,) = gui.state.attempts.values()

        def ended() -> bool:
            runs = gui.state.attempts[attempt.attempt_id].runs
            return all(r.state == "completed" and r.check_state == "passed" for r in runs)

        await until(ended, 60, "both runs done and checked")
        await gui.key(Qt.Key.Key_A, CTRL_SHIFT)
        await until(lambda: gui.window.findChild(object, "runsDialog"), what="the runs' view")
        dialog = gui.window.findChild(object, "runsDialog")
        await until(lambda: dialog.property("opened"), what="the runs' view open")
        await until(lambda: len(columns(gui)) == 2, 10, "two columns")
        assert runs_shown(gui) == sorted([f"run_{NAME}", "run_nib"])
        turns = [i.property("text") for i in gui.visible_items("runTurn")]
        assert len(turns) == 2 and all(t.startswith("done in ") for t in turns), turns
        checks = [i.property("text") for i in gui.visible_items("runCheck")]
        assert checks == ["check passed", "check passed"]
        # the plans side by side: Nib's five steps, each done; the agent kept none
        steps = [i.property("text") for i in gui.visible_items("runStep")]
        assert len(steps) == 5 and all(s.startswith("✓ ") for s in steps), steps
        assert str(dialog.property("title")).startswith("2 runs of “demo: 2 steps” from ")

        await gui.key(Qt.Key.Key_C)  # the shown run against the next
        await until(lambda: gui.state.changes.pinned != (), 15, "the comparison")
        scope = gui.state.changes.scopes[0]
        assert scope.title.startswith("From ") and scope.title.endswith("'s")
        assert gui.state.changes.session_id == gui.state.current
        changes = gui.window.findChild(object, "changesDialog")
        await until(lambda: changes.property("opened"), what="the Changes view open")
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: not changes.property("visible"), what="the Changes view closed")

        await gui.key(Qt.Key.Key_A, CTRL_SHIFT)
        await until(lambda: dialog.property("opened"), what="the runs' view again")
        await gui.key(Qt.Key.Key_Right)
        await gui.key(Qt.Key.Key_K)  # keep the other run
        await until(lambda: gui.window.findChild(object, "mergeDialog"), what="the merge")
        merge = gui.window.findChild(object, "mergeDialog")
        await until(lambda: merge.property("opened"), what="the merge open")
        kept = gui.state.shown
        assert kept is not None and kept.attempt == attempt.attempt_id
        assert merge.property("title") == f"Merge ⎇ {kept.branch} into its base"
        await gui.key(Qt.Key.Key_Return)  # squash: merged into the checkout
        await until(lambda: gui.state.notice.startswith("Merged ⎇"), 20, "the merge said")

        # the others removed: asked first, naming what each would lose
        await gui.key(Qt.Key.Key_A, CTRL_SHIFT)
        await until(lambda: dialog.property("opened"), what="the runs' view, a third time")
        selected = [c for c in columns(gui) if c.property("selected")]
        assert len(selected) == 1 and selected[0].property("run")["shown"]  # the kept one
        await gui.key(Qt.Key.Key_Delete)
        question = gui.item("runsQuestion")
        await until(lambda: question.property("text") != "", what="the question")
        other = next(s for s in gui.state.sessions if s.session_id != kept.session_id)
        assert question.property("text").startswith("Remove the worktrees and branches of ")
        assert "no changes" in question.property("text") and "lost" in question.property("text")
        assert Path(other.cwd).is_dir()  # nothing removed before the second press
        await gui.key(Qt.Key.Key_Delete)
        await until(lambda: not Path(other.cwd).exists(), 20, "the other worktree removed")
        await until(lambda: gui.state.notice.startswith("Removed the worktrees of "), 10, "said")
        assert Path(kept.cwd).is_dir()

    gui.run(body(), timeout=120)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("heard", [True, False], ids=["turns heard", "turns not yet heard"])
def test_every_run_stopped_at_once(
    gui: Gui, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heard: bool
) -> None:
    """Issue 50, point 5: "Stop every run" (the runs' view, or the palette) stops each
    running run's turn; the runs say so. Also when the attempt told its runs' turns
    before the window heard of them from their sessions (such a run was left running)."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "5000")
    repo = repository(tmp_path / "repo")

    async def body() -> None:
        await gui.start()
        await gui.actions.attempts.attempt(
            it.StartAttempt(str(repo), "demo: 3 steps", ("nib", "nib"), "", "")
        )

        def runs() -> tuple[object, ...]:
            told = list(gui.state.attempts.values())
            return told[0].runs if told else ()

        await until(lambda: len(runs()) == 2 and all(r.state == "running" for r in runs()), 20)
        # the same agent twice: its runs are told apart in the sidebar as in their view
        titles = [gui.state.session(r.session_id).title for r in runs()]
        assert titles == ["demo: 3 steps · nib", "demo: 3 steps · nib #2"], titles
        assert [r.agent for r in runs()] == ["nib", "nib #2"]
        if not heard:  # the window knows of no running turn in the runs' sessions
            for run in runs():
                session = gui.state.session(run.session_id)
                gui.state.apply(ev.SessionChanged(session._replace(running_turn="")))
        await gui.key(Qt.Key.Key_A, CTRL_SHIFT)
        await until(lambda: gui.window.findChild(object, "runsDialog"), what="the runs' view")
        dialog = gui.window.findChild(object, "runsDialog")
        await until(lambda: dialog.property("opened"), what="the runs' view open")
        stop = gui.item("stopAllRuns")
        await until(lambda: stop.isVisible() and stop.width() > 0, 5, "the button")
        await gui.steady(stop)
        first = gui.rect_of(stop)

        # the view keeps its size as the runs' plans arrive in their columns: its button
        # stays where it was (it moved 23 px down, and a click there landed beside it)
        def plans_shown() -> bool:  # each run's plan in its column, as the state holds it
            held = [gui.state.snapshot(r.session_id) for r in runs()]
            steps = sum(len(h.items) for h in held if h is not None)
            return all(held) and len(gui.visible_items("runStep")) == steps

        await until(plans_shown, 10, "both plans shown")
        await gui.steady(stop)
        assert gui.rect_of(stop) == first, "the button moved as the plans arrived"
        await gui.click(stop)
        await until(
            lambda: all(r.state == "cancelled" for r in runs()),
            20,
            lambda: f"both stopped: {[r.state for r in runs()]}, notice {gui.state.notice!r}",
        )
        await until(lambda: gui.state.notice == "Stopped 2 runs", 5, "said")
        await until(
            lambda: (
                [str(i.property("text"))[:7] for i in gui.visible_items("runTurn")]
                == ["stopped"] * 2
            ),
            5,
            "the columns say so",
        )

    gui.run(body(), timeout=100)


def test_the_composers_task_goes_to_several_agents_with_its_attachments(
    gui: Gui, tmp_path: Path
) -> None:
    """Issue 50, point 1: Ctrl+Alt+N (and the New menu) opens the dialog on what the
    composer holds: its text is the task, in the shown session's folder; its image and the
    files its text names with "@" go with each run; the draft is taken once the runs
    start. The check given last on a repository is offered again for it."""
    import json
    import sys

    from harness import ACP_AGENT
    from nib_desktop.state import events as ev
    from nib_desktop.state.attachments import HeldImage

    gui.data_dir.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(ACP_AGENT)], "env": {"PACE_S": "0.05"}}
    agents = {"Agent A": entry, "Agent B": entry}
    (gui.data_dir / "settings.json").write_text(json.dumps({"agents": agents}))
    repo = repository(tmp_path / "repo")
    png = (  # one pixel
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    )

    async def open_dialog() -> object:
        await gui.key(
            Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        )
        await until(lambda: gui.window.findChild(object, "attemptDialog"), what="the dialog")
        dialog = gui.window.findChild(object, "attemptDialog")
        await until(lambda: dialog.property("opened"), what="the dialog open")
        return dialog

    async def start(dialog: object) -> None:
        gui.item("attemptAgent_Agent A").setProperty("checked", True)
        gui.item("attemptAgent_Agent B").setProperty("checked", True)
        await gui.frame()
        gui.item("attemptCheck").forceActiveFocus()
        await gui.key(Qt.Key.Key_Return)

    async def body() -> None:
        await gui.start()
        await until(lambda: gui.sessions.property("agentCount") == 2, 10, "the agents listed")
        source = await gui.actions.sessions.create_session("agent", "Agent A", str(repo))
        await until(lambda: gui.state.current == source.id, what="shown")
        gui.item("composerInput").setProperty("text", "attached @notes.txt")
        gui.state.apply(ev.ImagesHeld(source.id, (HeldImage("image/png", png, "Image 1"),)))
        dialog = await open_dialog()
        assert gui.item("attemptTask").property("text") == "attached @notes.txt"
        assert gui.item("attemptFolder").property("text") == str(repo)
        said = gui.item("attemptAttachments").property("text")
        assert "The image from the composer" in said and "@" in said
        # the repository's last check asked for as the dialog opened: none yet
        await until(lambda: gui.state.recalled_check == (str(repo), ""), 10, "the recall")
        gui.item("attemptCheck").setProperty("text", "python3 -c pass")
        await start(dialog)
        await until(lambda: gui.state.notice.startswith("Started 2 runs"), 15, "the two runs")
        runs = [s for s in gui.state.sessions if s.attempt]
        assert (
            len(runs) == 2
            and gui.state.drafts.get(source.id, "") == ""
            and not gui.state.images.get(source.id)
        )

        async def got(run_id: str) -> str:
            gui.sessions.show(run_id)
            await until(
                lambda: any(line.text.startswith("got: ") for line in gui.state.transcript.lines),
                20,
                "the run's answer",
            )
            return next(x.text for x in gui.state.transcript.lines if x.text.startswith("got: "))

        for run in runs:  # the file as the agent's embedded text, the image beside it
            answer = await got(run.session_id)
            assert "notes.txt 'one\\ntwo\\nthree\\n'" in answer and "image image/png" in answer
        # the same repository again: its check is offered, as given last time
        gui.sessions.show(source.id)
        await until(lambda: gui.state.current == source.id, what="the source shown")
        dialog = await open_dialog()
        assert gui.item("attemptTask").property("text") == ""  # the draft went with the runs
        await until(
            lambda: gui.item("attemptCheck").property("text") == "python3 -c pass",
            10,
            "the check recalled",
        )
        dialog.close()

    gui.run(body(), timeout=90)
