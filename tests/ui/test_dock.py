"""The TodoDock in the real window, fed by the real controller and host (offscreen)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from PySide6.QtCore import Q_ARG, QMetaObject, QPointF, Qt
from PySide6.QtGui import QImage

from harness.gui import Gui
from harness.waiting import until
from nib_desktop.state import events as ev, intents as it
from ui.snapshots import Item

pytestmark = pytest.mark.in_memory  # the host core in this process (tests/helpers/gui.py)

RUNNING_TEXT = "1. Add the column\n2. Write the tests\n3. Update the docs"


async def running_session(gui: Gui) -> str:
    """A local agent session whose demo turn is running (paced at 60 s a step)."""
    session = await gui.actions.sessions.create_session("agent")
    await gui.actions.sessions.start_turn(RUNNING_TEXT)

    def written() -> bool:
        snapshot = gui.state.snapshot(session.id)
        return snapshot is not None and snapshot.revision >= 1

    await until(written, what="the first write")
    await until(lambda: gui.dock.property("running"), what="running turn")
    await until(lambda: gui.sessions.property("currentRunning"), what="the Stop button")
    await gui.frame()
    return session.id


def rows(gui: Gui) -> list:
    return [r for r in gui.items("todoRow") if r.isVisible()]


def row_with(gui: Gui, content: str) -> Any:
    for row in gui.items("todoRow"):
        if row.property("content") == content:
            return row
    return None


async def toggle_by_click(gui: Gui) -> None:
    await gui.click(gui.item("dockHeader"))


def diff_box(a: QImage, b: QImage) -> tuple[int, int, int, int] | None:
    a = a.convertToFormat(QImage.Format.Format_RGB32)
    b = b.convertToFormat(QImage.Format.Format_RGB32)
    assert a.size() == b.size()
    xs, ys = [], []
    for y in range(a.height()):
        if a.constScanLine(y).tobytes() == b.constScanLine(y).tobytes():
            continue
        for x in range(a.width()):
            if a.pixel(x, y) != b.pixel(x, y):
                xs.append(x)
                ys.append(y)
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def test_collapsed_is_one_line_and_toggles_by_click_and_ctrl_t(gui) -> None:
    async def body() -> None:
        await gui.start()
        await running_session(gui)
        dock = gui.item("todoDock")
        assert dock.isVisible() and dock.height() == 32
        assert not gui.item("dockList").isVisible()
        step = gui.item("currentStep")
        assert step.property("lineCount") == 1
        assert step.property("text") == "Next: Add the column"  # running, no step begun yet
        assert gui.item("progressCount").property("text") == "0 / 3"
        await toggle_by_click(gui)
        assert gui.dock.property("expanded") and gui.item("dockList").isVisible()
        assert len(rows(gui)) == 3
        await toggle_by_click(gui)
        assert not gui.dock.property("expanded") and dock.height() == 32
        await gui.key(Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
        assert gui.dock.property("expanded")
        await gui.key(Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
        assert not gui.dock.property("expanded")

    gui.run(body())


def test_150_items_scroll_inside_the_bounded_dock(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        items = [
            Item(
                f"Item {i}: " + ("a long step that has to wrap onto more lines " * (i % 4)),
                "pending",
            )
            for i in range(150)
        ]
        gui.push(sid, 100, items)
        gui.expand(True)
        listview = await gui.laid_out_dock_list()
        bound = gui.window.height() / 3
        assert 0 < listview.height() <= bound
        assert listview.property("contentHeight") > listview.height()
        composer = gui.item("composer")
        assert composer.height() <= bound + 32 + 200  # the Composer does not grow past the bound
        input_ = gui.item("composerInput")
        assert input_.mapToScene(QPointF(0, 0)).y() + input_.height() <= gui.window.height()
        for index in range(150):
            QMetaObject.invokeMethod(
                listview, "positionViewAtIndex", Q_ARG(int, index), Q_ARG(int, 0)
            )
            row = row_with(gui, items[index].content)
            assert row is not None, index
            top = row.mapToItem(listview, QPointF(0, 0)).y()
            assert -1 <= top <= listview.height(), index
            text = [t for t in gui.items("rowText") if t.property("text") == items[index].content]
            assert text and not text[0].property("truncated")
        # and the last item's bottom is in view at the end
        for _ in range(3):  # rows below were only estimated until laid out
            QMetaObject.invokeMethod(listview, "positionViewAtEnd")
            await gui.frame()
        last = row_with(gui, items[-1].content)
        bottom = last.mapToItem(listview, QPointF(0, last.height())).y()
        assert bottom <= listview.height() + 1

    gui.run(body())


def test_dock_never_takes_focus(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        gui.push(sid, 50, [Item(f"Step {i}", "pending") for i in range(60)])
        gui.expand(True)
        await gui.frame()
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        for char in "hello world":
            key = Qt.Key.Key_Space if char == " " else Qt.Key(ord(char.upper()))
            await gui.key(key)
        input_.setProperty("cursorPosition", 3)
        QMetaObject.invokeMethod(input_, "select", Q_ARG(int, 2), Q_ARG(int, 7))
        before = [
            input_.property(p) for p in ("text", "cursorPosition", "selectionStart", "selectionEnd")
        ]
        assert input_.hasActiveFocus()

        listview = gui.item("dockList")
        targets = (
            lambda: gui.item("dockHeader"),
            lambda: rows(gui)[1],
            lambda: gui.item("dockScrollBar"),
        )
        for target in targets:
            await gui.click(target())
            if not gui.dock.property("expanded"):  # the header toggles; open it again
                gui.expand(True)
        await gui.laid_out_dock_list()
        await gui.wheel(listview, 3)
        await gui.frame()
        assert listview.property("contentY") > 0  # the wheel scrolled the list
        await gui.key(Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
        after = [
            input_.property(p) for p in ("text", "cursorPosition", "selectionStart", "selectionEnd")
        ]
        assert input_.hasActiveFocus()
        assert after == before
        # Tab never lands in the dock
        dock = gui.item("todoDock")
        item = input_
        for _ in range(40):
            item = item.nextItemInFocusChain(True)
            if item is None or item is input_:
                break
            assert not dock.isAncestorOf(item), item.objectName()

    gui.run(body())


def test_sweep_moves_only_inside_the_running_rows_text(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        long = "Write the tests " + "for every rule of the checklist, " * 8
        gui.push(
            sid,
            10,
            [
                Item("Done first", "completed"),
                Item(long, "in_progress", "Writing the tests"),
                Item("Later", "pending"),
            ],
        )
        gui.expand(True)
        gui.item("composerInput").setFocus(False)  # no blinking cursor in the grabs
        await gui.laid_out_dock_list()
        await gui.frame()
        ratio = os.environ.get("NIBTEST_DEVICE_PIXEL_RATIO")
        if ratio:  # set by test_displays.py, which runs the dock tests at HiDPI
            assert gui.window.devicePixelRatio() == float(ratio)
        expected_api = os.environ.get("NIBTEST_GRAPHICS_API")
        if expected_api:  # set by test_displays.py, which runs this test under Xvfb
            api = gui.window.rendererInterface().graphicsApi()
            assert api.name == expected_api, api
        sweeps = gui.visible_items("sweepText")
        assert len(sweeps) == 1
        sweep = sweeps[0]
        # the running row wraps inside the list like every other row: nothing is cut
        listview = gui.item("dockList")
        assert sweep.width() < listview.width()
        assert sweep.height() > 2 * sweep.property("font").pixelSize()
        row = row_with(gui, long)
        assert row.height() >= sweep.height()
        # nothing but the sweep may change between the grabs: the window is active first
        # (on a loaded X server its activation can come late and give the input its focus
        # back, recolouring the composer's frame and blinking its cursor), and the
        # transcript, which makes room for the dock a frame later, has stopped moving
        await until(lambda: gui.window.isActive(), 10, "the window active")
        input_ = gui.item("composerInput")
        transcript = gui.item("transcriptList")
        for _ in range(50):
            input_.setFocus(False)
            held = transcript.property("contentY"), transcript.height()
            await gui.frame()
            await gui.frame()
            moved = (transcript.property("contentY"), transcript.height()) != held
            if not moved and not input_.hasActiveFocus():
                break
        first_phase = sweep.property("phase")
        first = gui.grab()
        await until(
            lambda: abs(sweep.property("phase") - first_phase) > 0.25, 5, "the sweep to move"
        )
        await gui.frame()
        second = gui.grab()
        box = diff_box(first, second)
        assert box is not None, "the sweep did not change any pixel"
        x, y, w, h = gui.rect_of(sweep)
        assert x - 1 <= box[0] and box[2] <= x + w + 1, (box, (x, y, w, h))
        assert y - 1 <= box[1] and box[3] <= y + h + 1, (box, (x, y, w, h))

    gui.run(body())


def test_reduced_motion_is_a_static_highlight(gui) -> None:
    async def body() -> None:
        await gui.start()
        gui.state.apply(ev.ReducedMotionSet(True))
        sid = await running_session(gui)
        gui.push(sid, 10, [Item("Write the tests", "in_progress", "Writing the tests")])
        gui.expand(True)
        gui.item("composerInput").setFocus(False)
        await gui.frame()
        sweep = gui.visible_items("sweepText")[0]
        assert sweep.property("sweeping") is False
        assert sweep.property("color").name().lower() == "#0b63ce"  # the accent
        assert gui.animating() == []

    gui.run(body())


def test_nothing_moves_and_the_step_reads_stopped_after_a_stop(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        gui.push(
            sid,
            10,
            [
                Item("Done", "completed"),
                Item("Write", "in_progress", "Writing"),
                Item("Later", "pending"),
            ],
        )
        gui.expand(True)
        await gui.frame()
        assert len(gui.visible_items("sweepText")) == 1
        assert gui.animating() == ["the sweep 'sweepText'"]  # the check sees a sweep
        await gui.click(gui.item("stopButton"))
        await until(lambda: not gui.dock.property("running"), what="the turn to stop")
        await gui.frame()
        assert gui.visible_items("sweepText") == []
        assert len(rows(gui)) == 3  # the list stays
        writing = row_with(gui, "Write")
        assert writing.property("interrupted") is True
        assert writing.property("accessibleName") == "Step 2 of 3, stopped: Writing"
        text = next(t for t in gui.items("rowText") if t.property("text").startswith("Write"))
        assert text.property("text") == "Write  — stopped"
        # the header tells it too, with a muted glyph and nothing moving
        assert gui.item("currentStep").property("text") == "Stopped at 1 / 3 · Write"
        assert not gui.item("progressCount").isVisible()
        theme = gui.item("theme")
        assert gui.item("headerGlyph").property("color") == theme.property("muted")
        gui.expand(False)
        await gui.frame()
        assert gui.visible_items("headerSweep") == []
        gui.item("composerInput").setFocus(False)
        await gui.frame()
        assert gui.animating() == []

    gui.run(body())


def test_plain_text_glyphs_and_accessible_names(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        markup = '<b>x</b> <a href="https://example.com">link</a> &amp;'
        gui.push(
            sid,
            10,
            [
                Item(markup, "pending"),
                Item("Run", "in_progress", "Running"),
                Item("Done", "completed"),
                Item("Dropped", "cancelled"),
            ],
        )
        gui.expand(True)
        await gui.frame()
        text = [t for t in gui.items("rowText") if t.property("text") == markup]
        assert text and text[0].property("plain") is True
        assert text[0].property("contentWidth") > 100  # the tags are drawn as text
        expected = {
            markup: ("○", f"Step 1 of 4, pending: {markup}"),
            "Run": ("◐", "Step 2 of 4, in progress: Running"),
            "Done": ("✓", "Step 3 of 4, completed: Done"),
            "Dropped": ("✕", "Step 4 of 4, cancelled: Dropped"),
        }
        for content, (glyph, name) in expected.items():
            row = row_with(gui, content)
            glyphs = [g for g in gui.items("glyph") if row.isAncestorOf(g)]
            assert glyphs[0].property("text") == glyph
            assert row.property("accessibleName") == name
        assert gui.item("currentStep").property("plain") is True

    gui.run(body())


def test_remote_session_shows_a_note_and_is_never_recovered(gui) -> None:
    async def body() -> None:
        await gui.start()
        await running_session(gui)
        before = gui.calls["todos.get"]
        remote = await gui.actions.remote.attach_remote(
            it.AttachRemote("unix:/nonexistent/nib.sock", "r1")
        )
        await gui.frame()
        assert gui.sessions.property("currentId") == remote.id
        assert gui.item("todoDock").isVisible()
        assert "not available while the remote host cannot be reached" in gui.item(
            "currentStep"
        ).property("text")
        assert not gui.item("progressCount").isVisible()
        assert not gui.item("dockList").isVisible()
        gui.push(remote.id, 5, [Item("sneaky", "pending")])
        await gui.frame()
        assert row_with(gui, "sneaky") is None
        assert gui.calls["todos.get"] == before

    gui.run(body())


def test_session_switching_and_empty_snapshot(gui) -> None:
    async def body() -> None:
        await gui.start()
        a = await running_session(gui)
        b = await running_session(gui)
        gui.push(a, 10, [Item("A one", "pending")])
        gui.push(b, 10, [Item("B one", "pending"), Item("B two", "pending")])
        await gui.actions.sessions.select_session(a)
        await gui.frame()
        assert gui.item("currentStep").property("text") == "Next: A one"
        gets = gui.calls["todos.get"]
        gui.push(b, 11, [Item("B changed", "pending")])  # B changes while A is shown
        await gui.frame()
        assert gui.item("currentStep").property("text") == "Next: A one"
        await gui.actions.sessions.select_session(b)
        await gui.frame()
        assert gui.item("currentStep").property("text") == "Next: B changed"
        assert gui.calls["todos.get"] == gets  # straight from the store
        gui.push(b, 12, [])
        await gui.frame()
        assert not gui.item("todoDock").isVisible()

    gui.run(body())


def test_theme_follows_the_system_palette(gui) -> None:
    from PySide6.QtGui import QColor, QGuiApplication, QPalette

    theme = gui.item("theme")
    original = QGuiApplication.palette()
    assert theme.property("dark") is (original.color(QPalette.ColorRole.Window).lightness() < 128)
    dark = QPalette(original)
    dark.setColor(QPalette.ColorRole.Window, QColor("#202124"))
    QGuiApplication.setPalette(dark)
    try:
        assert theme.property("dark") is True
        assert theme.property("surface").name().lower() == "#25272b"
    finally:
        QGuiApplication.setPalette(original)
    assert theme.property("surface").name().lower() == "#f6f7f9"


def test_composer_enter_sends_and_shift_enter_adds_a_line(gui) -> None:
    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await gui.frame()
        assert not gui.items("todoDock")  # no checklist shown yet: not even made
        input_ = gui.item("composerInput")
        input_.forceActiveFocus()
        for char in "one":
            await gui.key(Qt.Key(ord(char.upper())))
        await gui.key(Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        for char in "two":
            await gui.key(Qt.Key(ord(char.upper())))
        assert input_.property("text") == "one\ntwo"
        assert not gui.sessions.property("currentRunning")
        await gui.key(Qt.Key.Key_Return)
        assert input_.property("text") == ""  # sent, and the input cleared
        await until(lambda: gui.sessions.property("currentRunning"), what="the turn to start")
        # the request's line may come a turn of the loop after the session says it runs:
        # frames from the host are handled a few milliseconds at a turn
        await until(lambda: gui.transcript.model.rows(), what="the request in the transcript")
        transcript = gui.transcript.model.rows()
        assert transcript[0].kind == "user" and transcript[0].text == "one\ntwo"
        # while a turn runs, Enter queues the text for when it completes, not a turn now
        for char in "more":
            await gui.key(Qt.Key(ord(char.upper())))
        await gui.key(Qt.Key.Key_Return)
        assert input_.property("text") == ""
        assert gui.composer.property("queuedText") == "more"
        assert gui.calls["turns.start"] == 1

    gui.run(body())


def test_progress_bar_stays_inside_its_track(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        bar = gui.item("progressBar")
        track = bar.parentItem()
        gui.push(sid, 10, [Item("a", "completed"), Item("b", "cancelled"), Item("c", "pending")])
        await gui.frame()
        assert gui.item("progressCount").property("text") == "1 / 2"
        assert abs(bar.width() - track.width() / 2) < 1
        gui.push(sid, 11, [Item("a", "completed"), Item("b", "cancelled")])
        await gui.frame()
        assert gui.item("progressCount").property("text") == "1 / 1"
        assert bar.width() == track.width()
        assert (
            gui.item("currentStep").property("text") == "All steps completed · 1 cancelled"
        )  # the count left it out

    gui.run(body())


def test_transcript_has_one_live_line_per_step(gui, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("1. Add the column\n2. Write the tests")
        await until(lambda: (s := gui.state.snapshot(session.id)) and s.revision == 5)
        await until(lambda: gui.state.turn(session.id).state == "completed")
        await until(lambda: (rows := gui.transcript.model.rows()) and rows[-1].kind == "assistant")
        await gui.frame()

    gui.run(body())
    rows = gui.transcript.model.rows()
    # 5 writes: the list, then each step begun and finished in one line that changes
    assert [r.text for r in rows if r.kind == "todo"] == [
        "Checklist: 2 steps",
        "✓ Add the column",
        "✓ Write the tests",
    ]
    assert not [r for r in rows if r.kind == "tool_result"]


def test_the_expanded_list_follows_the_running_step_until_scrolled(gui) -> None:
    def steps(running: int) -> list[Item]:
        return [
            Item(
                f"Step {i}",
                "completed" if i < running else "in_progress" if i == running else "pending",
            )
            for i in range(44)
        ]

    def in_view(index: int) -> bool:
        listview = gui.item("dockList")
        row = row_with(gui, f"Step {index}")
        if row is None or not row.isVisible():
            return False
        top = row.mapToItem(listview, QPointF(0, 0)).y()
        return top >= -1 and top + row.height() <= listview.height() + 1

    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        gui.push(sid, 10, steps(27))
        gui.expand(True)
        await until(lambda: in_view(27), what="step 27 in view on opening")
        gui.push(sid, 11, steps(36))
        await until(lambda: in_view(36), what="step 36 followed")
        # the user scrolls to the top to read: progress no longer moves the list
        listview = gui.item("dockList")
        await gui.act(lambda: QMetaObject.invokeMethod(listview, "positionViewAtBeginning"))
        listview.setProperty("userScrolled", True)  # as a drag or wheel would
        gui.push(sid, 12, steps(40))
        await gui.frame()
        await gui.frame()
        assert in_view(0) and not in_view(40)
        # closing and reopening scrolls to where the work stands
        gui.expand(False)
        await gui.frame()
        gui.expand(True)
        await until(lambda: in_view(40), what="step 40 in view on reopening")

    gui.run(body())


def test_a_wheel_on_the_list_counts_as_the_user_scrolling(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        gui.push(sid, 10, [Item(f"Step {i}", "pending") for i in range(60)])
        gui.expand(True)
        listview = await gui.laid_out_dock_list()
        assert listview.property("contentHeight") > listview.height()
        assert not listview.property("userScrolled")
        await gui.wheel(listview)
        await until(lambda: listview.property("userScrolled"), what="the wheel noticed")

    gui.run(body())


def test_the_progress_track_keeps_clear_of_the_rounded_corners_and_glyphs_match(gui) -> None:
    async def body() -> None:
        await gui.start()
        sid = await running_session(gui)
        gui.push(
            sid,
            10,
            [
                Item("Done", "completed"),
                Item("Write", "in_progress", "Writing"),
                Item("Later", "pending"),
            ],
        )
        gui.expand(True)
        await gui.frame()
        composer = gui.item("composer")
        track = gui.item("progressTrack")
        radius = composer.property("radius")
        left = track.mapToItem(composer, QPointF(0, 0)).x()
        assert left >= radius and left + track.width() <= composer.width() - radius
        assert track.property("radius") > 0 and gui.item("progressBar").property("radius") > 0
        sizes = {g.property("text"): g.property("font").pixelSize() for g in gui.items("glyph")}
        assert sizes["✓"] > sizes["◐"] == sizes["○"]  # ✓ is drawn smaller in most fonts

    gui.run(body())


def test_in_a_small_window_the_dock_leaves_the_transcript_its_lines(gui: Gui) -> None:
    """Issue 35, point 8: at 640x420 a long checklist expanded takes at most half the
    window, and the transcript keeps more than five lines."""

    async def body() -> None:
        await gui.start()
        await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn(
            " ".join(f"{i}. step number {i}" for i in range(1, 13))
        )
        await until(lambda: gui.state.snapshot(gui.state.current) is not None, what="the list")
        gui.expand(True)
        gui.window.resize(640, 420)
        await gui.laid_out_dock_list()
        await gui.frame()
        line = gui.items("transcriptText")[0].property("font").pixelSize() * 1.4
        assert gui.item("todoDock").height() <= 420 / 2
        assert gui.item("transcriptList").height() >= 5 * line + 20, gui.item(
            "transcriptList"
        ).height()

    gui.run(body())


def test_the_first_frame_makes_no_part_it_does_not_show(gui: Gui) -> None:
    """The dock, the find bar, the queued message, an agent's asks and the held images
    are made when they first show (issue 48, point 9): none of them at the start; the
    find bar once Ctrl+F opens it."""

    async def body() -> None:
        await gui.start()
        await gui.frame()
        hidden = ("todoDock", "findBar", "queuedRow", "agentAsksRow", "heldImages")
        assert [name for name in hidden if gui.items(name)] == []
        gui.item("composerInput").forceActiveFocus()
        await gui.key(Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: gui.visible_items("findBar"), what="the find bar")
        assert gui.item("findField").hasActiveFocus()

    gui.run(body())
