"""A session's messages and turns as the transcript's lines: the one place the Main role
puts the host's transcript into words. Outside text is made safe to display here, once."""

from __future__ import annotations

from host.protocol import feedback, plain_models as m
from host.protocol.text import shorten
from host.protocol.tool_text import input_text
from nib_desktop.inbound import activity
from nib_desktop.inbound.checklist_lines import todo_line
from nib_desktop.inbound.line_text import bounded, summary_text, tool_name
from nib_desktop.inbound.subagents import SubCalls
from nib_desktop.state.transcript_lines import Line

TODO_WRITE = "TodoWrite"


class LineMaker:
    """A session's messages as lines, fed in order: user and assistant text as it is,
    tool calls as compact lines, each call's result taking its call's line in place
    ("→ Read notes.txt" becomes "✓ Read notes.txt · 3 lines", its diff or output under
    it), however many run at once. A checklist write is told from what the host committed
    (the result's `todo`: its revision's diff), never from the call's arguments; a refused
    write is told as refused, with the host's reason. `titled`: an ACP agent's session,
    whose calls are named by their titles (which say the file or the command), their
    input (the agent's own fields) shown only when the line is unfolded. `folder`: the
    session's, under which files are named by their path in it."""

    def __init__(self, titled: bool = False, folder: str = "") -> None:
        self._titled = titled
        self._folder = folder  # the session's: paths under it are named relative to it
        self._todo_calls: set[str] = set()
        # the calls told and not yet finished: id -> (the call's seq, its name as shown,
        # its input)
        self._calls: dict[str, tuple[int, str, str]] = {}
        # the last checklist line, when it told one step beginning: (its seq, the step,
        # its turn): only a write of the same turn takes its place
        self._begun: tuple[int, str, str | None] | None = None
        self._list_turn: str | None = None  # the turn of the last checklist write
        self._subs = SubCalls()  # sub-agents' calls, under the calls that started them

    def lines(self, message: m.Message) -> tuple[Line, ...]:
        seq = message.seq
        made = []
        for line in self._lines(message):
            replaces = line.replaces or self._live(message, line)
            made.append(
                Line(
                    line.kind,
                    bounded(line.text),
                    line.is_error,
                    line.warning,
                    replaces or seq,
                    replaces,
                    bounded(line.detail) if line.detail else "",
                    line.detail_kind,
                    line.call_id,
                    bounded(line.call_input),
                    line.places,
                    line.images,
                    message.id if line.kind == "user" else "",
                    (message.turn_id or "") if line.kind == "user" else "",
                )
            )
        return tuple(made)

    def _live(self, message: m.Message, line: Line) -> int:
        """One live line per step: a write that only finishes the step the last checklist
        line began takes that line's place ("◐ X" becomes "✓ X"): that line's seq, else 0."""
        if message.todo is None or line.kind != "todo":
            return 0
        diff = message.todo.diff
        only = diff.status_changed[0] if len(diff.status_changed) == 1 else None
        alone = only is not None and not (
            diff.added or diff.completed_removed or diff.dropped_unfinished or diff.reordered
        )
        begun, self._begun = self._begun, None
        if not alone or only is None:
            return 0
        if only.to == "in_progress":
            self._begun = (message.seq, only.content, message.turn_id)
            return 0
        if (
            only.to == "completed"
            and begun is not None
            and begun[1:] == (only.content, message.turn_id)
        ):
            return begun[0]
        return 0

    def _lines(self, message: m.Message) -> list[Line]:
        if message.role == "summary":
            return [Line("summary", summary_text(message, self._titled))]
        if message.todo is not None:
            diff = message.todo.diff
            first = message.turn_id is not None and message.turn_id != self._list_turn
            self._list_turn = message.turn_id
            new_task = (
                first
                and bool(diff.added)
                and bool(diff.completed_removed or diff.dropped_unfinished)
            )
            return [todo_line(diff, message.todo.items, new_task)]
        if message.kind == "thought":  # an external agent's: shown folded
            return [Line("thought", message.content.strip("\n"))]
        if message.kind == "plan":  # an agent's plan that did not write the checklist
            mark = "✕ " if message.is_error else ""
            return [Line("todo", mark + shorten(message.content, 400), message.is_error)]
        if message.role == "tool":
            return [self._result(message)]
        lines: list[Line] = []
        if message.role == "user" and message.activity is not None:  # what went with it
            said = activity.attached(message.activity, self._folder)
            return [
                Line(
                    "user",
                    message.content.strip("\n"),
                    detail=said,
                    detail_kind="output",
                    places=activity.places(message.activity, self._folder),
                )
            ]
        told = feedback.split(message.content) if message.role == "user" else None
        if told is not None:  # the user's feedback on the plan: its asks, the list folded
            return [Line("user", told[0], detail=told[1], detail_kind="output")]
        if message.content.strip():  # stored as the agent streamed it: blank lines around it
            lines.append(Line(message.role, message.content.strip("\n")))
        for call in message.tool_calls:
            if call.name == TODO_WRITE:  # told by its result, once the host decided
                self._todo_calls.add(call.id)
                continue
            named = self._named(call)
            if call.parent_id is not None and call.parent_id in self._calls:
                self._subs.add(call.parent_id, call.id, named)  # told on its parent's line
                lines.append(self._parent_line(call.parent_id))
                continue
            self._calls[call.id] = (message.seq, named, input_text(call.arguments))
            lines.append(
                Line(
                    "tool_call",
                    f"→ {named}",
                    call_id=call.id,
                    call_input=input_text(call.arguments),
                )
            )
        return lines

    def _named(self, call: m.ToolCall) -> str:
        """A call as its line names it: an agent's by its title; a tool of the host's own
        agent by its name (an MCP server's with the server) and its arguments."""
        if self._titled:
            return shorten(call.name, 200)
        return f"{tool_name(call.name)} {shorten(call.arguments, 120)}".rstrip()

    def _result(self, message: m.Message) -> Line:
        """A tool's result: in place of its call's line where that is held (its diff or
        output under it), else a line of its own."""
        call_id = message.tool_call_id or ""
        if call_id in self._todo_calls and message.is_error:
            return Line(
                "todo", f"✕ Checklist not saved: {shorten(message.content, 300)}", is_error=True
            )
        said, kind, what = "", "", shorten(message.content, 160)
        places: tuple[tuple[str, int | None], ...] = ()
        images: tuple[str, ...] = ()
        if message.activity is not None:  # what it did (section 16)
            said, kind = activity.detail(message.activity, self._folder)
            what = activity.summary(message.activity, self._folder)
            places = activity.places(message.activity, self._folder)
            images = tuple(f"data:{i.mime_type};base64,{i.data}" for i in message.activity.images)
        parent = self._subs.finish(call_id, message.is_error)
        if parent is not None and parent in self._calls:  # a sub-agent's: on its parent's line
            return self._parent_line(parent)
        called = self._calls.pop(call_id, None)
        subs, listed = self._subs.close(call_id)
        if listed and kind in ("", "output"):  # a sub-agent's calls, folded, above its output
            said, kind = f"{listed}\n\n{said}".rstrip("\n"), "calls"
        if called is None:  # its call is on an earlier page
            mark = "← error: " if message.is_error else "← "
            return Line(
                "tool_result",
                mark + what,
                message.is_error,
                detail=said,
                detail_kind=kind,
                places=places,
                images=images,
            )
        seq, named, given = called
        glyph = "✕" if message.is_error else "✓"
        if message.activity is not None and message.activity.diffs:
            text = f"{glyph} {what}"  # "Edited app.py" and its counts: the diff names it
        elif what.strip() in ("", "completed", "failed"):
            text = f"{glyph} {named}"
        else:
            text = f"{glyph} {named} · {what}"
        text += f" · {subs}" if subs else ""
        return Line(
            "tool_call",
            text,
            message.is_error,
            replaces=seq,
            detail=said,
            detail_kind=kind,
            call_id=call_id,
            call_input=given,
            places=places,
            images=images,
        )

    def _parent_line(self, parent: str) -> Line:
        """A running call's line with its sub-agent's calls: their count and state on it,
        each of them under it, folded."""
        seq, named, given = self._calls[parent]
        subs, listed = self._subs.told(parent)
        return Line(
            "tool_call",
            f"→ {named} · {subs}",
            replaces=seq,
            detail=listed,
            detail_kind="calls",
            call_id=parent,
            call_input=given,
        )
