"""Sessions on external ACP agents in the real window (contract section 15): the scripted
agent on the SDK (harness/acp_agent.py) behind the real host; every step a real
key event."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from harness import ACP_AGENT
from harness.gui import Gui
from harness.waiting import until
from nib_desktop.state import events as ev

pytestmark = pytest.mark.in_memory  # the host core in this process (tests/helpers/gui.py)

AGENT = ACP_AGENT
NAME = "Scripted Agent"
ALT = Qt.KeyboardModifier.AltModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def configure(gui: Gui, *args: str) -> None:
    gui.data_dir.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(AGENT), *args], "env": {"PACE_S": "0.05"}}
    (gui.data_dir / "settings.json").write_text(json.dumps({"agents": {NAME: entry}}))


def transcript(gui: Gui) -> list[str]:
    return [row.text for row in gui.transcript.model.rows()]


async def send(gui: Gui, text: str) -> None:
    """Send `text`; return once its turn began (it may have ended already)."""
    before = gui.state.turn(gui.state.current).turn_id
    gui.item("composerInput").setProperty("text", text)
    await gui.key(Qt.Key.Key_Return)
    await until(lambda: gui.state.turn(gui.state.current).turn_id != before, 10, "the turn")


async def agent_session(gui: Gui) -> None:
    """The window started, the agent listed, and a new session on it shown."""
    await gui.start()
    await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
    work = gui.data_dir.parent / "work"  # its folder, small, as checkpoints read it
    work.mkdir(exist_ok=True)
    await gui.actions.sessions.create_session("agent", NAME, str(work))


def palette(gui: Gui) -> object:
    return gui.window.findChild(object, "commandPalette")


async def choose(
    gui: Gui,
    typed: str,
    key: Qt.Key = Qt.Key.Key_K,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.ControlModifier,
    prefilled: str = "",
) -> None:
    """The palette opened by `key`, `typed` into it and run; with `prefilled`, what its
    field must hold and every row shown begin with."""
    from tests.ui.test_keyboard import type_text

    await gui.key(key, modifier)
    await until(
        lambda: palette(gui) is not None and palette(gui).property("opened"), what="palette"
    )
    if prefilled:
        assert gui.item("paletteField").property("text") == prefilled
        names = [row.property("text") for row in gui.visible_items("paletteName")]
        assert names and all(n.startswith(prefilled) for n in names), names
    await type_text(gui, typed)
    await gui.key(Qt.Key.Key_Return)
    await until(lambda: not palette(gui).property("visible"), what=f"ran {typed!r}")


async def open_agent_dialog(gui: Gui) -> Any:
    """The New menu by Ctrl+Shift+N, its agent entry (Plan, Goal, Remote…, then the
    agent: separators skipped) by Down, and the agent dialog it opens."""
    await gui.key(Qt.Key.Key_N, CTRL_SHIFT)
    return await open_from_menu(gui, 4, "agentDialog")


async def open_from_menu(gui: Gui, downs: int, dialog_name: str) -> Any:
    """The open menu's entry `downs` down (separators skipped) chosen by Return, and the
    dialog `dialog_name` it opens, once open."""
    for _ in range(downs):
        await gui.key(Qt.Key.Key_Down)
    await gui.key(Qt.Key.Key_Return)
    await until(lambda: gui.window.findChild(object, dialog_name), what="the dialog")
    dialog = gui.window.findChild(object, dialog_name)
    await until(lambda: dialog.property("opened"), what="the dialog open")
    return dialog


async def turn_end(gui: Gui) -> None:
    def ended() -> bool:
        turn = gui.state.turn(gui.state.current)
        return turn.state not in ("idle", "running") and not gui.sessions.property("currentRunning")

    await until(ended, 30, "the turn's end")
    await gui.frame()


def test_a_new_agent_session_by_keyboard_and_its_plan_in_the_dock(gui: Gui, tmp_path: Path) -> None:
    configure(gui)
    work = tmp_path / "work"
    work.mkdir()

    async def body() -> None:
        await gui.start()
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        await gui.key(Qt.Key.Key_N, CTRL_SHIFT)  # the New menu, its first entry current
        for _ in range(4):  # Plan, Goal, Remote…, then the agent (separators skipped)
            await gui.key(Qt.Key.Key_Down)
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.window.findChild(object, "agentDialog"), what="the dialog")
        dialog = gui.window.findChild(object, "agentDialog")
        await until(lambda: dialog.property("opened"), what="the dialog open")
        assert dialog.property("title") == f"New {NAME} session"
        field = gui.item("folderField")
        assert field.hasActiveFocus() and field.property("text") == "~"
        # a folder that is not there is said as it is typed; Return keeps the dialog
        field.setProperty("text", str(work / "missing"))
        await gui.frame()
        assert gui.item("folderProblem").property("text") == f"There is no folder {work}/missing"
        await gui.key(Qt.Key.Key_Return)
        await gui.frame()
        assert dialog.property("opened") and field.property("text") == f"{work}/missing"
        field.setProperty("text", str(work))
        await gui.frame()
        assert not gui.item("folderProblem").isVisible()
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.sessions.property("currentAgent") == NAME, 10, "the session")
        assert gui.sessions.property("currentFolder") == str(work)
        assert gui.item("sessionKind").property("text") == f"{NAME} · {work}"
        await until(lambda: gui.visible_items("sessionAgent"), 5, "the session's row laid out")
        assert gui.visible_items("sessionAgent")[0].property("text") == f"{NAME} · {work}"
        await until(lambda: gui.item("composerInput").hasActiveFocus(), what="the input")

        await send(gui, "plan three steps")
        await turn_end(gui)
        assert (gui.dock.property("completed"), gui.dock.property("total")) == (3, 3)
        assert gui.dock.property("revision") == 4
        assert [row.content for row in gui.dock.model.rows()] == ["Step 1", "Step 2", "Step 3"]
        lines = transcript(gui)
        assert "Checklist: 3 steps" in lines and lines[-1] == "All steps done."

        await send(gui, "ask")  # a permission request is the composer's approval row
        await until(lambda: gui.approvals.property("approvalId") != "", 10, "the approval")
        await gui.frame()
        assert gui.item("approvalTitle").property("text") == "The agent asks: Write notes.txt"
        await gui.key(Qt.Key.Key_Y, ALT)
        await turn_end(gui)
        assert transcript(gui)[-1] == "permission: yes"

        await gui.key(Qt.Key.Key_T, CTRL_SHIFT)  # the Tools view lists the agent
        rows = gui.tools.model.rows()
        assert (rows[0].name, rows[0].kind, rows[0].state) == (NAME, "ACP agent", "ready")
        assert rows[0].tools == "scripted-agent 1.2.3"

    gui.run(body(), timeout=60)


def test_an_agent_that_shares_no_checklist_says_so(gui: Gui) -> None:
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        assert gui.sessions.property("currentFolder").endswith("/work")
        assert not gui.dock.property("shown")  # nothing to say before its first turn
        await send(gui, "think about it")
        await turn_end(gui)
        assert gui.dock.property("shown") and gui.dock.property("unavailable")
        assert gui.dock.property("unavailableText") == (
            f"{NAME} shares no checklist: it sent no plan in this session."
        )
        lines = [row for row in gui.transcript.model.rows() if row.kind == "thought"]
        assert [row.text for row in lines] == ["Let me think."]
        await send(gui, "exit")  # an agent that dies: the turn's end in words
        await turn_end(gui)
        assert transcript(gui)[-1] == (
            f"✕ Turn failed: {NAME}: it exited (exit status 3): fatal: the scripted agent gave up"
        )

    gui.run(body(), timeout=60)


def test_text_shows_as_it_arrives_and_the_stored_message_takes_its_place(gui: Gui) -> None:
    """The agent pauses after its first line: the window shows that line, still arriving,
    before the message is stored; once stored the message is one row and nothing is
    shown twice."""
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "stream")
        live = gui.item("liveText")
        await until(lambda: live.property("text").startswith("Hello world\n"), 10, "the text")
        await gui.frame()
        assert live.isVisible()
        assert "Hello world" not in "".join(transcript(gui))  # not stored yet
        await turn_end(gui)
        await until(lambda: not live.property("text"), 10, "the live text gone")
        assert not live.isVisible()
        assert transcript(gui).count("Hello world\nsecond line") == 1

    gui.run(body(), timeout=60)


def test_an_edit_shows_its_diff_and_a_command_its_output(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tool result says what the call did: the file and its counts on its line, the
    coloured unified diff under it (folded to its first lines until clicked), and a
    command's output as it printed it. The diff's file opens in the user's editor at
    its first changed line."""
    configure(gui)
    opened = gui.data_dir.parent / "opened.txt"
    editor = gui.data_dir.parent / "editor.sh"
    editor.write_text(f'#!/bin/sh\necho "$@" > {opened}\n')
    editor.chmod(0o755)
    monkeypatch.setenv("VISUAL", str(editor))

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "edit")
        await turn_end(gui)
        lines = transcript(gui)
        assert "✓ Edited app.py +1 −2" in lines  # the call's line, its end in place
        assert "✓ Run tests · collected 3 items" in lines
        rows = {row.text: row for row in gui.transcript.model.rows()}
        diff = rows["✓ Edited app.py +1 −2"]
        assert diff.detail_kind == "diff"
        assert "-line 5\n+line five" in diff.detail and "-line 20" in diff.detail
        assert rows["✓ Run tests · collected 3 items"].detail.endswith("3 passed in 0.01s")
        await gui.frame()
        shown = [d for d in gui.visible_items("toolDetail")]
        assert len(shown) == 2
        folded = shown[0].property("text")
        assert "line five" in folded and "more lines ▸" in folded  # 14 lines: folded to 12
        assert "color:#2f9e44" in folded  # the addition coloured
        await gui.click(shown[0])
        await until(lambda: "more lines" not in shown[0].property("text"), 5, "unfolded")
        assert "-line 20" in shown[0].property("text")
        assert '<a href="place:0"><span style="color:#4a8fe0">+++ app.py</span></a>' in (
            diff.detail_html
        )
        (gui.data_dir.parent / "work" / "app.py").write_text("")
        gui.transcript.activateLink(list(rows.values()).index(diff), "place:0")
        await until(opened.exists, 10, "the editor started")
        work = gui.data_dir.parent / "work"
        assert opened.read_text().strip() == f"+5 {work / 'app.py'}"
        opened.unlink()  # and by keyboard: O in the transcript (issue 47, point 22)
        gui.item("transcriptList").forceActiveFocus()
        await gui.key(Qt.Key.Key_O)
        await until(opened.exists, 10, "the editor started by O")
        assert opened.read_text().strip() == f"+5 {work / 'app.py'}"
        # the call's input, kept out of its line, is shown with the line unfolded
        await until(lambda: len(gui.visible_items("toolInput")) == 1, 5, "the input shown")
        said = gui.visible_items("toolInput")[0].property("text")
        assert said.startswith("Input:\n") and "{" not in said, said  # its fields, not JSON

    gui.run(body(), timeout=60)


def test_a_sub_agents_calls_are_folded_under_their_task(gui: Gui) -> None:
    """Claude Code's Task: its sub-agent's calls have no line of their own; the Task's
    line counts them and their state, and lists them under it, folded to that count
    until clicked (issue 52, point 5)."""
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "subagent")
        await turn_end(gui)
        task = "✓ Task Explore · Found it. · 2 sub-agent calls, 1 failed"
        await until(lambda: task in transcript(gui), 10, "the Task's line")
        assert not [line for line in transcript(gui) if "Read a.py" in line or "Run ls" in line]
        await gui.frame()
        shown = gui.visible_items("toolDetail")
        assert len(shown) == 1
        folded = shown[0].property("text")
        assert "Its sub-agent's calls:" in folded and "Run ls" not in folded
        assert "more lines ▸" in folded
        await gui.click(shown[0])
        await until(lambda: "Run ls" in shown[0].property("text"), 5, "unfolded")
        assert "✓ Read a.py" in shown[0].property("text")

    gui.run(body(), timeout=60)


def test_an_agents_markdown_is_rendered_and_its_html_shown_as_text(gui: Gui) -> None:
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "markdown")
        await turn_end(gui)
        await gui.frame()
        [shown] = [t for t in gui.items("transcriptText") if "Bold" in t.property("text")]
        made = shown.property("text")
        assert "font-weight" in made and "&lt;script&gt;alert(1)&lt;/script&gt;" in made
        assert "<script" not in made and "**Bold**" not in made
        assert 'href="https://example.org"' in made and "(https://example.org)" in made
        row = next(r for r in gui.transcript.model.rows() if r.kind == "assistant")
        assert row.text.startswith("# Done\n\n**Bold**")  # copied as the agent wrote it
        assert '<a href="copy:0">' in made  # the code block's own Copy
        # by keyboard: F6 to the transcript, C the last code block in view, M the line
        from PySide6.QtGui import QGuiApplication

        clipboard = QGuiApplication.clipboard()
        await gui.key(Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)  # input -> transcript
        assert gui.item("transcriptList").hasActiveFocus()
        await gui.key(Qt.Key.Key_C)
        assert clipboard.text() == "print(1)\n"
        assert gui.item("copiedNote").property("text") == "Code block copied"
        await gui.key(Qt.Key.Key_M)
        assert clipboard.text() == row.text
        clipboard.setText("")
        at = list(gui.transcript.model.rows()).index(row)
        gui.transcript.activateLink(at, "copy:0")  # what a click on the link runs
        assert clipboard.text() == "print(1)\n"
        # S: the keyboard into the last line's text; Shift+keys select, Ctrl+C copies
        await gui.key(Qt.Key.Key_S)
        await until(
            lambda: gui.window.activeFocusItem().objectName() == "transcriptText",
            5,
            "the keyboard in the line",
        )
        await gui.key(
            Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        await gui.key(Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
        assert "Bold words" in clipboard.text() and "See the docs" in clipboard.text()
        await gui.key(Qt.Key.Key_Escape)
        assert gui.item("transcriptList").hasActiveFocus()
        # a long answer's fold hides its last block: C copies the last one shown, and
        # once Return unfolded it, the last one (issue 47, point 10)
        gui.item("composerInput").forceActiveFocus()
        await send(gui, "longmarkdown")
        await turn_end(gui)
        gui.item("transcriptList").forceActiveFocus()
        await gui.key(Qt.Key.Key_End)
        await gui.frame()
        await gui.key(Qt.Key.Key_C)
        assert clipboard.text() == "print(1)\n"
        await gui.key(Qt.Key.Key_Return)  # every line unfolded
        await gui.frame()
        await gui.key(Qt.Key.Key_End)
        await gui.frame()
        await gui.key(Qt.Key.Key_C)
        assert clipboard.text() == "print('hidden')\n"

    gui.run(body(), timeout=60)


def test_the_agents_own_commands_are_offered_and_sent_to_it(gui: Gui) -> None:
    """Contract 17: "/" offers the agent's commands (and not /compact, Nib's own), and
    one of them goes to the agent as the message, not refused as unknown."""
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        # the agent is started and its session opened when the session is shown: its
        # commands, mode and model are there before the first prompt (issue 47, point 15)
        hint = gui.item("composerInput")
        sid = gui.state.current or ""
        await until(lambda: sid in gui.state.steering, 10, "the agent's commands")
        assert gui.state.transcript.lines == ()  # nothing was sent
        await until(lambda: gui.item("steeringText").property("text").startswith("Default mode"), 5)
        await until(
            lambda: "lists the agent's commands" in hint.property("placeholderText"), 5, "hint"
        )
        offered = [row["name"] for row in gui.composer.completions("/")]
        assert "/review" in offered and "/continue" in offered
        assert "/compact" not in offered
        assert [row["what"] for row in gui.composer.completions("/rev")] == ["Review the changes"]
        whose = {row["name"]: row["whose"] for row in gui.composer.completions("/")}
        assert whose["/review"] == NAME and whose["/continue"] == "Nib"  # marked whose
        await send(gui, "/review")
        await turn_end(gui)
        await until(lambda: any("echo: /review" in t for t in transcript(gui)), 10, "the echo")
        assert gui.state.notice == ""  # not "There is no command"

    gui.run(body(), timeout=60)


def test_the_mode_and_model_are_shown_and_chosen_from_the_palette(gui: Gui) -> None:
    """Contract 17 in the window: the composer says the agent's mode, model and usage;
    the palette offers the other modes and models, and a choice is the agent's once it
    accepted it."""
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "hello")
        await turn_end(gui)
        line = gui.item("steeringText")
        await until(
            lambda: line.property("text") == "Default mode · Small", 10, "the mode and model"
        )
        assert line.isVisible()
        await choose(gui, "model large")
        await until(lambda: line.property("text") == "Default mode · Large", 10, "the model chosen")
        await choose(gui, "mode plan")
        await until(lambda: line.property("text") == "Plan mode · Large", 10, "the mode chosen")
        await send(gui, "plan-mode")
        await turn_end(gui)
        told = "Plan mode · Large · <1 % of context · $0.09"
        await until(lambda: line.property("text") == told, 10, "the usage")
        await choose(gui, "model huge")  # the agent refuses: said, and nothing changes
        await until(lambda: "needs a subscription" in gui.state.notice, 10, "the refusal")
        assert line.property("text") == told

    gui.run(body(), timeout=60)


def test_the_mode_and_model_have_a_key_each_and_wait_for_a_running_turn(gui: Gui) -> None:
    """Ctrl+Shift+M and Ctrl+Shift+O open the palette on the agent's modes and models; a
    choice made while a turn runs is said, and reaches the agent once the turn ends."""
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "hello")
        await turn_end(gui)
        line = gui.item("steeringText")
        await until(
            lambda: line.property("text") == "Default mode · Small", 10, "the mode and model"
        )
        await send(gui, "wait")  # runs until stopped
        await until(lambda: gui.sessions.property("currentRunning"), what="the turn running")
        await choose(gui, "plan", Qt.Key.Key_M, CTRL_SHIFT, "Mode: ")
        await until(lambda: "Plan once this turn ends" in gui.state.notice, 10, "said")
        assert line.property("text") == "Default mode · Small"
        await gui.actions.sessions.cancel_turn()
        await until(
            lambda: line.property("text") == "Plan mode · Small", 10, "the mode after the turn"
        )
        await choose(gui, "large", Qt.Key.Key_O, CTRL_SHIFT, "Model: ")  # no turn runs: at once
        await until(lambda: line.property("text") == "Plan mode · Large", 10, "the model chosen")

    gui.run(body(), timeout=60)


def test_an_agent_that_needs_a_sign_in_offers_its_methods_in_the_palette(gui: Gui) -> None:
    """Contract 17: a turn the agent refuses for want of a sign-in says so, and the
    palette offers the agent's own sign-in methods, run through the host."""
    from tests.ui.test_keyboard import type_text

    gui.data_dir.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(AGENT), "--auth"]}
    (gui.data_dir / "settings.json").write_text(json.dumps({"agents": {NAME: entry}}))

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "hello")
        await turn_end(gui)
        assert "from the palette" in gui.state.turn(gui.state.current).error
        sid = gui.state.current or ""
        await until(
            lambda: gui.state.steering.get(sid) and gui.state.steering[sid].sign_ins,
            10,
            "the sign-in methods",
        )
        # the session says so, with the agent's methods as buttons and keys
        await until(lambda: gui.visible_items("agentAsksRow"), 5, "the sign-in row")
        assert gui.item("agentAsksTitle").property("text") == f"{NAME} asks you to sign in:"
        [button] = gui.visible_items("agentAsk_signin:login")
        assert button.property("text") == "Log in with Scripted (Alt+1)"
        await gui.key(Qt.Key.Key_1, ALT)
        await until(lambda: gui.state.notice.startswith("Signed in to"), 10, "signed in by key")
        gui.state.apply(ev.NoticeShown(""))
        await gui.key(Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
        await until(
            lambda: palette(gui) is not None and palette(gui).property("opened"), what="palette"
        )
        await type_text(gui, "sign in")
        names = [row.property("text") for row in gui.visible_items("paletteName")]
        assert names == [f"Sign in to {NAME}: Log in with Scripted"]
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: gui.state.notice.startswith("Signed in to"), 10, "the sign-in")

    gui.run(body(), timeout=60)


def test_at_completes_a_file_of_the_folder_and_it_goes_with_the_message(gui: Gui) -> None:
    """Contract 17 in the window: "@" offers the folder's files by a few letters (its
    .gitignore honoured), Return completes one, and the file reaches the agent."""
    configure(gui)

    def offered() -> list[str]:
        shown = gui.visible_items("slashCompletion")
        return [f["name"] for f in gui.composer.files()][: len(shown)]

    async def typed(text: str) -> None:
        for char in text:
            await gui.key(
                Qt.Key.Key_At
                if char == "@"
                else Qt.Key.Key_Space
                if char == " "
                else Qt.Key(ord(char.upper()))
            )

    async def body() -> None:
        await agent_session(gui)
        work = gui.data_dir.parent / "work"
        (work / "src").mkdir()
        (work / "src" / "app.py").write_text("print('hello')\n")
        (work / "build").mkdir()
        (work / "build" / "out.py").write_text("")
        (work / ".gitignore").write_text("build/\n")
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        await typed("attached see @py")
        await until(lambda: offered() != [], 10, "files offered")
        assert offered()[0].startswith("@src/app.py")
        assert not any("out.py" in name for name in offered())  # ignored by .gitignore
        await gui.key(Qt.Key.Key_Return)  # completes, does not send
        assert input_.property("text") == "attached see @src/app.py "
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: any(t.startswith("got: ") for t in transcript(gui)), 15, "the answer")
        said = next(t for t in transcript(gui) if t.startswith("got: "))
        assert (work / "src" / "app.py").resolve().as_uri() in said, said
        # the transcript shows what went with the message, the file a link to open it
        sent = next(r for r in gui.transcript.model.rows() if r.kind == "user")
        assert sent.detail == "Attached:\nsrc/app.py" and sent.places == (("src/app.py", None),)
        assert '<a href="place:0"><span style="color:#4a8fe0">src/app.py</span></a>' in (
            sent.detail_html
        )

    gui.run(body(), timeout=60)


@pytest.mark.parametrize("takes", [True, False], ids=["takes-images", "takes-none"])
def test_a_pasted_image_goes_to_an_agent_that_takes_images(gui: Gui, takes: bool) -> None:
    """Contract 17 in the window: Ctrl+V of an image holds it above the input (named and
    sized, never drawn), and it goes with the next message; an agent that takes no images
    gets none, and the refusal is said."""
    from PySide6.QtGui import QColor, QGuiApplication, QImage

    configure(gui, *([] if takes else ["--no-images"]))

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "hello")  # the agent answered: what it takes is known
        await turn_end(gui)
        image = QImage(8, 8, QImage.Format.Format_RGB32)
        image.fill(QColor("red"))
        QGuiApplication.clipboard().setImage(image)
        gui.item("composerInput").forceActiveFocus()
        await gui.key(Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        if not takes:
            await until(lambda: "takes no images" in gui.state.notice, 10, "the refusal")
            assert gui.visible_items("heldImage") == []
            return
        await until(lambda: len(gui.visible_items("heldImage")) == 1, 10, "the image held")
        assert gui.item("composerInput").property("text") == ""  # not pasted as text
        # its chip shows the image itself, small (a missing emoji glyph before)
        thumbnail = gui.visible_items("heldImageThumbnail")[0]
        await until(lambda: thumbnail.property("implicitWidth") > 0, 10, "the thumbnail drawn")
        await send(gui, "attached")
        await until(lambda: any(t.startswith("got: ") for t in transcript(gui)), 15, "the answer")
        said = next(t for t in transcript(gui) if t.startswith("got: "))
        assert said.startswith("got: image image/png "), said
        sent = [r for r in gui.transcript.model.rows() if r.kind == "user"][-1]
        assert sent.detail.startswith("Attached:\n1 image (PNG, ")
        await until(lambda: gui.visible_items("heldImage") == [], 10, "sent, held no more")

    gui.run(body(), timeout=60)


def test_an_agents_approval_offers_its_own_options_under_its_own_names(gui: Gui) -> None:
    """An agent's permission request shows the agent's options as it named them, never
    Nib's "for this session": Alt+S answers nothing there; Alt+A picks the agent's own
    lasting option (as the agent scopes it), and a click picks any option exactly."""
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "ask")
        await until(lambda: gui.approvals.property("approvalId") != "", 10, "the approval")
        await gui.frame()
        shown = [gui.visible_items(f"agentOption_{o}") for o in ("yes", "always", "no")]
        names = [b.property("text") for found in shown for b in found]
        assert names == ["Allow", "Always", "Reject"]
        assert gui.visible_items("allowSessionButton") == []  # Nib's label never offered
        keys = gui.item("agentOptionKeys").property("text")
        assert "Alt+Y Allow" in keys and "Alt+A Always" in keys and "Alt+N Reject" in keys
        waiting = gui.approvals.property("approvalId")
        await gui.key(Qt.Key.Key_S, ALT)  # Nib's own allowance: not an agent's option
        await gui.frame()
        assert gui.approvals.property("approvalId") == waiting
        await gui.key(Qt.Key.Key_A, ALT)
        await until(lambda: "permission: always" in transcript(gui), 15, "the agent's answer")
        await turn_end(gui)
        await send(gui, "ask")  # the same call again: the agent asks, Nib allows nothing
        await until(lambda: gui.approvals.property("approvalId") != "", 10, "asked again")
        await gui.frame()
        await gui.click(gui.visible_items("agentOption_no")[0])
        await until(lambda: "permission: no" in transcript(gui), 15, "the refusal")
        # the refusal recorded as the user's own answer, under the agent's name for it
        # (issue 47, 19: "No, keep planning", not "Denied: you did not allow …")
        said = "".join(transcript(gui))
        assert "You answered “Reject”" in said and "Denied: you did not allow" not in said

    gui.run(body(), timeout=60)


def test_an_approval_shows_the_diff_or_the_command_it_asks_for(gui: Gui) -> None:
    """Before the user answers: an edit's approval shows its coloured diff, a command's
    the command as the agent would run it, never the agent's own fields; a plan's the
    plan rendered."""
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "askedit")
        await until(lambda: gui.approvals.property("approvalId") != "", 10, "the approval")
        await gui.frame()
        assert gui.item("approvalTitle").property("text") == "The agent asks: Edit app.py"
        shown = gui.visible_items("approvalDetail")
        assert len(shown) == 1 and gui.visible_items("approvalArguments") == []
        html = shown[0].property("text")
        assert "print(2)" in html and "color:#2f9e44" in html and "color:#e03131" in html
        assert gui.visible_items("approvalMore") == []  # all of it in view: nothing said
        await gui.key(Qt.Key.Key_N, ALT)
        await until(lambda: "permission: no" in transcript(gui), 15, "the refusal")
        await turn_end(gui)
        # a long diff says how much is below its box, and scrolls by keyboard from the
        # input (issue 47, point 7)
        await send(gui, "asklong")
        await until(lambda: gui.visible_items("approvalMore"), 10, "the long approval")
        more = gui.item("approvalMore")
        below = int(more.property("below"))
        assert below > 30 and more.property("text").startswith(f"{below} more lines below")
        assert gui.item("composerInput").hasActiveFocus()
        await gui.key(Qt.Key.Key_PageDown, ALT)
        await until(lambda: 0 < more.property("below") < below, 5, "scrolled down a page")
        for _ in range(10):
            await gui.key(Qt.Key.Key_PageDown, ALT)
        await until(lambda: not more.isVisible(), 5, "scrolled to its end")
        await gui.key(Qt.Key.Key_PageUp, ALT)
        await until(lambda: more.isVisible(), 5, "back up a page")
        await gui.key(Qt.Key.Key_N, ALT)
        await until(lambda: transcript(gui).count("permission: no") == 2, 15, "refused")
        await turn_end(gui)
        await send(gui, "askrun")
        await until(lambda: gui.approvals.property("approvalId") != "", 10, "the approval")
        await gui.frame()
        shown = gui.visible_items("approvalDetail")
        html = shown[0].property("text")
        assert "$ rm -rf build" in html and "call_id" not in html and "execpolicy" not in html
        await gui.key(Qt.Key.Key_Y, ALT)
        await until(lambda: "permission: yes" in transcript(gui), 15, "allowed")
        await turn_end(gui)
        # a plan to approve (issue 47, point 19): rendered as the agent wrote it, not
        # its Markdown's marks
        await send(gui, "planask")
        await until(lambda: gui.approvals.property("approvalId") != "", 10, "the approval")
        await gui.frame()
        html = gui.approvals.property("detailHtml")
        assert "<strong>Read</strong>" in html and "<h2>Plan</h2>" in html
        drawn = gui.visible_items("approvalDetail")[0]
        assert "**" not in drawn.property("textDocument").textDocument().toPlainText()
        assert gui.approvals.property("detailMarkdown")
        await gui.key(Qt.Key.Key_Y, ALT)
        await until(lambda: transcript(gui).count("permission: yes") == 2, 15, "approved")

    gui.run(body(), timeout=60)


def marked(item: object) -> int:
    """How many runs of a text item's document the find highlighter marks."""
    holder = item.property("textDocument")  # type: ignore[attr-defined]
    document = holder.textDocument()
    block, runs = document.begin(), 0
    while block.isValid():
        runs += sum(1 for r in block.layout().formats() if r.format.background().style())
        block = block.next()
    return runs


def test_ctrl_f_finds_a_word_in_a_folded_message_and_escape_gives_the_focus_back(
    gui: Gui,
) -> None:
    from tests.ui.test_keyboard import type_text

    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "long")
        await turn_end(gui)
        await send(gui, "tool")
        await turn_end(gui)
        await gui.frame()
        long = next(t for t in gui.items("transcriptText") if "Paragraph 0" in t.property("text"))
        assert "needle" not in long.property("text")  # folded away
        await gui.key(Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        field = gui.item("findField")
        assert field.hasActiveFocus()
        await type_text(gui, "NEEDLE")
        await until(lambda: gui.item("findCount").property("text") == "1 of 1", 5, "counted")
        await until(lambda: "needle" in long.property("text"), 5, "unfolded at the match")
        await until(lambda: marked(long) == 1, 5, "the word marked")
        await type_text(gui, "x")
        await until(lambda: gui.item("findCount").property("text") == "No matches", 5, "none")
        await until(lambda: marked(long) == 0, 5, "no mark")
        await gui.key(Qt.Key.Key_Backspace)
        for _ in "NEEDLE":
            await gui.key(Qt.Key.Key_Backspace)
        await type_text(gui, "notes")  # the tool call's line and its input: two places
        await until(lambda: gui.item("findCount").property("text") == "2 of 2", 5, "both")
        await gui.key(Qt.Key.Key_Return)
        assert gui.item("findCount").property("text") == "1 of 2"  # wrapped to the first
        await gui.key(Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        assert gui.item("findCount").property("text") == "2 of 2"
        await gui.key(Qt.Key.Key_Escape)
        assert not gui.item("findBar").isVisible()
        assert gui.item("composerInput").hasActiveFocus()
        assert marked(long) == 0

    gui.run(body(), timeout=60)


def test_ctrl_c_copies_the_whole_transcript_pages_not_loaded_too(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtGui import QGuiApplication

    from nib_desktop.inbound import loading
    from nib_desktop.work import transcript_copy

    monkeypatch.setattr(loading, "TRANSCRIPT_PAGE", 3)  # a page of three messages shown
    monkeypatch.setattr(transcript_copy, "PAGE", 2)  # and read two at a time
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        for text in ("first question", "edit", "last question"):
            await send(gui, text)
            await turn_end(gui)
        first = gui.state.current
        await gui.actions.sessions.create_session(
            "agent"
        )  # another session, then back to the first:
        await gui.actions.sessions.select_session(first)  # loaded anew, one page held
        assert gui.transcript.property("hasMore")
        assert "first question" not in transcript(gui)
        clipboard = QGuiApplication.clipboard()
        await gui.key(Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)  # input -> transcript
        await gui.key(Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: "whole transcript is copied" in gui.state.notice, 10, "copied")
        copied = clipboard.text()
        assert copied.startswith("first question") and "last question" in copied
        assert "✓ Edited app.py +1 −2\n--- app.py" in copied  # a tool's diff under its line
        # the notice counts what went: entries and lines of text (issue 47, 11)
        lines = copied.count("\n") + 1
        assert gui.state.notice.endswith(f" entries, {lines:,} lines of text")

    gui.run(body(), timeout=60)


def test_an_image_a_tool_showed_is_drawn_small_under_its_line(gui: Gui) -> None:
    """A tool call's image content of a known type is kept and drawn as a thumbnail; one
    of another type (an SVG), and a decompression bomb (12,000 by 12,000 pixels in 140
    KiB, issue 46 item 14), are only named."""
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "picture")
        await turn_end(gui)
        await gui.frame()
        row = next(r for r in gui.transcript.model.rows() if r.call_id == "pic")
        assert len(row.images) == 1 and row.images[0].startswith("data:image/png;base64,")
        await until(lambda: len(gui.visible_items("toolImage")) == 1, 5, "the thumbnail")
        image = gui.visible_items("toolImage")[0]
        await until(lambda: image.property("implicitWidth") > 0, 5, "decoded")  # a 4x4 PNG
        assert image.property("height") == 120

    gui.run(body(), timeout=60)


def test_a_plan_mode_offers_to_approve_the_plan_or_ask_for_changes(gui: Gui) -> None:
    """In the agent's plan mode, with no turn running: "Ask for changes…" puts its words
    in the input; "Approve" leaves the plan mode for the mode the user left (Default, not
    the agent's first mode, Auto: issue 47, point 2), names it, and tells the agent to go
    ahead, by keys."""
    configure(gui, "--auto-first")

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "compact")  # a checklist left with steps unfinished
        await turn_end(gui)
        await until(lambda: gui.dock.property("canContinue"), 5, "Continue offered")
        await send(gui, "plan-mode")  # the agent enters its plan mode itself
        await turn_end(gui)
        await until(lambda: gui.visible_items("agentAsksRow"), 5, "the plan's asks")
        # the plan waits: Continue of the older list is not offered beside it (point 19)
        assert not gui.dock.property("canContinue")
        assert gui.item("agentAsksTitle").property("text") == f"{NAME}'s plan waits for you:"
        names = [
            b.property("text")
            for b in gui.visible_items("agentAsk_plan:default")
            + gui.visible_items("agentAsk_plan:")
        ]
        assert names == ["Approve, go on in Default (Alt+1)", "Ask for changes… (Alt+2)"]
        input_ = gui.item("composerInput")
        await gui.key(Qt.Key.Key_2, ALT)
        assert input_.property("text") == "Change the plan: " and input_.hasActiveFocus()
        input_.setProperty("text", "")
        await gui.key(Qt.Key.Key_1, ALT)
        sid = gui.state.current or ""
        await until(lambda: "echo: Go ahead with the plan." in transcript(gui), 15, "sent on")
        assert gui.state.steering[sid].mode == "Default"
        await turn_end(gui)
        assert gui.visible_items("agentAsksRow") == []  # out of the plan mode: none asked

    gui.run(body(), timeout=60)


def test_a_sign_in_that_runs_in_a_terminal_opens_one_with_the_agents_command(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent's `terminal` sign-in method: its button opens the user's terminal on the
    agent's own command with the method's arguments and environment."""
    ran = gui.data_dir.parent / "terminal.txt"
    terminal = gui.data_dir.parent / "terminal.sh"
    terminal.write_text(f'#!/bin/sh\necho "$@" > {ran}\necho "own:$SCRIPTED_LOGIN" >> {ran}\n')
    terminal.chmod(0o755)
    monkeypatch.setenv("TERMINAL", str(terminal))
    gui.data_dir.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(AGENT), "--auth", "--auth-terminal"]}
    (gui.data_dir / "settings.json").write_text(json.dumps({"agents": {NAME: entry}}))

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "hello")
        await turn_end(gui)
        await until(
            lambda: (
                len(gui.visible_items("agentAsksRow")) == 1
                and gui.visible_items("agentAsk_signin:term")
            ),
            10,
            "the methods",
        )
        await gui.key(Qt.Key.Key_2, ALT)
        await until(lambda: ran.exists() and "own:" in ran.read_text(), 10, "the terminal ran")
        # the method's environment is the agent command's (through env), not the terminal's
        assert ran.read_text().splitlines() == [
            f"-e env -- SCRIPTED_LOGIN=1 {sys.executable} {AGENT} --auth --auth-terminal --login",
            "own:",
        ]
        assert "runs in a terminal" in gui.state.notice

    gui.run(body(), timeout=60)


def test_the_hosts_own_agent_says_how_full_its_context_is(
    gui: Gui, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    monkeypatch.setenv("NIB_CONTEXT_TOKENS", "4000")

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await send(gui, "1. one 2. two")
        await until(
            lambda: "% of context" in gui.item("steeringText").property("text"),
            20,
            "the usage in the footer",
        )

    gui.run(body(), timeout=60)


def test_each_session_says_only_its_own_troubles(gui: Gui) -> None:
    """Issue 35, point 3: an agent's session names its agent when that failed, never the
    MCP servers Nib's own agent uses; a session of Nib's own agent names those, never an
    agent's failure."""
    gui.data_dir.mkdir(parents=True, exist_ok=True)
    missing = {"command": str(gui.data_dir / "no-such-program")}
    exits = {"command": "false"}  # found, and exits at once
    (gui.data_dir / "settings.json").write_text(
        json.dumps({"agents": {NAME: exits}, "mcpServers": {"gone": missing}})
    )

    async def body() -> None:
        await agent_session(gui)
        await until(lambda: any(t.state == "failed" for t in gui.state.tools), 30, "the server")
        assert gui.tools.property("failed") == ""  # not this session's trouble
        await send(gui, "hello")
        await turn_end(gui)
        await until(lambda: gui.tools.property("failed") == f"{NAME} failed", 10, "its agent")
        await gui.actions.sessions.create_session("agent")  # Nib's own: its tool servers
        await until(lambda: gui.tools.property("failed") == "A tool server failed", 10, "own")

    gui.run(body(), timeout=60)


def test_an_agent_that_cannot_start_says_so_in_the_new_menu_before_it_is_picked(
    gui: Gui,
) -> None:
    gui.data_dir.mkdir(parents=True, exist_ok=True)
    agents = {
        NAME: {"command": sys.executable, "args": [str(AGENT)]},
        "Missing Ghost Agent of Long Name": {"command": "no-such-agent-acp"},
    }
    (gui.data_dir / "settings.json").write_text(json.dumps({"agents": agents}))

    async def body() -> None:
        await gui.start()
        await until(lambda: gui.sessions.property("agentCount") == 2, 10, "the agents listed")
        await gui.key(Qt.Key.Key_N, CTRL_SHIFT)
        await until(lambda: len(gui.visible_items("newAgentSession")) == 2, what="the New menu")
        texts = sorted(i.property("text") for i in gui.visible_items("newAgentSession"))
        assert texts == [
            "Missing Ghost Agent of Long Name cannot start — see why…",
            f"{NAME} session…",
        ]
        for entry in gui.visible_items("newAgentSession"):  # never cut (issue 47, point 21)
            assert entry.width() >= entry.property("implicitWidth") - 0.5, entry.property("text")
        for _ in range(
            4 + [NAME, "Missing Ghost Agent of Long Name"].index("Missing Ghost Agent of Long Name")
        ):
            await gui.key(Qt.Key.Key_Down)
        await gui.key(Qt.Key.Key_Return)  # the Tools view says why, before any session
        await until(lambda: gui.window.findChild(object, "toolsDialog"), what="the Tools view")
        await until(lambda: gui.window.findChild(object, "toolsDialog").property("opened"))
        await gui.frame()
        said = [t.property("text") for t in walk_texts(gui)]
        assert any(s.startswith("'no-such-agent-acp' was not found") for s in said), said
        assert gui.state.current is None or not gui.state.shown.agent  # nothing was made

    gui.run(body())


def walk_texts(gui: Gui) -> list[Any]:
    from harness.gui import walk

    dialog = gui.window.findChild(object, "toolsDialog")
    return [
        i
        for i in walk(dialog.property("contentItem"))
        if i.property("text") is not None and isinstance(i.property("text"), str) and i.isVisible()
    ]


def test_the_agent_dialog_offers_the_folder_of_the_last_session_it_made(gui: Gui) -> None:
    configure(gui)

    async def body() -> None:
        await agent_session(gui)  # made as the listing after a restart would tell it
        await until(lambda: gui.sessions.property("currentAgent") == NAME, 10, "the session")
        await open_agent_dialog(gui)
        field = gui.item("folderField")
        assert field.property("text") == str(gui.data_dir.parent / "work")
        assert field.property("selectedText") == field.property("text")  # typing replaces it

    gui.run(body())
