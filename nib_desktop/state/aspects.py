"""What a change of the window's state touched (its aspects, `Change`), which listeners
read to update only what they show; and `put`, the reducers' way to set a session's value."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from nib_desktop.state.record import Record


class Aspect(StrEnum):
    """What a change touched; listeners read only what they show."""

    CONNECTION = "connection"
    SESSIONS = "sessions"  # the list's rows
    CURRENT = "current"  # which session is shown, or its row
    CHECKLIST = "checklist"  # a session's snapshot or turn (`Change.session_id`)
    TRANSCRIPT = "transcript"
    APPROVALS = "approvals"
    TOOLS = "tools"
    AGENTS = "agents"  # the configured ACP agents
    STEERING = "steering"  # what an agent offers to steer a session (section 17)
    NOTICE = "notice"
    DRAFTS = "drafts"
    QUEUED = "queued"  # messages waiting for their session's turn to end
    REMOTE_CHOICES = "remote_choices"
    HISTORY = "history"
    PREFS = "prefs"
    ATTENTION = "attention"  # what waits for the user: unseen ends, the window's activity
    LINKED = "linked"  # a remote session's host is linked again (`Change.session_id`)
    LIVE = "live"  # the shown transcript's text still arriving (`Transcript.live`)
    CHANGES = "changes"  # the Changes view (`AppState.changes`)
    CHECKPOINT = "checkpoint"  # a session's folder recorded again (`Change.session_id`)
    FEEDBACK = "feedback"  # the asks on a session's plan, not sent yet
    FILES = "files"  # the files an "@" in the composer matches
    IMAGES = "images"  # the images held to go with a session's next message
    SEARCH = "search"  # the search across sessions answered (`Held.search`)
    EDITING = "editing"  # an earlier message edited in the composer (`Held.editing`)
    EARLIER = "earlier"  # an agent's earlier sessions listed (`Held.earlier`)
    ATTEMPTS = "attempts"  # an attempt's runs as last told (`Held.attempts`)
    ASKS = "asks"  # a form or URL an agent asks the user for (`Held.asks`)


class Change(Record):
    aspects: frozenset[Aspect]
    session_id: str | None = None  # the session a CHECKLIST change is about

    def __contains__(self, aspect: object) -> bool:
        return aspect in self.aspects


NOTHING = Change(frozenset())
V = TypeVar("V")


def change(*aspects: Aspect, session_id: str | None = None) -> Change:
    return Change(frozenset(aspects), session_id)


def put(held: dict[str, V], session_id: str, value: V) -> bool:
    """A session's value in `held` set, or taken away when empty; whether it changed."""
    if held.get(session_id) == value or (not value and session_id not in held):
        return False
    if value:
        held[session_id] = value
    else:
        held.pop(session_id, None)
    return True
