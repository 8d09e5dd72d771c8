"""One external agent's turn as it is told: the agent's `session/update` notifications
(contract section 15) become transcript entries and checklist revisions.

- Message and thought text is told as it arrives (`messages.delta`, section 16) and
  stored as an assistant message at its boundary (a tool call, a plan, a message of the
  other kind or with another id, the end), exactly as its deltas carried it; a message
  over MAX_STORED_CHARS is stored in parts.
- Thoughts are assistant messages of kind "thought" (shown folded).
- A tool call is an assistant message calling it (its title and raw input), and its
  result a tool message once it completes or fails.
- A plan for plan id "main" is a TodoWrite on the agent path: the same transaction,
  revision, history and `todos.changed` as the builtin tool. Any other plan id (a
  sub-agent's) and a plan that cannot be stored are told in the transcript only.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from host.execution_path import ExecutionContext
from host.protocol import models as m
from host.protocol.text import shorten
from host.sessions.service import SessionService
from host.sessions.streaming import MAX_STORED_CHARS, TextStream
from host.store.errors import StorageFailure
from host.todos.schema import TodoWriteArgs
from host.todos.service import TodoRefused, TodoService
from host.tools.registry import describe_validation
from host.tools.todo_write import result_text

from .tool_activity import activity, as_text, output_of
from .transport import AgentBroken
from .updates import (
    CompactionChunk,
    CompactionUpdate,
    OtherPlan,
    Part,
    Place,
    PlanFile,
    PlanItems,
    PlanMarkdown,
    PlanRemoved,
    PlanSent,
    PlanUpdate,
    TextBlock,
    TextChunk,
    ToolFields,
    ToolUpdate,
    Update,
)

log = logging.getLogger(__name__)

MAIN_PLAN = "main"
MAX_PLAN_ENTRIES = 2_000  # beyond this a plan is not a mistake but a flood: disconnect
MAX_RESULT = 2_000  # characters of a tool's output in its one-line result
MAX_PARTS = 100  # content parts and locations of one tool call kept


MAX_ASKED_PARTS = 8  # of a permission request's content shown in its approval


@dataclass
class _Call:
    title: str = ""
    arguments: str = ""
    told: bool = False
    finished: bool = False
    kind: str | None = None
    parent: str | None = None  # the call it runs under (a sub-agent's call), if told
    content: list[Part] = field(default_factory=list)  # as last sent: an update replaces it
    locations: list[Place] = field(default_factory=list)

    def take(self, update: ToolFields, parts: int) -> None:
        """What an update (or a permission request's call) says of the call: its kind, its
        content and its locations, each replacing what was held, at most `parts` parts."""
        if update.kind is not None:
            self.kind = shorten(update.kind, 40)
        if update.content is not None:
            self.content = update.content[:parts]
        if update.locations is not None:
            self.locations = update.locations[:parts]


class Recorder:
    """Tells one running turn's updates to the transcript and the checklist."""

    def __init__(self, sessions: SessionService, todos: TodoService, ctx: ExecutionContext) -> None:
        self._sessions = sessions
        self._todos = todos
        self.ctx = ctx
        self.loading = False  # a session/load replays history: not this turn's to store
        # what the turn asks of the user (approvals, forms): cancelled as it ends
        self.permissions: set[asyncio.Task[Any]] = set()
        self.plans = 0  # plans that wrote the checklist
        self._stream: TextStream | None = None  # the message whose text is arriving
        self._text_kind: m.MessageKind | None = None  # None: message text
        self._message_id: Any = None  # the agent's id of the message being told, if it has one
        self._calls: dict[str, _Call] = {}
        self._summaries: dict[str, list[str]] = {}  # compaction id -> its summary's pieces
        self._compactions_ended: set[str] = set()

    # --- the agent's updates -----------------------------------------------------------

    def update(self, told: Update) -> None:
        if self.loading:
            return
        match told:
            case TextChunk(session_update="user_message_chunk"):
                pass  # the user's own message, stored when it was sent
            case TextChunk():
                if told.message_id != self._message_id:  # another message begins
                    self.flush()
                    self._message_id = told.message_id
                self._chunk("thought" if told.thought else None, told.content)
            case ToolUpdate():
                self._tool(told)
            case PlanSent():
                self.plan(MAIN_PLAN, told.entries)
            case PlanUpdate(plan=PlanItems() as items):
                self.plan(items.plan_id, items.entries)
            case PlanUpdate(plan=PlanMarkdown() | PlanFile() | OtherPlan() as other):
                self._other_plan(other)
            case PlanRemoved():
                self.flush()
                name = shorten(told.plan_id, 40)
                kept = ": the checklist stays as it was" if name == MAIN_PLAN else ""
                self._note(f"The agent removed its plan {name!r}{kept}")
            case CompactionChunk(content=TextBlock(text=text)):
                if told.compaction_id not in self._compactions_ended:
                    pieces = self._summaries.setdefault(told.compaction_id, [])
                    if sum(map(len, pieces)) < MAX_STORED_CHARS:
                        pieces.append(text)
            case CompactionUpdate():
                self._compaction(told)
        # other updates (commands, modes, usage) are the controls', not stored

    def _chunk(self, kind: m.MessageKind | None, content: object) -> None:
        if not isinstance(content, TextBlock) or not content.text:
            return
        text = content.text
        if kind != self._text_kind or self._stream is None:
            self.flush()
            self._text_kind = kind
            self._stream = TextStream(
                self._sessions.transcript.tell_delta,
                self.ctx.session_id,
                self.ctx.turn_id,
                "thought" if kind else "text",
            )
        self._stream.add(text)
        if self._stream.size > MAX_STORED_CHARS:
            self._store_text(self._stream.take(), kind)  # a long message is stored in parts

    def flush(self) -> None:
        """The message's boundary: its text, as its deltas carried it, stored."""
        stream, self._stream = self._stream, None
        if stream is not None:
            self._store_text(stream.take(), self._text_kind)

    def _store_text(self, text: str, kind: m.MessageKind | None) -> None:
        """The text stored, in parts of at most MAX_STORED_CHARS (one chunk of megabytes
        too), so that any page of the transcript, even of one message, fits a frame."""
        if text.strip():
            for at in range(0, len(text), MAX_STORED_CHARS):
                self._append("assistant", text[at : at + MAX_STORED_CHARS], kind=kind)

    def _tool(self, update: ToolFields) -> None:
        """A tool call is told once it says what it does (its input) or starts running,
        whichever comes first (agents often announce a call before its input), and its
        result once it completes or fails."""
        call_id = update.tool_call_id
        if not call_id:
            return
        call = self._calls.setdefault(call_id, _Call())
        if update.title:
            call.title = shorten(update.title, 200)
        elif update.kind and not call.title:
            call.title = update.kind
        if update.raw_input not in (None, {}, ""):
            call.arguments = shorten(as_text(update.raw_input), 4000)
        call.take(update, MAX_PARTS)
        call.parent = call.parent or update.parent
        status = update.status
        if not call.told and (call.arguments or status in ("in_progress", "completed", "failed")):
            self._tell(call_id, call)
        if status in ("completed", "failed") and not call.finished:
            if not call.told:
                self._tell(call_id, call)
            call.finished = True
            output = output_of(update) or status
            did = activity(call, status, update)
            call.content, call.locations = [], []  # kept in `did`: not held for the turn
            self._append(
                "tool",
                shorten(output, MAX_RESULT),
                tool_call_id=call_id,
                is_error=status == "failed",
                activity=did,
            )

    def asked(self, tool_call: ToolFields) -> m.ToolActivity | None:
        """What a permission request asks to do, as its approval shows it: the request's
        tool call content (a diff, a command's text) and locations, else those its call
        announced before; None when neither says more than the title and input."""
        held = self._calls.get(tool_call.tool_call_id, _Call())
        asking = _Call(kind=held.kind, content=held.content, locations=held.locations)
        asking.take(tool_call, MAX_ASKED_PARTS)
        if not asking.content and not asking.locations:
            return None
        did = activity(asking, "pending", None)
        return did.model_copy(update={"status": "pending"})

    def denied(self, call_id: str, title: str, answer: str = "") -> None:
        """The user refused this call: its result, saying so, is stored at once (an agent
        may simply end its turn, as Codex does), so every denial leaves a line naming what
        was denied; the agent's own result for the call, which could only repeat it, is
        not stored again."""
        call_id = call_id or f"denied-{len(self._calls)}"
        call = self._calls.setdefault(call_id, _Call())
        call.title = call.title or title
        if call.finished:
            return
        if not call.told:
            self._tell(call_id, call)
        call.finished = True
        words = (
            f"You answered “{answer}”"
            if answer
            else f"Denied: you did not allow {call.title or 'it'}"
        )
        self._append("tool", words, tool_call_id=call_id, is_error=True)

    def _tell(self, call_id: str, call: _Call) -> None:
        self.flush()
        call.told = True
        told = m.ToolCall(
            id=call_id, name=call.title or "tool", arguments=call.arguments, parent_id=call.parent
        )
        self._append("assistant", "", tool_calls=(told,))

    def _compaction(self, told: CompactionUpdate) -> None:
        """The agent's own compaction: once it completes, a "summary" message holding what
        it kept (its `summary`, else the pieces it streamed; empty when it told none), from
        which the checklist is given again at the next prompt; a failed or cancelled one a
        note. An id already ended is not told twice (agents repeat a terminal status)."""
        if told.status == "in_progress" or told.compaction_id in self._compactions_ended:
            return
        self.flush()
        self._compactions_ended.add(told.compaction_id)
        pieces = self._summaries.pop(told.compaction_id, [])
        if told.status == "completed":
            summary = told.summary if told.summary is not None else "".join(pieces)
            self._append("summary", summary[:MAX_STORED_CHARS].strip())
        else:
            failed = told.status == "failed"
            self._note(f"The agent's compaction of its context {told.status}", is_error=failed)

    def _other_plan(self, plan: PlanMarkdown | PlanFile | OtherPlan) -> None:
        """A plan in Markdown or in a file (ACP's plan_update): told in the transcript as
        that plan, never written to the checklist (only a list of steps can be it)."""
        self.flush()
        name = shorten(plan.plan_id, 40)
        if isinstance(plan, PlanMarkdown):
            self._append(
                "assistant",
                f"**Plan “{name}”** (not the session's checklist)\n\n"
                + plan.content[:MAX_STORED_CHARS],
            )
        elif isinstance(plan, PlanFile):
            self._note(
                f"Plan {name!r} is kept in {shorten(plan.uri, 1000)} (not the session's checklist)"
            )
        else:
            form = shorten(plan.type or "an unknown form", 40)
            self._note(
                f"A plan as {form} arrived; only a list of steps can be the checklist",
                is_error=True,
            )

    def plan(self, plan_id: str, entries: Any) -> None:
        self.flush()
        if not isinstance(entries, list):
            raise AgentBroken("it sent a plan without a list of entries")
        if len(entries) > MAX_PLAN_ENTRIES:
            self._note(
                f"A plan of {len(entries)} steps arrived and was not stored (at most 200 steps)",
                is_error=True,
            )
            raise AgentBroken(f"it sent a plan of {len(entries)} entries")
        if plan_id != MAIN_PLAN:
            steps = ", ".join(
                shorten(str(e.get("content", "")), 60) for e in entries[:5] if isinstance(e, dict)
            )
            more = f" and {len(entries) - 5} more" if len(entries) > 5 else ""
            self._note(
                f"Sub-agent plan {shorten(plan_id, 40)!r} ({len(entries)} steps, not the"
                f" session's checklist): {steps}{more}"
            )
            return
        self._write(entries)

    def _write(self, entries: list[Any]) -> None:
        todos = [
            {"content": e.get("content"), "status": e.get("status")} if isinstance(e, dict) else e
            for e in entries
        ]
        try:
            args = TodoWriteArgs.model_validate({"todos": todos})
            written = self._todos.write(self.ctx, args)
        except ValidationError as exc:
            self._refused(describe_validation(exc))
            return
        except TodoRefused as exc:
            self._refused(str(exc))
            return
        except StorageFailure as exc:
            if exc.reason is None:
                log.exception("a plan could not be stored")
            self._refused(f"nothing was written: {exc.reason or 'an internal error'}")
            return
        self.plans += 1
        commit = m.TodoCommit(
            revision=written.snapshot.revision, items=len(written.snapshot.items), diff=written.diff
        )
        self._append("tool", result_text(written.snapshot, written.diff), todo=commit, kind="plan")

    def _refused(self, why: str) -> None:
        self._note(f"The agent's plan was not stored: {why}", is_error=True)

    def say(self, text: str) -> None:
        """A line of the host's own in the turn's transcript (an agent started again)."""
        self._note(text)

    def _note(self, text: str, is_error: bool = False) -> None:
        self._append("tool", text, is_error=is_error, kind="plan")

    def _append(self, role: str, content: str, **fields: Any) -> None:
        self._sessions.transcript.append(
            self.ctx.session_id, self.ctx.turn_id, role, content, **fields
        )

    def close(self) -> None:
        """The turn ends: what is buffered is stored (calls never told included); waiting
        approvals are cancelled."""
        try:
            for call_id, call in self._calls.items():
                if not call.told:
                    self._tell(call_id, call)
            self.flush()
        except StorageFailure:
            log.exception("the end of an agent's message could not be stored")
        for task in self.permissions:
            task.cancel()


def late_plan(sessions: SessionService, session_id: str) -> None:
    """A plan for a session with no running turn: told, not stored."""
    sessions.transcript.append(
        session_id,
        None,
        "tool",
        "A plan arrived after the turn ended and was not stored",
        is_error=True,
        kind="plan",
    )
