"""An agent's own earlier sessions, opened from the window (issue 52, point 1), by keys:
the New menu's "Earlier … sessions…" (and the palette's "Open an earlier … session…"), a
folder, the agent's list paged with More,
one opened with its history kept; opened again, the same session, marked "in Nib"."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from tests.ui.test_agents import NAME, configure, open_from_menu, transcript


async def palette(gui: Gui, words: str) -> None:
    await gui.key(Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: gui.item("paletteField").hasActiveFocus(), 5, "the palette")
    gui.item("paletteField").setProperty("text", words)
    await gui.frame()
    await gui.key(Qt.Key.Key_Return)


def test_an_earlier_session_is_listed_and_opened(gui: Gui, tmp_path: Path) -> None:
    configure(gui, "--sessions")
    work = tmp_path / "work"
    work.mkdir()

    async def body() -> None:
        await gui.start()
        await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent listed")
        # from the New menu, by keys: its last entry (Plan, Goal, Remote…, the agent's
        # new session, then its earlier ones; separators skipped)
        await gui.key(
            Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        await until(lambda: gui.visible_items("newEarlierSessions"), what="the New menu")
        assert gui.visible_items("newEarlierSessions")[0].property("text") == (
            f"Earlier {NAME} sessions…"
        )
        dialog = await open_from_menu(gui, 5, "earlierDialog")
        assert dialog.property("title") == f"Earlier {NAME} sessions"
        field = gui.item("earlierFolder")
        field.setProperty("text", str(work))
        await gui.key(Qt.Key.Key_Return)
        rows = gui.views.earlier_view.model.rows
        await until(lambda: len(rows()) == 2, 10, "the first page")
        assert [r.title for r in rows()] == ["Earlier task 3", "Earlier task 2"]
        # when each was last worked on, with its day: they may be months old
        assert [r.when[:10] for r in rows()] == ["2026-11-03", "2026-11-02"]
        gui.views.earlier_view.more()  # what the More button does
        await until(lambda: len(rows()) == 3, 10, "the next page")
        assert not gui.views.earlier_view.property("hasMore")
        listed = gui.item("earlierList")
        assert listed.hasActiveFocus()
        await gui.key(Qt.Key.Key_Down)  # the second: Earlier task 2
        await gui.key(Qt.Key.Key_Return)
        await until(
            lambda: gui.sessions.property("currentTitle") == "Fix the parser",
            15,
            "the imported session shown",
        )
        await until(lambda: "Done." in transcript(gui), 10, "its history")
        assert "Looking at it." in transcript(gui)
        first = gui.state.current

        await palette(gui, f"Open an earlier {NAME}")  # again: marked, the same one opened
        await until(lambda: dialog.property("opened"), what="the dialog open again")
        gui.item("earlierFolder").setProperty("text", str(work))
        gui.item("earlierFolder").forceActiveFocus()
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: len(rows()) == 2 and rows()[1].imported == first, 10, "marked")
        await gui.key(Qt.Key.Key_Down)
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: not dialog.property("opened"), 5, "closed")
        assert gui.state.current == first
        assert len(gui.state.sessions) == 1

    gui.run(body(), timeout=60)
