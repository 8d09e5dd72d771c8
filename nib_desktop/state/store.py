"""The window's state and its one mutator.

`AppState.apply(event)` is the only way anything here changes: it runs the event's
reducer (`reducers.REDUCERS`, small functions by area: `on_sessions`, `on_transcript`,
`on_checklist`), which returns what changed (a `Change`), and tells every listener the
event and the change. Views read the state and listen; the Main role's effects (recovery,
the open History view following writes) listen too. No Qt, no I/O: every rule of what the
window holds is testable as plain Python.
"""

from __future__ import annotations

from collections.abc import Callable

from nib_desktop.state.aspects import NOTHING, Aspect, Change
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.parts import Held, History, Transcript

# The aspects by their names of old, for the listeners that read `store.CHECKLIST in change`.
CONNECTION = Aspect.CONNECTION
SESSIONS = Aspect.SESSIONS
CURRENT = Aspect.CURRENT
CHECKLIST = Aspect.CHECKLIST
TRANSCRIPT = Aspect.TRANSCRIPT
APPROVALS = Aspect.APPROVALS
TOOLS = Aspect.TOOLS
AGENTS = Aspect.AGENTS
STEERING = Aspect.STEERING
NOTICE = Aspect.NOTICE
DRAFTS = Aspect.DRAFTS
QUEUED = Aspect.QUEUED
REMOTE_CHOICES = Aspect.REMOTE_CHOICES
HISTORY = Aspect.HISTORY
PREFS = Aspect.PREFS
ATTENTION = Aspect.ATTENTION
LINKED = Aspect.LINKED
LIVE = Aspect.LIVE
CHANGES = Aspect.CHANGES
CHECKPOINT = Aspect.CHECKPOINT
FEEDBACK = Aspect.FEEDBACK
FILES = Aspect.FILES
IMAGES = Aspect.IMAGES
EDITING = Aspect.EDITING
EARLIER = Aspect.EARLIER
ATTEMPTS = Aspect.ATTEMPTS
ASKS = Aspect.ASKS

__all__ = ["NOTHING", "AppState", "Change", "History", "Transcript"]

Listener = Callable[["ev.Event", "Change"], None]


class AppState(Held):
    def __init__(self) -> None:
        super().__init__()
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # --- the one mutator ----------------------------------------------------------------

    def apply(self, event: ev.Event) -> Change:
        from nib_desktop.state.reducers import REDUCERS  # loaded with the first event

        reducer = REDUCERS.get(type(event))
        if reducer is None:
            raise TypeError(f"not an event: {event!r}")
        change = reducer(self, event)
        if change.aspects:
            for listener in list(self._listeners):
                listener(event, change)
        return change
