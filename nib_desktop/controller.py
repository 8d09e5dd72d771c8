"""The main-window controller as QML sees it: one registered type with an explicit set of
properties and slots.

It holds what the window shows (the sessions, the current session, its transcript, the
connection state, the last failure) and the renderer's store and dock model. Checklist
snapshots and turn states reach the store through its two typed signals. Each slot
forwards to the action of the same name (`createSession` -> `create_session`), run by the
Main role, which shows any failure as the notice. This module imports nothing of the host,
so the window can be on screen before the protocol loads.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QmlElement

from ui.models import (
    ApprovalView,
    RemoteChoice,
    RemoteChoiceModel,
    SessionListModel,
    SessionRow,
    TodoDockModel,
    ToolSourceModel,
    ToolSourceRow,
    TranscriptModel,
    qml_uncreatable,
)
from ui.snapshots import SnapshotStore

COMPACT_COMMAND = "/compact"  # typed alone in the composer: summarise the session now

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

Action = Coroutine[Any, Any, object]


class Actions(Protocol):
    """The Main role's actions the slots forward to (`nib_desktop.actions.Actions`)."""

    def create_session(self, mode: str) -> Action: ...
    def attach_remote(self, endpoint: str, remote_session_id: str) -> Action: ...
    def list_remote_sessions(self, endpoint: str) -> Action: ...
    def respond_approval(self, approval_id: str, decision: str) -> Action: ...
    def fork_session(self) -> Action: ...
    def delete_session(self, session_id: str) -> Action: ...
    def select_session(self, session_id: str) -> Action: ...
    def start_turn(self, text: str) -> Action: ...
    def cancel_turn(self) -> Action: ...
    def retry(self) -> Action: ...
    def load_history(self, older: bool) -> Action: ...
    def load_older_messages(self) -> Action: ...
    def compact_session(self) -> Action: ...


@QmlElement
@qml_uncreatable("made by the application")
class MainController(QObject):
    todosChanged = Signal(object)  # ui.snapshots.Snapshot, in commit order
    turnChanged = Signal(object)  # ui.snapshots.TurnView
    connectionChanged = Signal()
    currentChanged = Signal()
    currentSessionIdChanged = Signal()  # another session is shown (not only a new title)
    noticeChanged = Signal()
    sessionsChanged = Signal()  # the list's rows (running or not) changed
    transcriptMoreChanged = Signal()
    approvalChanged = Signal()  # the approval the composer shows (the shown session's first)
    approvalAnnounced = Signal(str)  # said to assistive technology when a call waits

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._actions: Actions | None = None
        self._run: Callable[[Action, str], None] = lambda action, what: action.close()
        self.store = SnapshotStore()
        self.todosChanged.connect(self.store.apply)
        self.turnChanged.connect(self.store.set_turn)
        self.sessions_model = SessionListModel(self)
        for change in (
            self.sessions_model.modelReset,
            self.sessions_model.dataChanged,
            self.sessions_model.rowsInserted,
            self.sessions_model.rowsRemoved,
        ):
            change.connect(self.sessionsChanged)
        self.transcript_model = TranscriptModel(self)
        self.dock_model = TodoDockModel(self.store, self)
        self._current: SessionRow | None = None
        self._state = "starting"
        self._error = ""
        self._notice = ""
        self._drafts: dict[str, str] = {}  # unsent text per session id
        self._transcript_more = False
        self._approvals: list[ApprovalView] = []  # waiting calls, oldest first, all sessions
        self.tool_sources = ToolSourceModel(self)
        self._tools_failed = 0  # MCP servers and plugins that failed
        self.remote_choices = RemoteChoiceModel(self)  # the sessions on the dialog's host
        self._remote_choices_note = ""

    def attach(self, actions: Actions, run: Callable[[Action, str], None]) -> None:
        """The Main role's actions, and how to run one with what it does in words
        (a failure becomes the notice "Could not <what>: <why>")."""
        self._actions, self._run = actions, run

    # --- what the Main role sets ------------------------------------------------------

    def set_connection(self, state: str, error: str = "") -> None:
        if (state, error) != (self._state, self._error):
            self._state, self._error = state, error
            self.connectionChanged.emit()

    def set_current(self, current: SessionRow | None) -> None:
        """The session on screen (a row of the sessions list), or none."""
        previous, self._current = self._current, current
        self.dock_model.show_session(
            current.sessionId if current else None, current.checklistNote if current else ""
        )
        if previous != current:
            self.currentChanged.emit()
            self.approvalChanged.emit()
        if (previous.sessionId if previous else "") != (current.sessionId if current else ""):
            self.currentSessionIdChanged.emit()

    def approval_requested(self, view: ApprovalView) -> None:
        self._approvals.append(view)
        if self._current is not None and view.sessionId == self._current.sessionId:
            self.approvalAnnounced.emit(f"{view.tool} waits for your approval")
        self.approvalChanged.emit()

    def approval_resolved(self, approval_id: str) -> None:
        self._approvals = [a for a in self._approvals if a.approvalId != approval_id]
        self.approvalChanged.emit()

    def clear_approvals(self) -> None:
        """After a reconnect: the calls that waited ended with their host."""
        self._approvals = []
        self.approvalChanged.emit()

    def set_tool_sources(self, rows: list[ToolSourceRow]) -> None:
        failed = sum(1 for row in rows if row.sourceState == "failed")
        self.tool_sources.set_rows(rows)
        if failed != self._tools_failed:
            self._tools_failed = failed
            self.toolsFailedChanged.emit()

    def _get_tools_failed(self) -> int:
        return self._tools_failed

    def _shown_approval(self) -> ApprovalView | None:
        shown = self._current.sessionId if self._current else None
        return next((a for a in self._approvals if a.sessionId == shown), None)

    def _get_approval_id(self) -> str:
        view = self._shown_approval()
        return view.approvalId if view else ""

    def _get_approval_tool(self) -> str:
        view = self._shown_approval()
        return view.tool if view else ""

    def _get_approval_arguments(self) -> str:
        view = self._shown_approval()
        return view.arguments if view else ""

    def _get_approvals_elsewhere(self) -> int:
        """Calls waiting in sessions other than the one shown."""
        shown = self._current.sessionId if self._current else None
        return sum(1 for a in self._approvals if a.sessionId != shown)

    def _get_tool_sources(self) -> ToolSourceModel:
        return self.tool_sources

    approvalId = Property(str, _get_approval_id, notify=approvalChanged)
    approvalTool = Property(str, _get_approval_tool, notify=approvalChanged)
    approvalArguments = Property(str, _get_approval_arguments, notify=approvalChanged)
    approvalsElsewhere = Property(int, _get_approvals_elsewhere, notify=approvalChanged)
    toolSources = Property(ToolSourceModel, _get_tool_sources, constant=True)
    toolsFailedChanged = Signal()
    toolsFailed = Property(int, _get_tools_failed, notify=toolsFailedChanged)

    @Slot(str)
    def respondApproval(self, decision: str) -> None:
        """Decide the call the composer shows: allow_once, allow_session or deny."""
        approval_id = self._get_approval_id()
        if self._actions is not None and approval_id:
            action = self._actions.respond_approval(approval_id, decision)
            self._run(action, "answer the approval")

    def forget(self, session_id: str) -> None:
        self.store.forget(session_id)
        self._drafts.pop(session_id, None)

    def set_transcript_more(self, more: bool) -> None:
        """Whether the shown transcript has older messages than those loaded."""
        if more != self._transcript_more:
            self._transcript_more = more
            self.transcriptMoreChanged.emit()

    def show_notice(self, text: str) -> None:
        self._notice = text
        self.noticeChanged.emit()

    # --- what QML reads -----------------------------------------------------------------

    def _get_sessions(self) -> SessionListModel:
        return self.sessions_model

    def _get_transcript(self) -> TranscriptModel:
        return self.transcript_model

    def _get_dock(self) -> TodoDockModel:
        return self.dock_model

    def _get_state(self) -> str:
        return self._state

    def _get_error(self) -> str:
        return self._error

    def _get_notice(self) -> str:
        return self._notice

    def _get_current_id(self) -> str:
        return self._current.sessionId if self._current else ""

    def _get_current_title(self) -> str:
        return self._current.title if self._current else ""

    def _get_current_mode(self) -> str:
        return self._current.mode if self._current else "agent"

    def _get_current_remote(self) -> bool:
        return self._current is not None and self._current.remote

    def _get_current_reachable(self) -> bool:
        """Turns can start here: a local session, or a remote one whose host is linked."""
        return self._current is None or self._current.remoteState in ("", "connected")

    def _get_current_remote_note(self) -> str:
        return self._current.remoteNote if self._current else ""

    def _get_current_running(self) -> bool:
        return self._current is not None and self._current.running

    def _get_transcript_more(self) -> bool:
        return self._transcript_more

    def _get_running_count(self) -> int:
        return sum(1 for row in self.sessions_model.rows() if row.running)

    sessions = Property(SessionListModel, _get_sessions, constant=True)
    transcript = Property(TranscriptModel, _get_transcript, constant=True)
    dock = Property(TodoDockModel, _get_dock, constant=True)
    connectionState = Property(str, _get_state, notify=connectionChanged)
    connectionError = Property(str, _get_error, notify=connectionChanged)
    notice = Property(str, _get_notice, notify=noticeChanged)
    currentSessionId = Property(str, _get_current_id, notify=currentSessionIdChanged)
    currentTitle = Property(str, _get_current_title, notify=currentChanged)
    currentMode = Property(str, _get_current_mode, notify=currentChanged)
    currentRemote = Property(bool, _get_current_remote, notify=currentChanged)
    currentReachable = Property(bool, _get_current_reachable, notify=currentChanged)
    currentRemoteNote = Property(str, _get_current_remote_note, notify=currentChanged)
    currentRunning = Property(bool, _get_current_running, notify=currentChanged)
    runningCount = Property(int, _get_running_count, notify=sessionsChanged)
    transcriptHasMore = Property(bool, _get_transcript_more, notify=transcriptMoreChanged)

    # --- the slots QML may call (nothing happens until the Main role is attached) -------

    @Slot(str)
    def createSession(self, mode: str) -> None:
        if self._actions is not None:
            self._run(self._actions.create_session(mode), "create a session")

    @Slot(str, str)
    def attachRemote(self, endpoint: str, remote_session_id: str) -> None:
        if self._actions is not None:
            action = self._actions.attach_remote(endpoint, remote_session_id)
            self._run(action, "attach the remote session")

    @Slot(str)
    def listRemoteSessions(self, endpoint: str) -> None:
        """The sessions the host at `endpoint` has, into `remoteChoices`."""
        if self._actions is not None:
            self.set_remote_choices([], "Asking the remote host…")
            self._run(self._actions.list_remote_sessions(endpoint), "list the remote sessions")

    @Slot()
    def set_remote_choices_cleared(self) -> None:
        self.set_remote_choices([], "")

    def set_remote_choices(self, choices: list[RemoteChoice], note: str) -> None:
        self.remote_choices.set_rows(choices)
        self._remote_choices_note = note
        self.remoteChoicesChanged.emit()

    def _get_remote_choices(self) -> RemoteChoiceModel:
        return self.remote_choices

    def _get_remote_choices_note(self) -> str:
        return self._remote_choices_note

    remoteChoicesChanged = Signal()
    remoteChoices = Property(RemoteChoiceModel, _get_remote_choices, constant=True)
    remoteChoicesNote = Property(str, _get_remote_choices_note, notify=remoteChoicesChanged)

    @Slot()
    def forkSession(self) -> None:
        if self._actions is not None:
            self._run(self._actions.fork_session(), "fork the session")

    @Slot(str)
    def deleteSession(self, session_id: str) -> None:
        if self._actions is not None:
            self._run(self._actions.delete_session(session_id), "delete the session")

    @Slot(str)
    def selectSession(self, session_id: str) -> None:
        if self._actions is not None:
            self._run(self._actions.select_session(session_id), "show the session")

    @Slot(str, result=bool)
    def startTurn(self, text: str) -> bool:
        """Start a turn with `text`; False (and the text stays) if it cannot be sent."""
        current = self._current
        busy = current is not None and (current.running or not self._get_current_reachable())
        if self._actions is None or not text.strip() or busy or self._state != "ready":
            return False
        if text.strip() == COMPACT_COMMAND:
            if current is None:
                return False
            self._run(self._actions.compact_session(), "compact the session")
            return True
        self._run(self._actions.start_turn(text), "send the message")
        return True

    @Slot()
    def cancelTurn(self) -> None:
        if self._actions is not None:
            self._run(self._actions.cancel_turn(), "stop the turn")

    @Slot()
    def retry(self) -> None:
        if self._actions is not None:
            self._run(self._actions.retry(), "start the host")

    @Slot()
    def openHistory(self) -> None:
        """Open the dock's History view on the session shown and load its newest page."""
        if self._actions is not None and self.dock_model.open_history():
            self._run(self._actions.load_history(False), "load the checklist history")

    @Slot()
    def loadOlderMessages(self) -> None:
        if self._actions is not None and self._transcript_more:
            self._run(self._actions.load_older_messages(), "load earlier messages")

    @Slot()
    def loadMoreHistory(self) -> None:
        if self._actions is not None and self.dock_model.history_session() is not None:
            self._run(self._actions.load_history(True), "load older revisions")

    @Slot(int)
    def selectAdjacent(self, step: int) -> None:
        """Show the session `step` rows below (negative: above) the one shown, in the
        sidebar's order; it stops at either end."""
        rows = self.sessions_model.rows()
        ids = [row.sessionId for row in rows]
        if not ids:
            return
        here = (
            ids.index(self._current.sessionId)
            if self._current and self._current.sessionId in ids
            else -1
        )
        target = max(0, min(len(ids) - 1, here + step)) if here >= 0 else 0
        if ids[target] != (self._current.sessionId if self._current else ""):
            self.selectSession(ids[target])

    @Slot(str, str)
    def saveDraft(self, session_id: str, text: str) -> None:
        """Keep the unsent `text` of a session (the input shows another one now)."""
        if text:
            self._drafts[session_id] = text
        else:
            self._drafts.pop(session_id, None)

    @Slot(str, result=str)
    def draft(self, session_id: str) -> str:
        return self._drafts.get(session_id, "")

    @Slot(str, result=str)
    def endpointProblem(self, endpoint: str) -> str:
        """What is wrong with a remote endpoint as typed, or "" if nothing."""
        from host.protocol.remote import parse_endpoint

        try:
            parse_endpoint(endpoint)
        except ValueError as exc:
            return str(exc)
        return ""

    @Slot()
    def copyTranscript(self) -> None:
        """The whole transcript shown, as plain text, to the clipboard."""
        text = "\n\n".join(row.text for row in self.transcript_model.rows())
        QGuiApplication.clipboard().setText(text)

    @Slot()
    def dismissNotice(self) -> None:
        self.show_notice("")
