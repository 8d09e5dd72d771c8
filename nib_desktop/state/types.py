"""What the window knows, as frozen values: no Qt, no I/O, nothing of the host.

The Main role turns the contract's models into these (`nib_desktop.inbound.convert`); the views
read them. Text in them is already made safe to display.
"""

from typing import Literal

from nib_desktop.state import facts
from nib_desktop.state.tuples import NamedTuple

Status = Literal["pending", "in_progress", "completed", "cancelled"]
# "unreachable": a remote session's turn was running when its host went out of reach
# "interrupted": failed because its host stopped under it (`Turn.interrupted`)
TurnState = Literal[
    "idle", "running", "completed", "failed", "cancelled", "interrupted", "unreachable"
]
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
        return facts.end_of(self.state)

    def older_than(self, held: "TurnView") -> bool:
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
    branch: str = ""  # its own worktree's branch, while it has one (section 18)
    attempt: str = ""  # the attempt it is a run of (section 18), "" none
    repo: str = ""  # its worktree's repository (the main work tree's folder), "" none

    @property
    def running(self) -> bool:
        return self.running_turn != ""

    @property
    def reachable(self) -> bool:
        """Turns can start here: a local session, or a remote one whose host is linked."""
        return self.remote_state in ("", "connected")


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
