"""The TodoDock: what it shows of the shown session's checklist (live, or a revision
the History view shows read-only), derived from the state's snapshot and turn together,
so what it says does not depend on the order in which the two arrived."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import facts, store
from nib_desktop.state.facts import End, Progress
from nib_desktop.state.feedback import step_asks
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.steering import plan_exit
from nib_desktop.state.store import AppState, Change
from ui.snapshots import Headline, Snapshot, checklist_note, completed_between, headline, todo_rows
from ui.views.rows import TodoListModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class DockView(QObject):
    changed = Signal()  # every property below but the preferences changes with it
    announcement = Signal(str)  # said politely to assistive technology
    prefsChanged = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)
        self.model = TodoListModel(self)
        self._session: str | None = None
        self._snapshot: Snapshot | None = None  # what the list shows: live or a past one
        self._counted = Progress(0, 0)  # its progress
        self._live: Snapshot | None = None
        self._headline: Headline | None = None
        self._running = False
        self._note = ""  # why the shown session has no checklist to show
        self._made = False

    def _changed(self, event: ev.Event, change: Change) -> None:
        if store.PREFS in change:
            self.prefsChanged.emit()
        shown = self._state.current
        if store.CURRENT in change and shown != self._session:
            self._session, self._live, self._running = shown, None, False
            self._refresh(announce=False)
        elif store.CHECKLIST in change and change.session_id in (shown, None):
            self._refresh(announce=True)
        elif (
            store.CURRENT in change or store.FEEDBACK in change
        ):  # the shown session's row: its checklist note
            self._refresh(announce=False)
        elif store.STEERING in change and change.session_id in (shown, None):
            self.changed.emit()  # its plan mode: Continue gives way to the plan's asks

    def _refresh(self, announce: bool) -> None:
        state = self._state
        session, shown = state.current, state.shown
        held = state.snapshot(session) if session is not None else None
        turn = state.turn(session)
        self._note = checklist_note(shown, held, turn) if shown else ""
        live = None if self._note else held
        if announce:
            for text in completed_between(self._live, live):
                self.announcement.emit(text)
        was_running, self._live = self._running, live
        viewed = state.history.viewed
        snapshot = live
        if viewed is not None and session is not None:
            snapshot = Snapshot(session, viewed.revision, viewed.items)
        self._snapshot = snapshot
        self._counted = facts.progress(snapshot.items) if snapshot else Progress(0, 0)
        self._running = turn.running and viewed is None
        self._headline = headline(snapshot, turn) if snapshot is not None else None
        if viewed is not None and snapshot is not None:
            self._headline = Headline(facts.current_step(snapshot.items), "idle", False)
        files = dict(state.step_files.get(session or "", ()))
        rows = todo_rows(snapshot, turn, live=viewed is None, files=files)
        asks = state.plan_asks.get(session or "", ()) if viewed is None else ()
        if asks:
            rows = [r._replace(askedText=step_asks(asks, r.content)) for r in rows]
        self.model.set_rows(rows)
        self.changed.emit()
        if announce and was_running and not turn.running and self._headline is not None:
            self.announcement.emit(self._headline.text)

    # --- what QML reads -------------------------------------------------------------

    def _unavailable(self) -> str:
        return self._note

    def _shown(self) -> bool:
        has_items = self._snapshot is not None and len(self._snapshot.items) > 0
        return bool(self._unavailable()) or self._state.history.session_id is not None or has_items

    def _get_made(self) -> bool:
        """Whether the dock's QML is made: from the first time it is shown, and from then
        on (the first frame, which shows no checklist, makes none of it)."""
        self._made = self._made or self._shown()
        return self._made

    def _get_items(self) -> TodoListModel:
        return self.model

    def _get_unavailable(self) -> bool:
        return bool(self._unavailable())

    def _get_completed(self) -> int:
        return self._counted.completed

    def _get_total(self) -> int:
        return self._counted.total

    def _get_fraction(self) -> float:
        return self._counted.fraction if self._snapshot else 0.0

    def _get_currentStep(self) -> str:
        return self._headline.text if self._headline else ""

    def _get_tone(self) -> str:
        return self._headline.tone if self._headline else "idle"

    def _get_countInText(self) -> bool:
        return bool(self._headline and self._headline.counted)

    def _get_runningRow(self) -> int:
        return facts.running_index(self._snapshot.items) if self._snapshot else -1

    def _get_focusRow(self) -> int:
        return facts.focus_index(self._snapshot.items) if self._snapshot else -1

    def _get_running(self) -> bool:
        return self._running

    def _get_revision(self) -> int:
        return self._snapshot.revision if self._snapshot else 0

    def _get_canContinue(self) -> bool:
        """A turn ended with steps unfinished (stopped, failed, interrupted, or the agent
        stopped short): one action carries the list on."""
        state = self._state
        shown, live = state.shown, self._live
        if shown is None or live is None or self._note or not shown.reachable:
            return False
        told = state.steering.get(shown.session_id)
        if told is not None and plan_exit(told) is not None:
            return False  # in its plan mode: the plan waits to be approved, not an old list
        ended = state.turn(shown.session_id).end is not End.NONE
        return ended and facts.unfinished(live.items)

    @Slot()
    def continueTurn(self) -> None:
        if self._get_canContinue():
            self._ask(it.Continue())

    def _get_expanded(self) -> bool:
        return self._state.dock_expanded

    def _get_reducedMotion(self) -> bool:
        return self._state.reduced_motion

    items = Property(TodoListModel, _get_items, constant=True)
    shown = Property(bool, _shown, notify=changed)
    made = Property(bool, _get_made, notify=changed)
    unavailable = Property(bool, _get_unavailable, notify=changed)
    unavailableText = Property(str, _unavailable, notify=changed)
    completed = Property(int, _get_completed, notify=changed)
    total = Property(int, _get_total, notify=changed)
    fraction = Property(float, _get_fraction, notify=changed)
    currentStep = Property(str, _get_currentStep, notify=changed)
    tone = Property(str, _get_tone, notify=changed)
    countInText = Property(bool, _get_countInText, notify=changed)
    runningRow = Property(int, _get_runningRow, notify=changed)
    focusRow = Property(int, _get_focusRow, notify=changed)
    running = Property(bool, _get_running, notify=changed)
    revision = Property(int, _get_revision, notify=changed)
    canContinue = Property(bool, _get_canContinue, notify=changed)
    expanded = Property(bool, _get_expanded, notify=prefsChanged)
    reducedMotion = Property(bool, _get_reducedMotion, notify=prefsChanged)

    @Slot()
    def toggleExpanded(self) -> None:
        self._ask(ev.DockExpanded(not self._state.dock_expanded))
