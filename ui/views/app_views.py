"""The one object QML is given: every view of the window, each a small read-only facade
over the same state."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject
from PySide6.QtQml import QmlElement

from nib_desktop.state.store import AppState
from ui.views.agent_asks import AgentAsksView
from ui.views.announcer import Announcer
from ui.views.approvals import ApprovalsView
from ui.views.attempt_view import AttemptView
from ui.views.changes_view import ChangesView
from ui.views.composer import ComposerView
from ui.views.connection_view import ConnectionView
from ui.views.dock import DockView
from ui.views.earlier_view import EarlierView
from ui.views.editing_view import EditingView
from ui.views.feedback_view import FeedbackView
from ui.views.form_view import FormView
from ui.views.history import HistoryView
from ui.views.library_view import LibraryView
from ui.views.notices import NoticeView
from ui.views.palette import PaletteView
from ui.views.remote import RemoteView
from ui.views.rows import qml_uncreatable
from ui.views.sessions import SessionsView
from ui.views.settings import SettingsView
from ui.views.tools import ToolsView
from ui.views.transcript import TranscriptView
from ui.views.worktree_view import WorktreeView

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the application")
class AppViews(QObject):
    def __init__(
        self,
        state: AppState,
        ask: Ask,
        endpoint_problem: Callable[[str], str],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.sessions_view = SessionsView(state, ask, self)
        self.composer_view = ComposerView(state, ask, self)
        self.transcript_view = TranscriptView(state, ask, self)
        self.dock_view = DockView(state, ask, self)
        self.feedback_view = FeedbackView(state, ask, self)
        self.history_view = HistoryView(state, ask, self)
        self.approvals_view = ApprovalsView(state, ask, self)
        self.tools_view = ToolsView(state, ask, self)
        self.changes_view = ChangesView(state, ask, self)
        self.connection_view = ConnectionView(state, ask, self)
        self.notice_view = NoticeView(state, ask, self)
        self.remote_view = RemoteView(state, ask, endpoint_problem, self)
        self.settings_view = SettingsView(state, ask, self)
        self.palette_view = PaletteView(state, self.dock_view, ask, self)
        self.library_view = LibraryView(state, ask, self)
        self.agent_asks_view = AgentAsksView(state, ask, self)
        self.editing_view = EditingView(state, ask, self.transcript_view.model, self)
        self.worktree_view = WorktreeView(state, ask, self)
        self.earlier_view = EarlierView(state, ask, self)
        self.attempt_view = AttemptView(state, ask, self)
        self.form_view = FormView(state, ask, self)
        self.announcer_view = Announcer(state, self)  # a turn's end, heard

    def _get_sessions(self) -> SessionsView:
        return self.sessions_view

    def _get_composer(self) -> ComposerView:
        return self.composer_view

    def _get_transcript(self) -> TranscriptView:
        return self.transcript_view

    def _get_dock(self) -> DockView:
        return self.dock_view

    def _get_feedback(self) -> FeedbackView:
        return self.feedback_view

    def _get_history(self) -> HistoryView:
        return self.history_view

    def _get_approvals(self) -> ApprovalsView:
        return self.approvals_view

    def _get_announcer(self) -> Announcer:
        return self.announcer_view

    def _get_tools(self) -> ToolsView:
        return self.tools_view

    def _get_changes(self) -> ChangesView:
        return self.changes_view

    def _get_connection(self) -> ConnectionView:
        return self.connection_view

    def _get_notice(self) -> NoticeView:
        return self.notice_view

    def _get_remote(self) -> RemoteView:
        return self.remote_view

    def _get_settings(self) -> SettingsView:
        return self.settings_view

    def _get_palette(self) -> PaletteView:
        return self.palette_view

    def _get_agent_asks(self) -> AgentAsksView:
        return self.agent_asks_view

    def _get_editing(self) -> EditingView:
        return self.editing_view

    def _get_worktree(self) -> WorktreeView:
        return self.worktree_view

    def _get_earlier(self) -> EarlierView:
        return self.earlier_view

    def _get_attempt(self) -> AttemptView:
        return self.attempt_view

    def _get_library(self) -> LibraryView:
        return self.library_view

    def _get_form(self) -> FormView:
        return self.form_view

    sessions = Property(SessionsView, _get_sessions, constant=True)
    composer = Property(ComposerView, _get_composer, constant=True)
    agentAsks = Property(AgentAsksView, _get_agent_asks, constant=True)
    editing = Property(EditingView, _get_editing, constant=True)
    worktree = Property(WorktreeView, _get_worktree, constant=True)
    earlier = Property(EarlierView, _get_earlier, constant=True)
    attempt = Property(AttemptView, _get_attempt, constant=True)
    transcript = Property(TranscriptView, _get_transcript, constant=True)
    dock = Property(DockView, _get_dock, constant=True)
    feedback = Property(FeedbackView, _get_feedback, constant=True)
    history = Property(HistoryView, _get_history, constant=True)
    approvals = Property(ApprovalsView, _get_approvals, constant=True)
    announcer = Property(Announcer, _get_announcer, constant=True)
    tools = Property(ToolsView, _get_tools, constant=True)
    changes = Property(ChangesView, _get_changes, constant=True)
    connection = Property(ConnectionView, _get_connection, constant=True)
    notice = Property(NoticeView, _get_notice, constant=True)
    remote = Property(RemoteView, _get_remote, constant=True)
    settings = Property(SettingsView, _get_settings, constant=True)
    palette = Property(PaletteView, _get_palette, constant=True)
    library = Property(LibraryView, _get_library, constant=True)
    form = Property(FormView, _get_form, constant=True)
