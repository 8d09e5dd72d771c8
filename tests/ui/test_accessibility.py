"""Assistive technology's view of the real window: every interactive item and every dock
row has an accessible name and role, and completed steps and turn ends are announced."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, QPointF, QRectF, QSizeF
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from harness.gui import Gui, walk
from harness.waiting import until
from tests.ui.test_feedback import finished_demo
from ui.snapshots import Item

pytestmark = pytest.mark.in_memory  # the host core in this process (tests/helpers/gui.py)

INTERACTIVE = ("QQuickAbstractButton", "QQuickTextInput", "QQuickTextEdit", "QQuickMouseArea")


def inherits(obj: QObject, name: str) -> bool:
    # asked of Qt itself: a Python wrapper of a QML type's meta-object outlives the engine
    # that frees it, and the next item made at its address would come back as that wrapper
    return obj.inherits(name)


def described(item: QQuickItem) -> tuple[str, object]:
    iface = QAccessible.queryAccessibleInterface(item)
    if iface is None:
        return "", None
    return iface.text(QAccessible.Text.Name), iface.role()


def named_ancestor(item: QQuickItem) -> tuple[str, object]:
    """A MouseArea is reached through the item it belongs to."""
    while item is not None:
        name, role = described(item)
        if name:
            return name, role
        item = item.parentItem()
    return "", None


def problems(gui: Gui) -> list[str]:
    roots = [gui.window.contentItem()]
    overlay = gui.window.property("overlay")
    if overlay is not None:
        roots.append(overlay)
    found = []
    for root in roots:
        for item in walk(root):
            if not item.isVisible() or item.width() <= 0 or item.height() <= 0:
                continue
            kind = next((k for k in INTERACTIVE if inherits(item, k)), None)
            dock_row = item.objectName() in ("todoRow", "historyRow")
            if kind is None and not dock_row:
                continue
            name, role = named_ancestor(item) if kind == "QQuickMouseArea" else described(item)
            if not name or role in (None, QAccessible.Role.NoRole, QAccessible.Role.Client):
                label = item.objectName() or kind or "row"
                found.append(f"{label} ({kind or 'row'}): name={name!r} role={role}")
    return found


def test_every_interactive_item_and_row_has_a_name_and_role(gui) -> None:
    async def body() -> None:
        await gui.start()
        session = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("1. Add the column\n2. Write the tests")
        await until(lambda: gui.dock.property("running"))
        gui.push(
            session.id,
            50,
            [
                Item("Add the column", "completed"),
                Item("Write the tests", "in_progress", "Writing the tests"),
                Item("Ship", "cancelled"),
            ],
        )
        await gui.frame()
        assert problems(gui) == []  # collapsed
        gui.expand(True)
        await gui.frame()
        assert len(gui.visible_items("todoRow")) == 3
        assert problems(gui) == []  # expanded
        gui.history.show()
        await until(lambda: gui.history.model.rows(), what="the history")
        await gui.frame()
        assert gui.visible_items("historyRow")
        assert problems(gui) == []  # history open
        gui.history.close()
        dialog = await gui.open_remote_dialog()
        assert problems(gui) == []  # a dialog
        dialog.close()
        await until(lambda: not dialog.property("visible"))

    gui.run(body())


def test_completed_steps_and_turn_ends_are_announced(gui) -> None:
    async def body() -> None:
        await gui.start()
        heard: list[str] = []
        gui.dock.announcement.connect(heard.append)
        ended: list[str] = []  # what the window says as the shown session's turn ends
        gui.views.announcer.said.connect(ended.append)
        session = await gui.actions.sessions.create_session("agent")
        await gui.actions.sessions.start_turn("1. Add the column\n2. Write the tests")
        await until(lambda: gui.dock.property("running"))
        gui.push(
            session.id,
            50,
            [Item("Add the column", "in_progress"), Item("Write the tests", "pending")],
        )
        gui.push(
            session.id,
            51,
            [Item("Add the column", "completed"), Item("Write the tests", "in_progress")],
        )
        await until(lambda: heard == ["Completed step 1 of 2: Add the column"])
        await until(lambda: gui.sessions.property("currentRunning"), what="the turn shown")
        gui.composer.stop()
        await until(lambda: len(heard) == 2, what="the stop announced")
        assert heard[-1] == "Stopped at 1 / 2 · Write the tests"
        await until(lambda: ended == ["The turn stopped."], what="the turn's end said")
        # another session's progress is not announced over the one shown
        other = await gui.actions.sessions.create_session("agent")
        gui.push(
            session.id,
            52,
            [Item("Add the column", "completed"), Item("Write the tests", "completed")],
        )
        await gui.frame()
        assert len(heard) == 2 and other.id == gui.sessions.property("currentId")

    gui.run(body())


GLYPHS = "✓✕→←⚠◐○⟲●⊘"  # statuses the window draws; a name says them in words
UNNAMED = {QAccessible.Role.ScrollBar, QAccessible.Role.Client, QAccessible.Role.Pane}


def tree(iface: QAccessibleInterface) -> list[QAccessibleInterface]:
    found = []
    for index in range(iface.childCount()):
        child = iface.child(index)
        if child is not None:
            found += [child, *tree(child)]
    return found


def test_the_tree_says_what_is_shown_in_words_and_nothing_hidden(gui, monkeypatch) -> None:
    """Issue 47, point 29: a hidden control is not in the tree as if shown (Qt Quick
    Controls report a hidden button as shown, and nameless); every shown control and alert
    has a name, no name carries a status glyph, and each line's Copy says which line."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        await gui.start()
        await finished_demo(gui, "1. Add the column\n2. Write the tests")
        gui.expand(True)
        await gui.frame()
        wrong = []
        nodes = tree(QAccessible.queryAccessibleInterface(gui.window))
        for node in nodes:
            item, name, role = node.object(), node.text(QAccessible.Text.Name), node.role()
            label = f"{item.objectName() if item else '?'} {role.name} {name!r}"
            if isinstance(item, QQuickItem) and not item.isVisible() and not node.state().invisible:
                wrong.append(f"hidden, told as shown: {label}")
            if node.state().invisible:
                continue
            if not name and role not in UNNAMED:
                wrong.append(f"nameless: {label}")
            if name and name.lstrip()[:1] in GLYPHS:
                wrong.append(f"a glyph for words: {label}")
        assert wrong == []
        said = [n.text(QAccessible.Text.Name) for n in nodes]
        assert "Done: Add the column" in said and "Done: Write the tests" in said
        # a line's Copy is made as the line is hovered, and names that line
        listed = gui.items("transcriptList")[0]
        box = QRectF(listed.mapToScene(QPointF(0, 0)), QSizeF(listed.width(), listed.height()))
        centres = sorted(
            (
                text.mapToScene(QPointF(text.width() / 2, text.height() / 2))
                for text in gui.visible_items("transcriptText")
            ),
            key=lambda point: point.y(),
        )
        copies = []
        for centre in [c.toPoint() for c in centres if box.contains(c)][:5]:
            await gui.act(lambda at=centre: QTest.mouseMove(gui.window, at))
            await until(lambda: len(gui.visible_items("copyLine")) == 1, 5, "the Copy button")
            copies.append(described(gui.visible_items("copyLine")[0])[0])
        assert len(gui.items("copyLine")) == 1  # only the hovered line's
        assert len(copies) == 5 and len(set(copies)) == len(copies), copies
        assert "Copy this line: You: 1. Add the column" in copies[0]

    gui.run(body())
