"""Host notifications as events: one typed method per notification of the contract,
checked complete when the router is made. The router reads the state to decide what a
notification means (is its session shown? did its remote host just go out of reach?)
and applies events; it calls nothing and emits nothing else."""

from __future__ import annotations

from collections.abc import Callable

from host.protocol import models as m
from host.protocol.peers import routes
from host.protocol.text import shown_text
from host.protocol.todo_diff import diff_items
from nib_desktop.inbound import convert, lines, tools_and_controls, transcript_page
from nib_desktop.inbound.settings_shown import show_settings
from nib_desktop.state import events as ev
from nib_desktop.state.steering import Steering
from nib_desktop.state.store import AppState
from nib_desktop.state.types import TurnView


class LineFeed:
    """The line maker of the transcript on screen: reset when a session's transcript is
    loaded, fed every message appended to it since."""

    def __init__(self) -> None:
        self.maker = lines.LineMaker()

    def reset(self, titled: bool = False, folder: str = "") -> lines.LineMaker:
        """A new maker for a transcript loaded (`titled`: an ACP agent's session;
        `folder`: the session's)."""
        self.maker = lines.LineMaker(titled, folder)
        return self.maker


class HistoryFeed:
    """How far the open History view is complete, as the host told it: its session, the
    newest revision held (None: the session has none stored) and that revision's items,
    so the next write is appended with the host's own diff and no `todos.history` call.
    Set by the loader from a page, moved on by the router with each write."""

    def __init__(self) -> None:
        self.session_id = ""
        self.revision: int | None = None
        self.items: tuple[m.TodoItem, ...] = ()

    def told(self, session_id: str, newest: m.TodoRevision | None) -> None:
        held = self.revision if session_id == self.session_id else None
        if newest is not None and held is not None and newest.revision < held:
            return  # a page answered before a later write was appended
        self.session_id = session_id
        self.revision = newest.revision if newest is not None else None
        self.items = newest.items if newest is not None else ()

    def next_revision(self, snapshot: m.TodoSnapshot, turn_id: str) -> m.TodoRevision | None:
        """The History entry of `snapshot` if it follows what is held (else None: load)."""
        if snapshot.session_id != self.session_id or not turn_id or snapshot.updated_at is None:
            return None
        if self.revision is not None and self.revision != snapshot.revision - 1:
            return None
        revision = m.TodoRevision(
            session_id=snapshot.session_id,
            revision=snapshot.revision,
            turn_id=turn_id,
            created_at=snapshot.updated_at,
            items=snapshot.items,
            diff=diff_items(self.items, snapshot.items),  # as the host diffs a write
        )
        self.revision, self.items = snapshot.revision, snapshot.items
        return revision


class Router:
    def __init__(self, state: AppState, feed: LineFeed, history: HistoryFeed) -> None:
        self._state = state
        self._feed = feed
        self._history = history
        # what to do when the host says a notification was too large to send (the Main
        # role: load everything again)
        self.on_stale: Callable[[], None] = lambda: None
        self._routes = routes(self)  # every notification of the table, checked whole

    def route(self, name: str, params: m.Wire) -> None:
        self._routes[name](params)

    def host_stale(self, _params: m.Stale) -> None:
        self.on_stale()

    def checkpoints_changed(self, told: m.CheckpointChanged) -> None:
        self._state.apply(ev.CheckpointTaken(told.session_id))

    def worktrees_changed(self, told: m.WorktreeStatus) -> None:
        self._state.apply(ev.WorktreeTold(convert.worktree(told)))

    def attempts_changed(self, told: m.Attempt) -> None:
        """Not shown yet: the window has no attempt's view (issue 50)."""

    def todos_changed(self, snapshot: m.TodoSnapshot) -> None:
        """The checklist's new revision; the open History view gains it in place when it
        follows what it holds (a local session's running turn wrote it)."""
        state = self._state
        session_id = snapshot.session_id
        if state.history.session_id == session_id:
            shown = state.session(session_id)
            writer = shown.running_turn if shown is not None and not shown.remote else ""
            entry = self._history.next_revision(snapshot, writer)
            if entry is not None:
                state.apply(ev.RevisionWritten(session_id, convert.revision(entry)))
        state.apply(ev.SnapshotArrived(convert.snapshot(snapshot)))

    def turns_changed(self, turn: m.Turn) -> None:
        view = convert.turn(turn)
        self._state.apply(ev.TurnChanged(view))
        line = transcript_page.turn_end(view)
        if line is not None:
            self._state.apply(ev.LinesAppended(turn.session_id, (line,)))

    def sessions_changed(self, session: m.Session) -> None:
        """A session's new state. A remote session whose host went out of reach while its
        turn ran is told as unreachable (nothing moves); once linked again it runs again
        if it still does."""
        before = self._state.session(session.id)
        after = convert.session(session)
        self._state.apply(ev.SessionChanged(after))
        if before is None or before.remote_state == after.remote_state or not after.running:
            return
        if after.remote_state == "unreachable":
            error = shown_text(session.remote.error or "") if session.remote else ""
            turn = TurnView(session.id, "unreachable", error, after.running_turn)
            self._state.apply(ev.TurnChanged(turn))
        elif after.remote_state == "connected":
            self._state.apply(
                ev.TurnChanged(TurnView(session.id, "running", "", after.running_turn))
            )

    def sessions_deleted(self, params: m.SessionDeleted) -> None:
        self._state.apply(ev.SessionDeleted(params.session_id))

    def messages_appended(self, params: m.MessageAppended) -> None:
        if params.session_id != self._state.transcript.session_id:
            return
        lines = self._feed.maker.lines(params.message)
        self._state.apply(ev.LinesAppended(params.session_id, lines))

    def messages_delta(self, params: m.MessageDelta) -> None:
        if params.session_id != self._state.transcript.session_id:
            return
        self._state.apply(
            ev.TextStreamed(params.session_id, params.kind == "thought", shown_text(params.text))
        )

    def approvals_requested(self, params: m.ApprovalRequested) -> None:
        self._state.apply(ev.ApprovalRequested(convert.approval(params)))

    def approvals_resolved(self, params: m.ApprovalResolved) -> None:
        self._state.apply(ev.ApprovalResolved(params.approval_id))

    def tools_changed(self, listing: m.ToolsList) -> None:
        self._state.apply(ev.ToolsListed(tools_and_controls.tool_sources(listing)))

    def agents_changed(self, listing: m.AgentsList) -> None:
        self._state.apply(ev.AgentsListed(convert.agents(listing)))

    def agents_controls_changed(self, controls: m.AgentControls) -> None:
        self._state.apply(ev.SteeringTold(tools_and_controls.steering(controls)))

    def sessions_usage(self, told: m.SessionUsage) -> None:
        """A session of the host's own agent: how full its context is, as its usage."""
        usage = tools_and_controls.usage_words(m.Usage(used=told.used, size=told.size))
        self._state.apply(ev.SteeringTold(Steering(told.session_id, usage=usage)))

    def settings_changed(self, view: m.SettingsView) -> None:
        show_settings(self._state, view)
