"""What an agent asks the user to fill in, in the real window (issue 52, point 3): the
scripted ACP agent's form opens as a dialog, is filled in by keyboard and sent, and the
agent gets the values as their kinds; a URL is only opened by its button; Escape
declines."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from harness.gui import Gui
from harness.waiting import until
from tests.ui.test_agents import agent_session, configure, send, turn_end
from tests.ui.test_keyboard import type_text

pytestmark = pytest.mark.in_memory


def opened(gui: Gui) -> object:
    dialog = gui.window.findChild(object, "formDialog")
    return dialog if dialog is not None and dialog.property("opened") else None


def answered(gui: Gui) -> list[str]:
    return [r.text for r in gui.transcript.model.rows() if r.text.startswith("form:")]


def test_a_form_is_filled_in_by_keyboard_and_sent(gui: Gui) -> None:
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "form")
        await until(lambda: opened(gui), 15, "the form")
        assert gui.item("formMessage").property("text") == "Some details, please"
        name = gui.item("formText_name")
        await until(name.hasActiveFocus, 5, "the first field focused")
        await type_text(gui, "ada")
        assert gui.item("formCheck_sure").property("text") == "Sure?"  # its title, once
        gui.item("formCheck_sure").setProperty("checked", True)
        gui.item("formCheck_sure").toggled.emit()
        gui.item("formCheck_sure").forceActiveFocus()  # Return on it sends, as from a field
        await gui.key(Qt.Key.Key_Return)
        await until(lambda: not opened(gui), 10, "the form closed")
        await turn_end(gui)
        await until(lambda: answered(gui), 10, "the agent's word")
        assert answered(gui) == [
            'form: accept {"colour": "red", "count": 2, "name": "ada", "sure": true}'
        ]

    gui.run(body(), timeout=60)


def test_escape_declines_and_a_url_opens_only_by_its_button(gui: Gui) -> None:
    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "url")
        await until(lambda: opened(gui), 15, "the page asked")
        host = gui.item("formUrlHost").property("text")
        assert host == "It opens a page on example.org"
        assert gui.item("formOpenUrl").isVisible()
        gui.item("formMessage").forceActiveFocus()
        await gui.key(Qt.Key.Key_Escape)
        await until(lambda: not opened(gui), 10, "declined")
        await turn_end(gui)
        await until(lambda: answered(gui) == ["form: decline"], 10, "the agent's word")

    gui.run(body(), timeout=60)
