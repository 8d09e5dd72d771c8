"""The dock's feedback on the plan: what the user asks of its steps before sending it
(skip, move, add, comment), the asks held, Send and Discard. The checklist itself never
changes here (ADR 0312): the asks go to the agent as one message."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.feedback import AskKind, PlanAsk, said, stale
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.types import Item
from ui.views.rows import AskModel, AskRow, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1
FINISHED = ("completed", "cancelled")


@QmlElement
@qml_uncreatable("made by the views")
class FeedbackView(QObject):
    changed = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        self.model = AskModel(self)
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        touched = {store.FEEDBACK, store.CURRENT, store.CHECKLIST, store.HISTORY, store.QUEUED}
        if touched & change.aspects:
            items = self._items()
            self.model.set_rows([AskRow(said(a, items), stale(a, items)) for a in self._held()])
            self.changed.emit()

    def _held(self) -> tuple[PlanAsk, ...]:
        return self._state.plan_asks.get(self._state.current or "", ())

    def _items(self) -> tuple[Item, ...]:
        """The live checklist's steps (none while a past revision is shown)."""
        state = self._state
        snapshot = state.snapshot(state.current)
        if snapshot is None or state.history.viewed is not None:
            return ()
        return snapshot.items

    def _step(self, row: int) -> Item | None:
        items = self._items()
        return items[row] if 0 <= row < len(items) else None

    def _asking(self, kind: AskKind, row: int, text: str = "", places: int = 0) -> None:
        step = self._step(row)
        if step is None and not (kind == "add" and row < 0):
            return
        content = step.content if step is not None else ""
        if kind in ("skip", "move") and step is not None and step.status in FINISHED:
            # a finished step stays where it is: said, not done silently nothing
            what = "skipped" if kind == "skip" else "moved"
            self._ask(
                ev.NoticeShown(f"“{step.content}” is already {step.status}: it is not {what}.")
            )
            return
        self._ask(it.AskOnPlan(PlanAsk(kind, content, text, places)))

    # --- what QML reads -------------------------------------------------------------

    def _get_possible(self) -> bool:
        shown = self._state.shown
        return shown is not None and shown.reachable and bool(self._items())

    def _get_asks(self) -> AskModel:
        return self.model

    def _get_count(self) -> int:
        return len(self._held())

    def _get_sendText(self) -> str:
        """What Send does, in its words."""
        shown = self._state.shown
        if shown is not None and shown.running:
            if shown.session_id in self._state.asks_queued:
                return "Goes when this turn ends"
            return "Send after this turn"
        return "Send to the agent"

    possible = Property(bool, _get_possible, notify=changed)
    asks = Property(AskModel, _get_asks, constant=True)
    count = Property(int, _get_count, notify=changed)
    sendText = Property(str, _get_sendText, notify=changed)

    @Slot(int)
    def skip(self, row: int) -> None:
        self._asking("skip", row)

    @Slot(int, int)
    def move(self, row: int, places: int) -> None:
        if places:
            self._asking("move", row, places=places)

    @Slot(int, str)
    def add(self, row: int, text: str) -> None:
        """A step after `row` (-1: at the end)."""
        if text.strip():
            self._asking("add", row, " ".join(text.split()))

    @Slot(int, str)
    def comment(self, row: int, text: str) -> None:
        if text.strip():
            self._asking("comment", row, " ".join(text.split()))

    @Slot(int)
    def drop(self, index: int) -> None:
        self._ask(it.DropAsk(index))

    @Slot()
    def send(self) -> None:
        self._ask(it.SendFeedback())
