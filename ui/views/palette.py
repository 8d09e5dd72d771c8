"""The command palette's list: everything the window can do now, each with its key, in
the order shown when nothing is typed. Read from the other views when the palette opens;
the window runs a command by its `id` (and `arg`: a session's, an agent's or a theme's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state.attempts import any_running
from nib_desktop.state.lazy import intents as it
from nib_desktop.state.store import AppState
from ui.views.dock import DockView
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

LOOKS = (("system", "Theme: as the system"), ("light", "Theme: light"), ("dark", "Theme: dark"))


def _command(id_: str, name: str, key: str = "", arg: str = "") -> dict[str, str]:
    return {"id": id_, "name": name, "key": key, "arg": arg}


@QmlElement
@qml_uncreatable("made by the application")
class PaletteView(QObject):
    def __init__(
        self, state: AppState, dock: DockView, ask: Ask, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._state = state
        self._dock = dock
        self._ask = ask

    @Slot(str, str)
    def run(self, command: str, arg: str) -> None:
        """A command the window does not run itself: an agent's mode, option or sign-in
        (`arg`: "option\tvalue", "\tmode", "agent\tmethod")."""
        first, _, second = arg.partition("\t")
        if command == "steer":
            self._ask(it.Steer(first, second))
        elif command == "signin":
            self._ask(it.SignIn(first, second))

    @Slot(str, result=str)
    def nothingToChoose(self, typed: str) -> str:
        """Why the palette opened on the modes ("Mode: ") or the models ("Model: ") lists
        none, in words ("Codex offers no modes"); "" where it lists some."""
        shown = self._state.shown
        told = self._state.steering.get(shown.session_id) if shown is not None else None
        if shown is None or not shown.agent or typed not in ("Mode: ", "Model: "):
            return ""
        who = shown.agent
        if typed == "Mode: " and not (told and len(told.modes) > 1):
            return f"{who} offers no other mode in this session"
        if typed == "Model: " and not (told and len(told.models) > 1):
            return f"{who} offers no other model in this session"
        return ""

    @Slot("QVariantMap", bool, result="QVariantList")
    def commands(self, keys: dict[str, str], sidebar_collapsed: bool) -> list[dict[str, str]]:
        """`keys`: the window's and the composer's keys as this platform writes them."""
        state, dock = self._state, self._dock
        shown = state.shown
        running = shown is not None and shown.running
        remote = shown is not None and shown.remote
        key = keys.get
        out = [
            _command("new", "New agent session", key("new", ""), "agent"),
            _command("new", "New plan session", "", "plan"),
            _command("new", "New goal session", "", "goal"),
            _command("remote", "New remote session…"),
        ]
        out += [
            _command("agent", f"New {a.name} session…", "", a.name)
            if a.state != "failed"
            else _command("tools", f"{a.name} cannot start — see why")
            for a in state.agents
        ]
        if running:
            out.append(_command("stop", "Stop the turn", "Esc"))
        elif shown is not None and shown.branch:  # its own worktree (section 18)
            out.append(_command("merge", f"Merge ⎇ {shown.branch} into its base…"))
            out.append(_command("removeWorktree", f"Remove the worktree of ⎇ {shown.branch}"))
        if shown is not None and shown.attempt:  # a run of an attempt (section 18)
            out.append(_command("runs", "Show the attempt's runs side by side", "Ctrl+Shift+A"))
            held = state.attempts.get(shown.attempt)
            if held is not None and any_running(held):
                out.append(_command("stopRuns", "Stop every run of the attempt"))
        if dock.property("canContinue"):
            name = "Continue from the first unfinished step"
            out.append(_command("continue", name, "Ctrl+Enter"))
        if shown is not None and not running and not remote and not shown.agent:
            out.append(_command("compact", "Compact the conversation", "/compact"))
        told = state.steering.get(shown.session_id) if shown is not None else None
        # what the agent offers to steer this session (section 17)
        if shown is not None and told is not None:
            # each row shows the key that opens the palette on them
            out += [
                _command("steer", f"Mode: {name}", key("mode", ""), f"\t{id_}")
                for id_, name in told.modes
                if name != told.mode
            ]
            out += [
                _command(
                    "steer", f"Model: {name}", key("model", ""), f"{told.model_option}\t{value}"
                )
                for value, name in told.models
                if name != told.model
            ]
            out += [
                _command("signin", f"Sign in to {shown.agent}: {name}", "", f"{shown.agent}\t{id_}")
                for id_, name in told.sign_ins
            ]
        if remote and shown is not None and not shown.reachable:
            out.append(_command("retryRemote", "Reach the remote host now", key("retryRemote", "")))
        if shown is not None and shown.reachable:  # a remote one's, on its host (section 19)
            out.append(_command("fork", "Fork this session", key("fork", "")))
            out.append(_command("rename", "Rename this session…", key("rename", "")))
            out.append(_command("export", "Export this session as Markdown…", key("export", "")))
        out.append(_command("search", "Search all sessions…", key("search", "")))
        if shown is not None:
            out.append(_command("delete", "Delete this session…", key("delete", "")))
        if dock.property("shown") and not dock.property("unavailable"):  # it has a checklist
            out.append(_command("toggleDock", "Show or hide the checklist", key("toggle", "")))
            out.append(_command("history", "Checklist history", key("history", "")))
        if shown is not None and shown.reachable and state.snapshot(shown.session_id):
            out.append(_command("feedback", "Give feedback on the plan (skip, move, add…)"))
        if shown is not None:
            out.append(_command("changes", "Changes in the folder", key("changes", "")))
        out.append(_command("tools", "Tools and agents", key("tools", "")))
        out.append(_command("settings", "Settings", key("settings", "")))
        sidebar = "Show the sessions list" if sidebar_collapsed else "Hide the sessions list"
        out.append(_command("sidebar", sidebar, key("sidebar", "")))
        desktop = state.desktop
        out += [
            _command("look", name, "", look) for look, name in LOOKS if look != desktop.appearance
        ]
        still = desktop.reduced_motion
        motion = "Reduced motion: " + ("off (the sweep moves)" if still else "on (no sweep)")
        out.append(_command("motion", motion, "", "off" if still else "on"))
        out += [
            _command("show", f"Go to: {s.title}", "", s.session_id)
            for s in state.sessions
            if s.session_id != state.current
        ]
        out.append(_command("quit", "Quit Nib", key("quit", "")))
        # what a few letters find: a folder of Nib's own agent (a worktree of its own),
        # several agents on one task, an agent's earlier sessions
        out.append(_command("agent", "New agent session in a folder…", "", ""))
        out.append(_command("attempt", "Try a task with several agents…", key("attempt", "")))
        out += [
            _command("earlier", f"Open an earlier {a.name} session…", "", a.name)
            for a in state.agents
            if a.state != "failed"
        ]
        return out
