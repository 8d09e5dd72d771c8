"""What the window knows, as frozen values: no Qt, no I/O, nothing of the host.

The Main role turns the contract's models into these (`nib_desktop.inbound.convert`); the views
read them. Text in them is already made safe to display.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal, NamedTuple

from nib_desktop.state import facts, markdown, rich

Status = Literal["pending", "in_progress", "completed", "cancelled"]
# "unreachable": a remote session's turn was running when its host went out of reach
TurnState = Literal["idle", "running", "completed", "failed", "cancelled", "unreachable"]
ConnectionState = Literal["starting", "ready", "reconnecting", "failed"]


class Item(NamedTuple):
    content: str
    status: Status
    active_form: str | None = None


class Snapshot(NamedTuple):
    session_id: str
    revision: int
    items: tuple[Item, ...]


class TurnView(NamedTuple):
    """The session's latest turn as the window tells it: "idle" before any turn."""

    session_id: str
    state: TurnState = "idle"
    error: str = ""
    turn_id: str = ""  # "" when not known (a remote session's turn told from its link)
    started_at: str = ""  # ISO time, "" when not known

    @property
    def running(self) -> bool:
        return self.state == "running"

    @property
    def ended(self) -> bool:
        return facts.ended(self.state)

    @property
    def end(self) -> facts.End:
        return facts.end_of(self.state, self.error)

    def older_than(self, held: TurnView) -> bool:
        """Whether this news of a turn is staler than `held` (an answer asked for before
        a notification that overtook it): an earlier turn, or an ended turn running."""
        if self.started_at and held.started_at and self.started_at < held.started_at:
            return True
        same = self.turn_id != "" and self.turn_id == held.turn_id
        return same and held.ended and not self.ended


class Revision(NamedTuple):
    """One committed revision of a checklist as the History view shows it."""

    revision: int
    turn_id: str  # "" when written outside a turn (the history's baseline)
    time: str  # local HH:MM:SS
    items: tuple[Item, ...]
    summary: str  # what changed against the revision before, in one line
    warning: bool  # items were dropped unfinished (the summary says so in words)


class Session(NamedTuple):
    """A session as the sidebar and the composer tell it."""

    session_id: str
    title: str
    mode: str
    running_turn: str = ""  # the id of its running turn, "" when none runs
    parent_id: str = ""
    remote: bool = False
    remote_state: str = ""  # "" (local), "connected", "connecting", "unreachable"
    remote_note: str = ""  # e.g. "on dev@box · unreachable: Connection refused"
    checklist_note: str = ""  # why this session has no checklist to show ("": it has one)
    order: tuple[str, str] = ("", "")  # (updated, created): newest first in the list
    agent: str = ""  # the external ACP agent it runs on ("": the host's own runtime)
    folder: str = ""  # its working folder as shown ("~/src/app"), "" when it has none
    cwd: str = ""  # and as the host has it (an absolute path on the host's machine)

    @property
    def running(self) -> bool:
        return self.running_turn != ""

    @property
    def reachable(self) -> bool:
        """Turns can start here: a local session, or a remote one whose host is linked."""
        return self.remote_state in ("", "connected")


@dataclass(frozen=True)
class Line:
    """One line of the transcript."""

    kind: str  # user, assistant, tool_call, tool_result, todo, turn_end, summary
    text: str
    is_error: bool = False
    warning: bool = False  # e.g. checklist items dropped unfinished (said in words too)
    seq: int = 0  # the message it tells (0: a turn's end)
    # a step's line that finished: it takes the place of its "◐" line, whose seq it
    # keeps (0: a new line)
    replaces: int = 0
    # what a tool call did, under its result's line: a unified diff or its output (plain
    # text, as copied), and which of the two it is ("diff", "output"; "" for none)
    detail: str = ""
    detail_kind: str = ""
    # a tool call's line: its call's id (its result takes the line's place, in place),
    # and the input it was called with, shown when the line is unfolded
    call_id: str = ""
    call_input: str = ""
    # the files (and lines) it touched, each a link in its detail that opens it
    places: tuple[rich.Place, ...] = ()
    # the images it showed, as data URLs of a known image type (drawn small under it)
    images: tuple[str, ...] = ()

    @property
    def markdown(self) -> bool:
        """An agent's message: drawn as rendered Markdown."""
        return self.kind == "assistant"

    @functools.cached_property
    def rich(self) -> str:
        """An agent's message as rendered Markdown, whole ("" for every other line): asked
        for only when a long one is unfolded (a page of them costs a frame otherwise)."""
        return markdown.to_html(self.text) if self.markdown else ""

    @functools.cached_property
    def rich_short(self) -> str:
        """As it is first shown, rendered: whole when short, else its folded form."""
        if not self.markdown:
            return ""
        return markdown.to_html(self.preview) if self.preview else self.rich

    @functools.cached_property
    def image_list(self) -> list[str]:
        """The images as a list (what a view's role hands QML as an array)."""
        return list(self.images)

    @functools.cached_property
    def detail_html(self) -> str:
        return rich.detail_html(self.detail, self.detail_kind, None, self.places) if (
            self.detail
        ) else ""  # fmt: skip

    @functools.cached_property
    def detail_preview(self) -> str:
        return rich.detail_preview_html(self.detail, self.detail_kind, self.places)

    @functools.cached_property
    def preview(self) -> str:
        """A long line's folded form (its first FOLD_LINES lines, at most FOLD_CHARS
        characters, then how much more there is); "" for a line short enough to show
        whole. A message of pages does not fill the window, nor cost a frame to lay out.
        An agent's message folds between its blocks (`markdown.folded`)."""
        if self.markdown:
            return markdown.folded(self.text, FOLD_LINES, FOLD_CHARS)
        return folded(self.text)


FOLD_LINES = 10
FOLD_CHARS = 800


def merge_lines(held: tuple[Line, ...], new: tuple[Line, ...]) -> tuple[Line, ...]:
    """`held` with `new` after it, a line that `replaces` one taking its place (the last
    todo line of that seq, or the line of the same tool call); a replacement whose line is
    not held is added at the end."""
    lines = list(held)
    for line in new:
        if line.replaces:
            places = range(len(lines) - 1, -1, -1)
            at = next((i for i in places if lines[i].seq == line.replaces and (
                lines[i].call_id == line.call_id if line.call_id else lines[i].kind == "todo"
            )), -1)  # fmt: skip
            if at >= 0:
                lines[at] = line
                continue
        lines.append(line)
    return tuple(lines)


def folded(text: str) -> str:
    if len(text) <= FOLD_CHARS and text.count("\n") < FOLD_LINES:
        return ""
    head = text[:FOLD_CHARS]
    cut = -1
    for _ in range(FOLD_LINES):
        cut = head.find("\n", cut + 1)
        if cut < 0:
            break
    if cut >= 0:
        head = head[:cut]
    rest = len(text) - len(head)
    return f"{head}\n… {rest:,} more characters ▸"


class DesktopPrefs(NamedTuple):
    """What the app shows outside its window (`"desktop"` in settings.json); all on by
    default. Notifications and the attention request only while the window is inactive."""

    title_progress: bool = True
    badge: bool = True
    launcher_progress: bool = True
    notifications: bool = True
    attention: bool = True
    # the window itself: its palette ("system", "light" or "dark") and still motion
    appearance: str = "system"
    reduced_motion: bool = False


APPEARANCES = ("system", "light", "dark")


class AgentChoice(NamedTuple):
    """One configured ACP agent: what the New menu offers and the Tools view lists."""

    name: str
    state: str  # idle, starting, ready, failed
    error: str
    version: str  # "codex-acp 0.16.0" once it answered initialize, else ""


class RemoteChoice(NamedTuple):
    choice_id: str  # the session's id on that host
    title: str


AskKind = Literal["skip", "move", "add", "comment"]


class PlanAsk(NamedTuple):
    """One ask of the user's feedback on the plan (`state.feedback`): `step` the step's
    text ("" with "add": at the end), `text` the added step's or the comment's words,
    `places` how far the step moves (negative: up)."""

    kind: AskKind
    step: str
    text: str = ""
    places: int = 0
