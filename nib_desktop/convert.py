"""From the contract's models to the renderer's rows: the one place the Main role turns
host shapes into what the renderer knows."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from pydantic import BaseModel, TypeAdapter

from host.protocol import models as m
from host.protocol.remote import parse_endpoint
from host.protocol.text import shorten, shown_text
from host.protocol.todo_diff import diff_items
from ui.models import ApprovalView, SessionRow, ToolSourceRow, TranscriptRow
from ui.snapshots import HOST_RESTARTED, STATUS_GLYPHS, Item, Revision, Snapshot, TurnView

TODO_WRITE = "TodoWrite"


def snapshot(s: m.TodoSnapshot) -> Snapshot:
    return Snapshot(
        session_id=s.session_id,
        revision=s.revision,
        items=tuple(_item(i) for i in s.items),
    )


def _item(i: m.TodoItem) -> Item:
    """A checklist item as the window shows it (outside text made safe to display)."""
    active = shown_text(i.active_form) if i.active_form else i.active_form
    return Item(shown_text(i.content), i.status, active)


def turn(t: m.Turn) -> TurnView:
    return TurnView(session_id=t.session_id, state=t.state, error=shown_text(t.error or ""))


def session_row(s: m.Session) -> SessionRow:
    remote = s.remote
    return SessionRow(
        sessionId=s.id,
        title=shown_text(s.title),
        mode=s.mode,
        remote=remote is not None,
        running=s.running_turn_id is not None,
        parentId=s.parent_id or "",
        remoteState=remote.state if remote else "",
        remoteNote=remote_note(remote) if remote else "",
        checklistNote=checklist_note(remote) if remote else "",
    )


def remote_note(remote: m.RemoteInfo) -> str:
    """Where a remote session runs and how it is reached, in words."""
    try:
        where = parse_endpoint(remote.endpoint).label()
    except ValueError:
        where = remote.endpoint
    if remote.state == "connected":
        return shown_text(f"on {where}")
    if remote.state == "connecting":
        return shown_text(f"on {where} · connecting…")
    why = shorten(remote.error or "no answer", 200)
    return shown_text(f"on {where} · unreachable: {why} · retrying")


def checklist_note(remote: m.RemoteInfo) -> str:
    if remote.state != "connected" and not remote.capabilities:
        return "The checklist is not available while the remote host cannot be reached."
    if "todos" not in remote.capabilities:
        return "The checklist is not available: this remote host does not share it."
    return ""


class TranscriptLines:
    """The transcript of one session as rows: user and assistant text as it is; tool
    calls and results as compact lines. Each TodoWrite is one line telling what changed
    against the session's previous write ("✓ Write the tests · ◐ Add the docs"), items
    dropped unfinished in words and flagged as a warning; its result is not repeated
    unless it is an error. Feed it the session's messages in order."""

    def __init__(self) -> None:
        self._checklist: tuple[m.TodoItem, ...] = ()
        self._todo_calls: set[str] = set()
        self._since_summary = 0  # messages since the last compaction (or the start)

    def rows(self, message: m.Message) -> list[TranscriptRow]:
        """The message's rows, their text made safe to display (`shown_text`)."""
        return [replace(row, text=shown_text(row.text)) for row in self._rows(message)]

    def _rows(self, message: m.Message) -> list[TranscriptRow]:
        if message.role == "summary":
            count, self._since_summary = self._since_summary, 0
            return [TranscriptRow("summary", f"Context compacted: {count} messages summarised",
                                  False)]  # fmt: skip
        self._since_summary += 1
        if message.role == "tool":
            if message.tool_call_id in self._todo_calls and not message.is_error:
                return []
            return [TranscriptRow("tool_result", _result_line(message), message.is_error)]
        rows: list[TranscriptRow] = []
        if message.content:
            rows.append(TranscriptRow(message.role, message.content, False))
        for call in message.tool_calls:
            if call.name == TODO_WRITE:
                self._todo_calls.add(call.id)
                rows.append(self._todo_line(call))
            else:
                rows.append(TranscriptRow("tool_call", call_line(call), False))
        return rows

    def _todo_line(self, call: m.ToolCall) -> TranscriptRow:
        try:
            items = _TODOS.validate_json(call.arguments).todos
        except ValueError:
            return TranscriptRow("tool_call", f"→ TodoWrite {shorten(call.arguments, 100)}", False)
        previous, self._checklist = self._checklist, items
        if not previous:
            return TranscriptRow("todo", f"Checklist: {_steps(len(items))}", False)
        text, warning = diff_line(diff_items(previous, items))
        return TranscriptRow("todo", text, False, warning)


def diff_line(diff: m.TodoDiff) -> tuple[str, bool]:
    """One line telling a revision's changes ("✓ Write the tests · +2 steps"), and whether
    it dropped items unfinished (said in words too, not only flagged)."""
    parts = [f"{STATUS_GLYPHS[c.to]} {shorten(c.content, 80)}" for c in diff.status_changed]
    if diff.added:
        parts.append(f"+{_steps(len(diff.added))}")
    if diff.completed_removed:
        parts.append(f"{_steps(len(diff.completed_removed))} finished and removed")
    if diff.dropped_unfinished:
        dropped = ", ".join(f"“{shorten(c, 60)}”" for c in diff.dropped_unfinished)
        parts.append(f"dropped unfinished: {dropped}")
    if diff.reordered:
        parts.append("reordered")
    return " · ".join(parts) or "Checklist written again, unchanged", bool(diff.dropped_unfinished)


def revision(r: m.TodoRevision) -> Revision:
    first = (
        not r.diff.completed_removed
        and not r.diff.dropped_unfinished
        and (len(r.diff.added) == len(r.items))
    )
    summary, warning = (f"Checklist: {_steps(len(r.items))}", False) if first else diff_line(r.diff)
    return Revision(
        revision=r.revision,
        turn_id=r.turn_id or "",
        time=local_time(r.created_at),
        items=tuple(_item(i) for i in r.items),
        summary=summary,
        warning=warning,
    )


def local_time(stamp: str) -> str:
    """An ISO timestamp as the user's local HH:MM (the stamp itself if it is not one)."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%H:%M")


def turn_end(t: m.Turn) -> TranscriptRow | None:
    """The transcript's line for a turn that ended other than by finishing: stopped,
    failed with its error, or interrupted by a host restart. None while it runs or when
    it completed (its last message says so)."""
    if t.state == "cancelled":
        return TranscriptRow("turn_end", "■ Turn stopped", False)
    if t.state == "failed" and t.error == HOST_RESTARTED:
        return TranscriptRow("turn_end", "⚠ Turn interrupted: the host restarted", False, True)
    if t.state == "failed":
        reason = shown_text(t.error or "no reason given")
        return TranscriptRow("turn_end", f"✕ Turn failed: {reason}", True)
    return None


def transcript(
    lines: TranscriptLines, messages: tuple[m.Message, ...], turns: tuple[m.Turn, ...]
) -> list[TranscriptRow]:
    """A session's rows: its messages in order, each ended turn's line after its last
    message."""
    ends = {t.id: row for t in turns if (row := turn_end(t)) is not None}
    rows: list[TranscriptRow] = []
    previous: str | None = None
    for message in messages:
        if previous is not None and message.turn_id != previous and previous in ends:
            rows.append(ends.pop(previous))
        rows.extend(lines.rows(message))
        previous = message.turn_id
    if previous in ends:
        rows.append(ends.pop(previous))
    return rows


class Transcript:
    """The shown session's transcript as loaded: its messages (the newest pages), its
    turns, whether older messages exist, and the line maker fed in order."""

    def __init__(self) -> None:
        self.messages: list[m.Message] = []
        self.turns: tuple[m.Turn, ...] = ()
        self.has_more = False
        self.loading = False  # an older page is on its way
        self.lines = TranscriptLines()

    def rebuild(self) -> list[TranscriptRow]:
        """Every row afresh (after an older page arrived, the lines continue from it)."""
        self.lines = TranscriptLines()
        return transcript(self.lines, tuple(self.messages), self.turns)

    def turn_changed(self, turn: m.Turn) -> None:
        self.turns = (turn, *(t for t in self.turns if t.id != turn.id))

    def append(self, message: m.Message) -> list[TranscriptRow]:
        self.messages.append(message)
        return self.lines.rows(message)


class _TodoArguments(BaseModel):
    """TodoWrite's arguments as the transcript reads them: leniently, since a refused
    call is shown too."""

    todos: tuple[m.TodoItem, ...]


_TODOS = TypeAdapter(_TodoArguments)


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"


def call_line(call: m.ToolCall) -> str:
    """A tool call in one line: an MCP server's tool named with its server."""
    return f"→ {_tool_name(call.name)} {shorten(call.arguments, 120)}"


def _tool_name(name: str) -> str:
    """An offered tool name as a person reads it: "get_current_time (time)"."""
    if name.startswith("mcp__") and name.count("__") >= 2:
        server, _, tool = name[len("mcp__") :].partition("__")
        return f"{tool} ({server})"
    return name


def _result_line(message: m.Message) -> str:
    if message.is_error:
        return "← error: " + shorten(message.content, 200)
    return "← " + shorten(message.content, 160)


def approval(a: m.ApprovalRequested) -> ApprovalView:
    tool = shown_text(_tool_name(a.tool))
    return ApprovalView(a.approval_id, a.session_id, tool, shown_text(a.arguments))


_STATE_WORDS = {"starting": "starting…", "ready": "ready", "failed": "failed",
                "disabled": "disabled"}  # fmt: skip


def tool_sources(listing: m.ToolsList) -> list[ToolSourceRow]:
    rows = []
    for server in listing.servers:
        names = ", ".join(t.name for t in server.tools)
        rows.append(_source(server.name, "MCP server", server.state, server.error, names))
    for plugin in listing.plugins:
        names = ", ".join(t.name for t in plugin.tools)
        state = "failed" if plugin.error else "ready"
        rows.append(_source(plugin.name, "plugin", state, plugin.error, names))
    return rows


def _source(name: str, kind: str, state: str, error: str | None, tools: str) -> ToolSourceRow:
    words = f"{kind} {name}, {_STATE_WORDS.get(state, state)}"
    if error:
        words += f": {error}"
    elif tools:
        words += f", tools: {tools}"
    return ToolSourceRow(shown_text(name), kind, state, shown_text(shorten(error or "", 500)),
                         shown_text(shorten(tools, 1000)), shown_text(words))  # fmt: skip
