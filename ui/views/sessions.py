"""The sessions: the sidebar's list and the one shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import sidebar, store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.outside import SHOWN_OUTSIDE, window_title
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.types import Session
from ui.views.rows import AgentChoiceModel, SessionListModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class SessionsView(QObject):
    listChanged = Signal()  # a row was added, removed or changed
    currentChanged = Signal()  # the shown session or its row changed
    currentIdChanged = Signal()  # another session is shown (not only a new title)
    agentsChanged = Signal()  # the configured ACP agents or their states
    windowTitleChanged = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)
        self.model = SessionListModel(self)
        self.model.set_rows(sidebar.rows(state))  # the last run's list, until the host's
        self.agent_model = AgentChoiceModel(self)
        self._shown: Session | None = None
        self._title_text = window_title(state)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if change.aspects & SHOWN_OUTSIDE:
            title = window_title(self._state)
            if title != self._title_text:
                self._title_text = title
                self.windowTitleChanged.emit()
        if store.AGENTS in change:
            self.agent_model.set_rows(list(self._state.agents))
            self.agentsChanged.emit()
        if change.aspects & sidebar.SIDEBAR:
            self.model.set_rows(sidebar.rows(self._state))
        if store.SESSIONS in change:
            self.listChanged.emit()
        if store.CURRENT in change or store.SESSIONS in change:
            before, self._shown = self._shown, self._state.shown
            if before != self._shown:
                self.currentChanged.emit()
            if (before.session_id if before else "") != (self._state.current or ""):
                self.currentIdChanged.emit()

    def _get(self) -> Session | None:
        return self._state.shown

    def _id(self) -> str:
        return self._state.current or ""

    def _title(self) -> str:
        shown = self._get()
        return shown.title if shown else ""

    def _branch(self) -> str:
        """The branch of the shown session's own worktree ("" without one)."""
        shown = self._get()
        return shown.branch if shown else ""

    def _mode(self) -> str:
        shown = self._get()
        return shown.mode if shown else "agent"

    def _remote(self) -> bool:
        shown = self._get()
        return shown is not None and shown.remote

    def _reachable(self) -> bool:
        shown = self._get()
        return shown is None or shown.reachable

    def _remote_note(self) -> str:
        shown = self._get()
        return shown.remote_note if shown else ""

    def _running(self) -> bool:
        shown = self._get()
        return shown is not None and shown.running

    def _cached(self) -> bool:
        return self._state.sessions_cached

    def _running_count(self) -> int:
        return sum(1 for s in self._state.sessions if s.running)

    def _remote_running_count(self) -> int:
        """Turns running on remote hosts: closing may leave them running there."""
        return sum(1 for s in self._state.sessions if s.running and s.remote)

    def _rows(self) -> SessionListModel:
        return self.model

    def _agents(self) -> AgentChoiceModel:
        return self.agent_model

    def _agent_count(self) -> int:
        return len(self._state.agents)

    def _agent(self) -> str:
        shown = self._get()
        return shown.agent if shown else ""

    def _folder(self) -> str:
        shown = self._get()
        return shown.folder if shown else ""

    def _window_title(self) -> str:
        return self._title_text

    rows = Property(SessionListModel, _rows, constant=True)
    # "(3/5) Title — Nib" while its turn runs, "● Title — Nib" while an approval waits
    windowTitle = Property(str, _window_title, notify=windowTitleChanged)
    agents = Property(AgentChoiceModel, _agents, constant=True)
    agentCount = Property(int, _agent_count, notify=agentsChanged)
    currentAgent = Property(str, _agent, notify=currentChanged)  # "": the host's own agent
    currentFolder = Property(str, _folder, notify=currentChanged)
    currentId = Property(str, _id, notify=currentIdChanged)
    currentTitle = Property(str, _title, notify=currentChanged)
    currentBranch = Property(str, _branch, notify=currentChanged)
    currentMode = Property(str, _mode, notify=currentChanged)
    currentRemote = Property(bool, _remote, notify=currentChanged)
    currentReachable = Property(bool, _reachable, notify=currentChanged)
    currentRemoteNote = Property(str, _remote_note, notify=currentChanged)
    currentRunning = Property(bool, _running, notify=currentChanged)
    runningCount = Property(int, _running_count, notify=listChanged)
    remoteRunningCount = Property(int, _remote_running_count, notify=listChanged)
    # the list is the last run's, drawn until the host answers (its rows not yet usable)
    cached = Property(bool, _cached, notify=listChanged)

    @Slot(bool)
    def closeChoice(self, stop_remote: bool) -> None:
        """Closing: whether the turns running on remote hosts are stopped too."""
        self._ask(it.CloseChoice(stop_remote))

    @Slot(str)
    def create(self, mode: str) -> None:
        self._ask(it.CreateSession(mode))

    @Slot(str, str)
    def createOn(self, agent: str, folder: str) -> None:
        """A session on the configured ACP agent `agent`, working in `folder` ("~/src";
        "" for the home folder)."""
        self._ask(it.CreateSession("agent", agent, folder))

    @Slot(str, str, str, str, bool)
    def createInWorktree(
        self, agent: str, folder: str, base: str, branch: str, carry: bool
    ) -> None:
        """As `createOn`, in a new git worktree of the folder's repository (section 18)."""
        self._ask(it.CreateSession("agent", agent, folder, (base, branch, carry)))

    @Slot(str, result=str)
    def branchProblem(self, typed: str) -> str:
        from nib_desktop.state.worktrees import branch_problem

        return branch_problem(typed)

    @Slot(str, result=str)
    def lastFolder(self, agent: str) -> str:
        """The folder the newest session of `agent` was made in ("~/src/app"), offered
        again by the agent dialog; "~" when there is none."""
        return sidebar.last_folder(self._state, agent)

    @Slot(str, result=bool)
    def inRepository(self, typed: str) -> bool:
        """The folder as typed is inside a git work tree (a `.git` in it or above it)."""
        from pathlib import Path

        where = Path(typed.strip()).expanduser() if typed.strip() else None
        if where is None or not where.is_absolute() or not where.is_dir():
            return False
        return any((folder / ".git").exists() for folder in (where, *where.parents))

    @Slot(str, result=str)
    def folderProblem(self, typed: str) -> str:
        """What is wrong with a folder as typed for an agent's session, in words ("" for
        nothing): checked as it is typed, so the dialog keeps what was typed."""
        from pathlib import Path

        if not typed.strip():
            return ""
        where = Path(typed.strip()).expanduser()
        if not where.is_absolute():
            return "Give the whole path: from / or ~"
        if not where.exists():
            return f"There is no folder {typed.strip()}"
        return "" if where.is_dir() else f"{typed.strip()} is a file, not a folder"

    @Slot(str)
    def show(self, session_id: str) -> None:
        self._ask(ev.SessionShown(session_id))

    @Slot(int)
    def showAdjacent(self, step: int) -> None:
        """The session `step` rows below (negative: above) the one shown."""
        self._ask(it.ShowAdjacent(step))

    @Slot(result="QVariantList")
    def choices(self) -> list[dict[str, str]]:
        """The sessions (id and title, as listed) and the configured agents (name), for
        the command palette: made when it opens, so it lists what is there now."""
        sessions = [
            {"kind": "session", "id": s.session_id, "title": s.title} for s in self._state.sessions
        ]
        agents = [{"kind": "agent", "id": a.name, "title": a.name} for a in self._state.agents]
        return sessions + agents

    @Slot()
    def retryRemote(self) -> None:
        """The shown remote session's host, tried now (Ctrl+R)."""
        self._ask(it.RetryRemote())

    @Slot()
    def fork(self) -> None:
        self._ask(it.ForkSession())

    @Slot(str)
    def remove(self, session_id: str) -> None:
        self._ask(it.DeleteSession(session_id))

    @Slot(str, str)
    def removeWith(self, session_id: str, worktree: str) -> None:
        """A session in its own worktree deleted, its worktree "remove"d or "keep"t."""
        self._ask(it.DeleteSession(session_id, worktree))
