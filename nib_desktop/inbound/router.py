"""Host notifications as events: one typed method per notification of the contract,
checked complete when the router is made. The router reads the state to decide what a
notification means (is its session shown? did its remote host just go out of reach?)
and applies events; it calls nothing and emits nothing else."""

from __future__ import annotations

from collections.abc import Callable

from host.protocol import plain_models as m
from host.protocol.client_peer import routes
from host.protocol.text import shown_text
from nib_desktop.inbound import convert, lines, tools_and_controls, transcript_page
from nib_desktop.inbound.settings_shown import show_settings
from nib_desktop.state import events as ev
from nib_desktop.state.asking import Ask, AskField
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
    newest revision held (None: the session has none stored) and that revision's items.
    A write that follows what is held is appended in two halves the host sends anyway:
    its `todos.changed` (the items, the time) and its transcript entry's commit
    (`Message.todo`: the revision's own diff), so no `todos.history` call and no second
    diff. Set by the loader from a page, moved on by the router with each write."""

    def __init__(self) -> None:
        self.session_id = ""
        self.revision: int | None = None
        self.items: tuple[m.TodoItem, ...] = ()
        self.awaited: m.TodoSnapshot | None = None  # a write whose commit entry is to come

    def told(self, session_id: str, newest: m.TodoRevision | None) -> None:
        held = self.revision if session_id == self.session_id else None
        if newest is not None and held is not None and newest.revision < held:
            return  # a page answered before a later write was appended
        self.session_id = session_id
        self.revision = newest.revision if newest is not None else None
        self.items = newest.items if newest is not None else ()
        self.awaited = None

    def snapshot_told(self, snapshot: m.TodoSnapshot) -> bool:
        """Whether `snapshot` follows what is held: its commit entry is then awaited."""
        follows = self.revision is None or self.revision == snapshot.revision - 1
        if snapshot.session_id != self.session_id or snapshot.updated_at is None or not follows:
            return False
        self.awaited = snapshot
        return True

    def awaits(self, session_id: str, revision: int) -> bool:
        held = self.awaited
        return held is not None and (held.session_id, held.revision) == (session_id, revision)

    def commit_told(self, message: m.Message) -> m.TodoRevision | None:
        """The History entry the awaited write makes with `message`'s commit, if it is its."""
        held, commit = self.awaited, message.todo
        if held is None or commit is None or not self.awaits(message.session_id, commit.revision):
            return None
        self.awaited = None
        self.revision, self.items = held.revision, held.items
        return m.TodoRevision(
            session_id=held.session_id,
            revision=held.revision,
            turn_id=message.turn_id,
            created_at=held.updated_at or message.created_at,
            items=held.items,
            diff=commit.diff,
        )

    def given_up(self, session_id: str) -> bool:
        """Whether a write of `session_id` was awaited (its turn ended without its commit
        entry, e.g. an import's first plan): it is then loaded instead."""
        if self.awaited is None or self.awaited.session_id != session_id:
            return False
        self.awaited = None
        return True


class Router:
    def __init__(self, state: AppState, feed: LineFeed, history: HistoryFeed) -> None:
        self._state = state
        self._feed = feed
        self._history = history
        # what to do when the host says a notification was too large to send (the Main
        # role: load everything again)
        self.on_stale: Callable[[], None] = lambda: None
        self._routes = routes(self)  # every notification of the table, checked whole

    def route(self, name: str, params: m.Plain) -> None:
        self._routes[name](params)

    def host_stale(self, _params: m.Stale) -> None:
        self.on_stale()

    def checkpoints_changed(self, told: m.CheckpointChanged) -> None:
        self._state.apply(ev.CheckpointTaken(told.session_id))

    def checkpoints_failed(self, told: m.CheckpointFailed) -> None:
        """Said in the notice: what the agent changes from here may not be restorable."""
        session = self._state.session(told.session_id)
        title = f"“{session.title}”" if session is not None else "a session"
        self._state.apply(
            ev.NoticeShown(
                f"The folder of {title} could not be recorded: {shown_text(told.error)}. What"
                " changes in it from here cannot be restored until a checkpoint is taken."
            )
        )

    def worktrees_changed(self, told: m.WorktreeStatus) -> None:
        self._state.apply(ev.WorktreeTold(convert.worktree(told)))

    def attempts_changed(self, told: m.Attempt) -> None:
        self._state.apply(ev.AttemptTold(convert.attempt(told)))

    def todos_changed(self, snapshot: m.TodoSnapshot) -> None:
        """The checklist's new revision; the open History view gains it in place, with
        its commit entry, when it follows what it holds (a local session's running turn
        wrote it)."""
        state = self._state
        session_id = snapshot.session_id
        if state.history.session_id == session_id:
            shown = state.session(session_id)
            if shown is not None and shown.running_turn and not shown.remote:
                self._history.snapshot_told(snapshot)
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
        entry = self._history.commit_told(params.message)
        if entry is not None:
            revision = convert.revision(entry)
            self._state.apply(ev.RevisionWritten(params.session_id, revision))
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
        # its diff names paths under the session's folder as the transcript does
        shown = self._state.session(params.session_id)
        folder = shown.cwd if shown is not None else ""
        self._state.apply(ev.ApprovalRequested(convert.approval(params, folder)))

    def approvals_resolved(self, params: m.ApprovalResolved) -> None:
        self._state.apply(ev.ApprovalResolved(params.approval_id))

    def agents_asked(self, params: m.AgentAsked) -> None:
        self._state.apply(ev.AskTold(asked(params)))

    def agents_answered(self, params: m.AgentAnswered) -> None:
        self._state.apply(ev.AskEnded(params.ask_id))

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


def asked(a: m.AgentAsked) -> Ask:
    """What an agent asks the user for, its words made safe to show."""
    fields = tuple(
        AskField(
            f.name,
            shown_text(f.title),
            shown_text(f.description),
            f.kind,
            f.required,
            f.default or "",
            tuple(f.choices),
        )
        for f in a.fields
    )
    return Ask(a.ask_id, a.session_id, shown_text(a.message), a.url or "", fields)
