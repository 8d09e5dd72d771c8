"""What the shown agent's session waits for from the user, as buttons above the input:
its sign-in methods once a turn failed for want of one; approving its plan (in the mode
the user left for the plan mode, named on the button) or asking for changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.steering import plan_exit
from nib_desktop.state.store import AppState, Change
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

APPROVED = "Go ahead with the plan."
CHANGES = "Change the plan: "


@QmlElement
@qml_uncreatable("made by the views")
class AgentAsksView(QObject):
    changed = Signal()
    wordsAsked = Signal(str)  # the input takes these words (asking for changes to a plan)

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        if {store.CURRENT, store.CHECKLIST, store.STEERING} & change.aspects:
            self.changed.emit()

    @Slot(result="QVariantList")
    def agentAsks(self) -> list[dict[str, str]]:
        """What the shown agent's session waits for from the user, as buttons: its
        sign-in methods once a turn failed for want of one; else, while it is in its plan
        mode and no turn runs, approving the plan or asking for changes."""
        shown = self._state.shown
        if shown is None or not shown.agent or shown.running:
            return []
        turn = self._state.turn(shown.session_id)
        told = self._state.steering.get(shown.session_id)
        if told is None:
            return []
        if told.sign_ins and "authentication required" in turn.error:
            return [
                {
                    "id": f"signin:{i}",
                    "name": name,
                    "description": f"Sign in to {shown.agent}: {name}",
                }
                for i, name in told.sign_ins
            ]
        leave = plan_exit(told)
        if leave is None or turn.state != "completed":
            return []
        return [
            {
                "id": f"plan:{leave[0]}",
                "name": f"Approve, go on in {leave[1]}",
                "description": f"Leave the plan mode for {leave[1]} and tell the agent to go ahead",
            },
            {
                "id": "plan:",
                "name": "Ask for changes…",
                "description": "Say what to change: the agent writes the plan again",
            },
        ]

    def _asks_title(self) -> str:
        asks = self.agentAsks()
        shown = self._state.shown
        if not asks or shown is None:
            return ""
        if asks[0]["id"].startswith("signin:"):
            return f"{shown.agent} asks you to sign in:"
        return f"{shown.agent}'s plan waits for you:"

    @Slot(str)
    def answerAsk(self, ask_id: str) -> None:
        """One of `agentAsks` chosen: a sign-in; the plan approved (the mode left, then
        "Go ahead with the plan."); or changes asked for (the input takes the words)."""
        shown = self._state.shown
        kind, _, value = ask_id.partition(":")
        if shown is None or not shown.agent:
            return
        if kind == "signin" and value:
            self._ask(it.SignIn(shown.agent, value))
        elif kind == "plan" and value:
            self._ask(it.Steer("", value, APPROVED))
        elif kind == "plan":
            self.wordsAsked.emit(CHANGES)

    def _asks_count(self) -> int:
        return len(self.agentAsks())

    asksCount = Property(int, _asks_count, notify=changed)
    asksTitle = Property(str, _asks_title, notify=changed)
