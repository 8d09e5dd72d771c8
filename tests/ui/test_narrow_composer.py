"""Every part of the composer fits the window from 640 to 1920 px wide (issue 47, point 4):
in an agent session with a long folder, its mode, model and usage, the footer's words
elide and Send, Stop and the dock's controls stay inside the window, in both palettes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF

from harness.gui import Gui
from harness.waiting import until
from tests.ui.test_agents import agent_session, configure, send, turn_end

WIDTHS = (640, 800, 1100, 1600, 1920)


def right_edge(gui: Gui, name: str) -> float:
    item = gui.item(name)
    corner = item.mapToItem(gui.window.contentItem(), QPointF(item.width(), 0))
    return float(corner.x())


@pytest.mark.parametrize("look", ["light", "dark"])
def test_the_composer_fits_from_640_to_1920_px(gui: Gui, tmp_path: Path, look: str) -> None:
    configure(gui)
    deep = tmp_path / ("a-rather-long-folder-name-" * 3) / "and-deeper-still"
    deep.mkdir(parents=True)

    async def body() -> None:
        await agent_session(gui)
        gui.views.settings_view.setAppearance(look)
        await send(gui, "plan-mode")  # its mode, model and usage in the footer
        await turn_end(gui)
        await until(lambda: gui.item("steeringText").property("text") != "", 10, "steering")
        for width in WIDTHS:
            gui.window.resize(width, 600)
            await gui.frame()
            await gui.frame()
            inside = gui.window.width()
            for name in ("sendButton", "sessionKind", "steeringText", "composerInput"):
                assert right_edge(gui, name) <= inside + 0.5, (look, width, name)
            if width >= 1100:  # the room is there: the agent's words whole
                assert not gui.item("steeringText").property("truncated"), (look, width)
            if os.environ.get("NARROW_SHOT"):  # to look at it: NARROW_SHOT=folder
                gui.grab().save(f"{os.environ['NARROW_SHOT']}/{look}-{width}.png")

    gui.run(body(), timeout=60)


def test_the_agents_words_take_the_room_there_is(gui: Gui) -> None:
    """The mode, model and usage are as wide as their words where the footer has the
    room (a model named at length, as Claude Code names its default), and elided, whole
    in their tooltip, only where it has not."""
    configure(gui, "--long-names")

    async def body() -> None:
        await agent_session(gui)
        await send(gui, "plan-mode")
        await turn_end(gui)
        line = gui.item("steeringText")
        await until(lambda: "recommended" in line.property("text"), 10, "the long name")
        gui.window.resize(1600, 600)
        await gui.frame()
        await gui.frame()
        assert line.implicitWidth() > 360  # wider than the footer once allowed it
        assert not line.property("truncated"), line.width()
        gui.window.resize(640, 600)
        await gui.frame()
        await gui.frame()
        assert line.property("truncated")
        assert right_edge(gui, "sendButton") <= gui.window.width() + 0.5

    gui.run(body(), timeout=60)


def test_an_agents_options_named_at_length_fit_a_narrow_window(gui: Gui) -> None:
    """An agent's option named at length (as Codex names its lasting one) is as wide as
    the approval row at 640 px, its name cut short there and whole in its tooltip, and
    the options' keys wrap: nothing of the row runs past the composer's edge."""
    from PySide6.QtGui import QAccessible

    from harness.acp_agent import WORDY_ALWAYS

    configure(gui)

    async def body() -> None:
        await agent_session(gui)
        gui.window.resize(640, 700)
        await send(gui, "askwordy")
        await until(lambda: gui.approvals.property("approvalId") != "", 10, "the approval")
        await gui.frame()
        await gui.frame()
        inside = right_edge(gui, "composerInput")
        (wordy,) = gui.visible_items("agentOption_always")
        assert wordy.property("text") == WORDY_ALWAYS
        assert wordy.implicitWidth() > wordy.width()  # cut short: it would not fit
        told = QAccessible.queryAccessibleInterface(wordy)  # its name, and its tooltip
        assert told.text(QAccessible.Text.Name) == WORDY_ALWAYS
        assert WORDY_ALWAYS in told.text(QAccessible.Text.Description)
        for name in ("agentOption_yes", "agentOption_always", "agentOption_no", "agentOptionKeys"):
            assert right_edge(gui, name) <= inside + 0.5, name
        assert gui.item("agentOptionKeys").property("lineCount") > 1  # its keys wrapped

    gui.run(body(), timeout=60)
