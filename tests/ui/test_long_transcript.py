"""A session whose transcript is over the frame limit opens in the real window: the
newest page at once, older pages as the user scrolls up; nothing restarts the host."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtTest import QTest

from harness.gui import Gui
from harness.waiting import until
from host.core import HostCore
from host.protocol import models as m


def test_a_10_mb_transcript_opens_and_pages_in(gui: Gui, tmp_path) -> None:
    core = HostCore(tmp_path / "data")
    session = core.sessions.create(m.CreateSessionParams(title="long"))
    for i in range(500):
        core.sessions.transcript.append(
            session.id, None, "assistant", f"message {i} " + "z" * 20_000
        )
    core.close()

    async def body() -> None:
        await gui.start()
        pid = gui.supervisor.pid
        await until(lambda: gui.transcript.model.rows(), what="the first page")
        rows = gui.transcript.model.rows()
        assert 0 < len(rows) <= 200 and rows[-1].text.startswith("message 499 ")
        assert gui.transcript.property("hasMore")
        listview = gui.item("transcriptList")
        for _ in range(10):  # scroll to the top until every page is in
            if not gui.transcript.property("hasMore"):
                break
            count = len(gui.transcript.model.rows())
            listview.setProperty("following", False)
            await gui.frame()
            listview.setProperty("contentY", listview.property("originY"))
            await until(lambda c=count: len(gui.transcript.model.rows()) > c, what="an older page")
        rows = gui.transcript.model.rows()
        assert [r.text.split(" ")[1] for r in rows] == [str(i) for i in range(500)]
        assert gui.supervisor.pid == pid and gui.connection.property("state") == "ready"

    gui.run(body(), 90)


def words(item: object) -> str:
    """What a text item draws, as plain words (a rich text's `text` is its HTML)."""
    from PySide6.QtCore import Q_ARG, Q_RETURN_ARG, QMetaObject

    length = item.property("length")  # type: ignore[attr-defined]
    drawn = QMetaObject.invokeMethod(
        item, "getText", Q_RETURN_ARG(str), Q_ARG(int, 0), Q_ARG(int, length)
    )
    return " ".join(str(drawn).split())


def test_a_long_message_is_folded_to_its_first_lines_until_clicked(gui: Gui) -> None:
    """A message of pages neither fills the window nor costs a frame to lay out: its
    first lines and how much more there is, the whole of it on a click, and back."""
    from nib_desktop.state import events as ev
    from nib_desktop.state.transcript_lines import Line

    long_text = "\n".join(f"line {i}: " + "words " * 12 for i in range(400))

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded, what="the session shown")
        lines = (Line("assistant", "short", seq=1), Line("assistant", long_text, seq=2))
        gui.state.apply(ev.LinesAppended(session.id, lines))
        await until(lambda: len(gui.visible_items("transcriptText")) == 2, what="both shown")
        short, long = gui.visible_items("transcriptText")
        # an agent's message is rendered Markdown: its words as drawn, lines joined as
        # a paragraph's are
        assert words(short) == "short"
        shown = words(long)
        whole = " ".join(long_text.split())
        first, _, more = shown.rpartition(" … ")
        assert whole.startswith(first) and "line 30: " in first and "line 45:" not in first
        assert more.endswith(" more characters ▸")  # how much more, in words
        height = long.height()
        top = long.mapToScene(QPointF(0, 0)).y()
        await gui.click(long)
        await until(lambda: words(long) == whole, what="the whole message")
        await gui.frame()
        await gui.frame()
        assert long.height() > 5 * height  # 400 lines against about 40
        # unfolded where it was read: its top stays put, the view no longer jumps to
        # the newest line (issue 35: it jumped to the message's end)
        assert long.mapToScene(QPointF(0, 0)).y() == top
        assert gui.item("jumpToLatest").isVisible()
        seen = max(10.0, 20.0 - top)  # a point of it in the window (its top may be above)
        at = long.mapToScene(QPointF(long.width() / 2, seen)).toPoint()
        await gui.act(
            lambda: QTest.mouseClick(
                gui.window, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at
            )
        )
        await until(lambda: words(long) == shown, what="folded again")

    gui.run(body())


def test_the_copy_button_stands_beside_a_short_line_never_over_its_words(gui: Gui) -> None:
    """Issue 47, point 20: the hover's "Copy" covered the end of short lines. It stands
    left of the user's bubble and right of an agent's short message."""
    from nib_desktop.state import events as ev
    from nib_desktop.state.transcript_lines import Line

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded, what="the session shown")
        lines = (Line("user", "Fix it", seq=1), Line("assistant", "Fixed.", seq=2))
        gui.state.apply(ev.LinesAppended(session.id, lines))
        await until(lambda: len(gui.visible_items("transcriptText")) == 2, what="both shown")
        for text in gui.visible_items("transcriptText"):
            centre = text.mapToScene(QPointF(text.width() / 2, text.height() / 2)).toPoint()
            await gui.act(lambda at=centre: QTest.mouseMove(gui.window, at))
            await until(lambda: len(gui.visible_items("copyLine")) == 1, 5, "the Copy button")
            button = gui.visible_items("copyLine")[0]
            words = QRectF(text.mapToScene(QPointF(0, 0)), QSizeF(text.width(), text.height()))
            place = QRectF(
                button.mapToScene(QPointF(0, 0)), QSizeF(button.width(), button.height())
            )
            assert not words.intersects(place), (words, place)

    gui.run(body())


def test_a_line_that_becomes_a_users_message_in_place_is_sized_to_its_words(gui: Gui) -> None:
    """A delegate kept across a change of its row (`set_rows` changes rows in place: a
    session switched to, a page loaded again) that was a tool call's compact line and is
    now the user's message: its bubble is as wide as its words, right-aligned, with no
    binding loop on its width (which Qt warns of, and the suite fails on)."""
    from nib_desktop.state import events as ev
    from nib_desktop.state.transcript_lines import Line

    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await until(lambda: gui.state.transcript.loaded, what="the session shown")
        called = Line("tool_call", "Read app.py", seq=1, call_id="c1", call_input="app.py")
        gui.state.apply(ev.TranscriptPage(session.id, (called,), False, 1, newest_seq=1))
        await until(lambda: len(gui.visible_items("transcriptText")) == 1, what="the call")
        (text,) = gui.visible_items("transcriptText")
        full = text.parentItem().width()
        gui.state.apply(
            ev.TranscriptPage(session.id, (Line("user", "Fix it", seq=1),), False, 1, newest_seq=1)
        )
        await until(lambda: text.property("text") == "Fix it", what="the same line, now the user's")
        await gui.frame()
        bubble = text.parentItem()
        assert gui.visible_items("transcriptText") == [text]  # the delegate was kept
        assert 0 < bubble.width() < full / 2  # as wide as "Fix it", not the view's width
        view = bubble.parentItem()
        assert bubble.x() + bubble.width() == view.width()  # right-aligned

    gui.run(body())
