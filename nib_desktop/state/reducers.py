"""Every event's reducer, found by the event's type: a small function of the state and
the event that changes the state and returns what it changed (`aspects.Change`). Imported
with the first event applied; `tests/desktop/test_state.py` checks that every event of
`events.Event` has one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nib_desktop.state import (
    events as ev,
    on_attempts as attempts,
    on_checklist as checklist,
    on_sessions as sessions,
    on_transcript as transcript,
)
from nib_desktop.state.aspects import Change
from nib_desktop.state.parts import Held

Reducer = Callable[[Held, Any], Change]

REDUCERS: dict[type[Any], Reducer] = {
    ev.ConnectionChanged: sessions.connection_changed,
    ev.SessionsListed: sessions.sessions_listed,
    ev.SessionChanged: sessions.session_changed,
    ev.SessionDeleted: sessions.session_deleted,
    ev.SessionShown: sessions.session_shown,
    ev.WindowActivated: sessions.window_activated,
    ev.ApprovalRequested: sessions.approval_requested,
    ev.ApprovalResolved: sessions.approval_resolved,
    ev.AskTold: sessions.ask_told,
    ev.AskEnded: sessions.ask_ended,
    ev.ToolsListed: sessions.tools_listed,
    ev.AgentsListed: sessions.agents_listed,
    ev.SteeringTold: sessions.steering_told,
    ev.NoticeShown: sessions.notice_shown,
    ev.DraftSaved: sessions.draft_saved,
    ev.MessageQueued: sessions.message_queued,
    ev.RemoteChoicesListed: sessions.remote_choices_listed,
    ev.DesktopPrefsSet: sessions.desktop_prefs_set,
    ev.DockExpanded: sessions.dock_expanded,
    ev.ReducedMotionSet: sessions.reduced_motion_set,
    ev.TurnChanged: transcript.turn_changed,
    ev.TranscriptPage: transcript.transcript_page,
    ev.LinesAppended: transcript.lines_appended,
    ev.TextStreamed: transcript.text_streamed,
    ev.SnapshotArrived: checklist.snapshot_arrived,
    ev.HistoryOpened: checklist.history_opened,
    ev.HistoryClosed: checklist.history_closed,
    ev.HistoryPageLoaded: checklist.history_page,
    ev.RevisionWritten: checklist.revision_written,
    ev.HistoryRequestsRead: checklist.history_requests_read,
    ev.RevisionViewed: checklist.revision_viewed,
    ev.ChangesShown: checklist.changes_shown,
    ev.CheckpointTaken: checklist.checkpoint_taken,
    ev.WorktreeTold: sessions.worktree_told,
    ev.AttemptTold: attempts.attempt_told,
    ev.CheckRecalled: attempts.check_recalled,
    ev.RemoteFolderChecked: sessions.remote_folder_checked,
    ev.EditingSet: sessions.editing_set,
    ev.EarlierListed: sessions.earlier_listed,
    ev.StepFilesCounted: checklist.step_files_counted,
    ev.RevisionFilesCounted: checklist.revision_files_counted,
    ev.PlanAsked: checklist.plan_asked,
    ev.FilesFound: transcript.files_found,
    ev.ImagesHeld: transcript.images_held,
    ev.SearchAnswered: sessions.search_answered,
}
