"""The contract's table without pydantic, for the window (see `host.protocol.plain`).

Written by `python -m host.protocol.plain_gen` from `host.protocol.methods`:
not to be edited; a test checks that it is what they give."""

from __future__ import annotations

from typing import Any

from host.protocol import plain_models as m
from host.protocol.method_types import Method as Method, Notification as Notification

HELLO = Method("host.hello", m.HelloParams, m.HelloResult)
SHUTDOWN = Method("host.shutdown", m.Empty, m.OkResult)
SESSIONS_CREATE = Method("sessions.create", m.CreateSessionParams, m.Session)
SESSIONS_LIST = Method("sessions.list", m.Empty, m.SessionList)
SESSIONS_GET = Method("sessions.get", m.SessionRef, m.Session)
SESSIONS_FORK = Method("sessions.fork", m.ForkParams, m.Session)
SESSIONS_DELETE = Method("sessions.delete", m.DeleteParams, m.Deleted)
TURNS_START = Method("turns.start", m.StartTurnParams, m.Turn)
TURNS_CANCEL = Method("turns.cancel", m.TurnRef, m.Turn)
TURNS_LIST = Method("turns.list", m.TurnListParams, m.TurnList)
SESSIONS_COMPACT = Method("sessions.compact", m.SessionRef, m.CompactResult)
FILES_LIST = Method("files.list", m.SessionRef, m.FilesList)
MESSAGES_LIST = Method("messages.list", m.MessageListParams, m.MessageList)
TODOS_GET = Method("todos.get", m.SessionRef, m.TodoSnapshot)
TODOS_HISTORY = Method("todos.history", m.TodoHistoryParams, m.TodoHistory)
TOOLS_LIST = Method("tools.list", m.Empty, m.ToolsList)
APPROVALS_RESPOND = Method("approvals.respond", m.ApprovalRespondParams, m.OkResult)
REMOTE_SESSIONS = Method("remote.sessions", m.RemoteSessionsParams, m.SessionList)
AGENTS_LIST = Method("agents.list", m.AgentsListParams, m.AgentsList)
TOOLS_RETRY = Method("tools.retry", m.ToolsRetryParams, m.OkResult)
CHECKPOINTS_LIST = Method("checkpoints.list", m.CheckpointListParams, m.CheckpointList)
CHANGES_GET = Method("changes.get", m.ChangesGetParams, m.Changes)
CHANGES_STEP = Method("changes.step", m.ChangesStepParams, m.Changes)
CHANGES_RESTORE = Method("changes.restore", m.RestoreParams, m.Restored)
CHANGES_REVERT_HUNK = Method("changes.revertHunk", m.RevertHunkParams, m.Restored)
WORKTREES_STATUS = Method("worktrees.status", m.SessionRef, m.WorktreeStatus)
WORKTREES_MERGE = Method("worktrees.merge", m.MergeParams, m.Merged)
WORKTREES_REMOVE = Method("worktrees.remove", m.RemoveWorktreeParams, m.RemovedWorktree)
ATTEMPTS_START = Method("attempts.start", m.AttemptStartParams, m.AttemptStarted)
ATTEMPTS_GET = Method("attempts.get", m.AttemptRef, m.Attempt)
ATTEMPTS_LIST = Method("attempts.list", m.Empty, m.AttemptList)
ATTEMPTS_COMPARE = Method("attempts.compare", m.CompareParams, m.Compared)
SESSIONS_REWIND = Method("sessions.rewind", m.RewindParams, m.Session)
AGENTS_SESSIONS = Method("agents.sessions", m.AgentSessionsParams, m.AgentSessions)
SESSIONS_IMPORT = Method("sessions.import", m.ImportParams, m.Session)
AGENTS_CONTROLS = Method("agents.controls", m.ControlsParams, m.AgentControls)
AGENTS_SET_MODE = Method("agents.setMode", m.SetModeParams, m.AgentControls)
AGENTS_SET_OPTION = Method("agents.setOption", m.SetOptionParams, m.AgentControls)
AGENTS_AUTHENTICATE = Method("agents.authenticate", m.AuthenticateParams, m.OkResult)
SETTINGS_GET = Method("settings.get", m.Empty, m.SettingsView)
SETTINGS_SET = Method("settings.set", m.SettingsSetParams, m.SettingsView)
SESSIONS_RENAME = Method("sessions.rename", m.RenameParams, m.Session)
SESSIONS_SEARCH = Method("sessions.search", m.SearchParams, m.SearchResults)
SESSIONS_EXPORT = Method("sessions.export", m.ExportParams, m.Exported)
AGENTS_ANSWER = Method("agents.answer", m.AnswerParams, m.OkResult)
FOLDERS_CHECK = Method("folders.check", m.FolderCheckParams, m.FolderChecked)
TODOS_CHANGED = Notification("todos.changed", m.TodoSnapshot)
TURNS_CHANGED = Notification("turns.changed", m.Turn)
SESSIONS_CHANGED = Notification("sessions.changed", m.Session)
SESSIONS_DELETED = Notification("sessions.deleted", m.SessionDeleted)
MESSAGES_APPENDED = Notification("messages.appended", m.MessageAppended)
MESSAGES_DELTA = Notification("messages.delta", m.MessageDelta)
APPROVALS_REQUESTED = Notification("approvals.requested", m.ApprovalRequested)
APPROVALS_RESOLVED = Notification("approvals.resolved", m.ApprovalResolved)
TOOLS_CHANGED = Notification("tools.changed", m.ToolsList)
AGENTS_CHANGED = Notification("agents.changed", m.AgentsList)
CHECKPOINTS_CHANGED = Notification("checkpoints.changed", m.CheckpointChanged)
CHECKPOINTS_FAILED = Notification("checkpoints.failed", m.CheckpointFailed)
WORKTREES_CHANGED = Notification("worktrees.changed", m.WorktreeStatus)
ATTEMPTS_CHANGED = Notification("attempts.changed", m.Attempt)
AGENTS_CONTROLS_CHANGED = Notification("agents.controlsChanged", m.AgentControls)
SESSIONS_USAGE = Notification("sessions.usage", m.SessionUsage)
SETTINGS_CHANGED = Notification("settings.changed", m.SettingsView)
HOST_STALE = Notification("host.stale", m.Stale)
AGENTS_ASKED = Notification("agents.asked", m.AgentAsked)
AGENTS_ANSWERED = Notification("agents.answered", m.AgentAnswered)
METHODS: dict[str, Method[Any, Any]] = {
    method.name: method
    for method in (
        HELLO,
        SHUTDOWN,
        SESSIONS_CREATE,
        SESSIONS_LIST,
        SESSIONS_GET,
        SESSIONS_FORK,
        SESSIONS_DELETE,
        TURNS_START,
        TURNS_CANCEL,
        TURNS_LIST,
        SESSIONS_COMPACT,
        FILES_LIST,
        MESSAGES_LIST,
        TODOS_GET,
        TODOS_HISTORY,
        TOOLS_LIST,
        APPROVALS_RESPOND,
        REMOTE_SESSIONS,
        AGENTS_LIST,
        TOOLS_RETRY,
        CHECKPOINTS_LIST,
        CHANGES_GET,
        CHANGES_STEP,
        CHANGES_RESTORE,
        CHANGES_REVERT_HUNK,
        WORKTREES_STATUS,
        WORKTREES_MERGE,
        WORKTREES_REMOVE,
        ATTEMPTS_START,
        ATTEMPTS_GET,
        ATTEMPTS_LIST,
        ATTEMPTS_COMPARE,
        SESSIONS_REWIND,
        AGENTS_SESSIONS,
        SESSIONS_IMPORT,
        AGENTS_CONTROLS,
        AGENTS_SET_MODE,
        AGENTS_SET_OPTION,
        AGENTS_AUTHENTICATE,
        SETTINGS_GET,
        SETTINGS_SET,
        SESSIONS_RENAME,
        SESSIONS_SEARCH,
        SESSIONS_EXPORT,
        AGENTS_ANSWER,
        FOLDERS_CHECK,
    )
}
NOTIFICATIONS: dict[str, Notification[Any]] = {
    note.name: note
    for note in (
        TODOS_CHANGED,
        TURNS_CHANGED,
        SESSIONS_CHANGED,
        SESSIONS_DELETED,
        MESSAGES_APPENDED,
        MESSAGES_DELTA,
        APPROVALS_REQUESTED,
        APPROVALS_RESOLVED,
        TOOLS_CHANGED,
        AGENTS_CHANGED,
        CHECKPOINTS_CHANGED,
        CHECKPOINTS_FAILED,
        WORKTREES_CHANGED,
        ATTEMPTS_CHANGED,
        AGENTS_CONTROLS_CHANGED,
        SESSIONS_USAGE,
        SETTINGS_CHANGED,
        HOST_STALE,
        AGENTS_ASKED,
        AGENTS_ANSWERED,
    )
}
