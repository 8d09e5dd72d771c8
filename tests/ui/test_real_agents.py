"""Codex and Claude Code in the real window: a three-step plan through to the dock, and
a permission request answered by keyboard reaching the agent. The agents are real
(installed by the test set-up), their models scripted on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from harness import real_agents
from harness.agent_calls import AGENTS, plan_call, risky_call
from harness.fake_models import Reply, ScriptedModels
from harness.gui import Gui
from harness.waiting import until

# alone, after the parallel part of the suite (see tests/e2e/test_real_agents.py)
pytestmark = pytest.mark.serial

ALT = Qt.KeyboardModifier.AltModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


@pytest.mark.timeout(180)  # a real agent's start is slow on a loaded machine
@pytest.mark.parametrize("agent", ["codex", "claude"])
def test_a_real_agents_plan_in_the_dock_and_an_approval_by_keyboard(
    gui: Gui, tmp_path: Path, agent: str
) -> None:
    bin_dir = real_agents.installed()
    work = tmp_path / "work"
    work.mkdir()
    with ScriptedModels() as models:
        entry = AGENTS[agent](bin_dir, tmp_path / f"{agent}-home", models.url)
        gui.data_dir.mkdir(parents=True, exist_ok=True)
        (gui.data_dir / "settings.json").write_text(json.dumps({"agents": {agent: entry}}))
        models.script = [
            Reply(calls=(plan_call(agent, "in_progress", "pending", "pending"),)),
            Reply(calls=(plan_call(agent, "completed", "in_progress", "pending"),)),
            Reply(calls=(risky_call(agent, work),)),
            Reply(calls=(plan_call(agent, "completed", "completed", "completed"),)),
            Reply("All three steps are done."),
        ]

        async def body() -> None:
            await gui.start()
            await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent")
            await gui.actions.sessions.create_session("agent", agent, str(work))
            gui.item("composerInput").setProperty("text", "Do three steps")
            await gui.key(Qt.Key.Key_Return)
            await until(lambda: gui.approvals.property("approvalId") != "", 120, "the approval")
            await gui.frame()
            assert (gui.dock.property("completed"), gui.dock.property("total")) == (1, 3)
            assert gui.dock.property("running")
            await gui.key(Qt.Key.Key_Y, ALT)
            await until(lambda: not gui.sessions.property("currentRunning"), 120, "the end")
            await gui.frame()
            assert (work / "made.txt").exists()  # the answer reached the agent
            assert (gui.dock.property("completed"), gui.dock.property("total")) == (3, 3)
            assert gui.dock.property("revision") == 3
            lines = [row.text for row in gui.transcript.model.rows()]
            assert lines[-1] == "All three steps are done."
            assert "Checklist: 3 steps" in lines

        gui.run(body(), timeout=170)


@pytest.mark.timeout(180)
def test_codexs_model_chosen_by_keyboard_reaches_its_next_request(gui: Gui, tmp_path: Path) -> None:
    """Contract 17 with the real Codex in the window: its models as it offers them,
    another chosen with Ctrl+Shift+O, and its next request to the model asks that one;
    its own commands are offered by "/"."""
    from tests.ui.test_agents import choose

    bin_dir = real_agents.installed()
    work = tmp_path / "work"
    work.mkdir()
    with ScriptedModels() as models:
        entry = AGENTS["codex"](bin_dir, tmp_path / "codex-home", models.url)
        gui.data_dir.mkdir(parents=True, exist_ok=True)
        (gui.data_dir / "settings.json").write_text(json.dumps({"agents": {"codex": entry}}))
        models.script = [Reply("First."), Reply("Second.")]

        async def body() -> None:
            await gui.start()
            await until(lambda: gui.sessions.property("agentCount") == 1, 10, "the agent")
            await gui.actions.sessions.create_session("agent", "codex", str(work))
            sid = gui.state.current or ""
            gui.item("composerInput").setProperty("text", "Hello")
            await gui.key(Qt.Key.Key_Return)
            await until(
                lambda: (
                    not gui.sessions.property("currentRunning")
                    and gui.state.steering.get(sid) is not None
                    and gui.state.steering[sid].models
                ),
                120,
                "its models",
            )
            await until(
                lambda: "/review" in [row["name"] for row in gui.composer.completions("/")],
                30,
                "its own commands offered",
            )
            told = gui.state.steering[sid]
            value, name = next((v, n) for v, n in told.models if n != told.model)
            await choose(gui, name, Qt.Key.Key_O, CTRL_SHIFT, prefilled="Model: ")
            await until(lambda: gui.state.steering[sid].model == name, 30, "the model chosen")
            asked = len(models.requests)
            gui.item("composerInput").setProperty("text", "Again")
            await gui.key(Qt.Key.Key_Return)
            await until(
                lambda: "Second." in [r.text for r in gui.transcript.model.rows()],
                120,
                "the next answer",
            )
            sent = [r.get("model") for r in models.requests[asked:] if r.get("input")]
            assert sent and all(str(model) == value.split("/")[0] for model in sent), (sent, value)

        gui.run(body(), timeout=170)
