"""The runs of the attempt the shown session belongs to (contract section 18's attempts):
each run's agent, turn, checklist, changes, usage and check, live as the host tells them;
moving into a run's session, comparing two runs, keeping one. Read-only over the state;
every action is an intent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.attempts import (
    Attempt,
    Run,
    any_running,
    change_words,
    check_words,
    progress_of,
    progress_words,
    turn_words,
)
from nib_desktop.state.facts import STATUS_GLYPHS
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

TITLE_CHARS = 80  # of the task's first line in the view's title
STEPS_SHOWN = 12  # of a run's checklist in its column


@QmlElement
@qml_uncreatable("made by the views")
class AttemptView(QObject):
    changed = Signal()
    changesAsked = Signal()  # the window opens the Changes view (a comparison loads)
    keepAsked = Signal()  # the window opens the shown run's merge

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        if {store.ATTEMPTS, store.SESSIONS, store.CURRENT, store.CHECKLIST} & change.aspects:
            self.changed.emit()

    def _attempt_id(self) -> str:
        shown = self._state.shown
        return shown.attempt if shown is not None else ""

    def _held(self) -> Attempt | None:
        return self._state.attempts.get(self._attempt_id())

    def _title(self) -> str:
        held = self._held()
        if held is None:
            return "Reading the runs…" if self._attempt_id() else ""
        line = next((ln for ln in held.text.splitlines() if ln.strip()), "")
        cut = line[: TITLE_CHARS - 1] + "…" if len(line) > TITLE_CHARS else line
        return f"{len(held.runs)} runs of “{cut}” from {held.base}"

    @Slot(result="QVariantList")
    def runList(self) -> list[dict[str, Any]]:
        """One entry per run, in the order they were asked, for the view's columns (read
        again at each `changed`)."""
        held = self._held()
        if held is None:
            return []
        current = self._state.current or ""
        return [
            {"steps": self._steps(run.session_id), **entry}
            for run, entry in zip(held.runs, self._entries(held, current), strict=True)
        ]

    def _steps(self, session_id: str) -> list[dict[str, Any]]:
        """The run's checklist as its dock shows it: each step's glyph, text and status
        (at most STEPS_SHOWN, then how many more)."""
        snapshot = self._state.snapshot(session_id)
        items = snapshot.items if snapshot is not None else ()
        steps: list[dict[str, Any]] = [
            {"glyph": STATUS_GLYPHS.get(i.status, "○"), "text": i.content, "status": i.status}
            for i in items[:STEPS_SHOWN]
        ]
        if len(items) > STEPS_SHOWN:
            more = f"and {len(items) - STEPS_SHOWN} more"
            steps.append({"glyph": "", "text": more, "status": "pending"})
        return steps

    def _entries(self, held: Attempt, current: str) -> list[dict[str, Any]]:
        return [self._entry(run, current) for run in held.runs]

    def _entry(self, run: Run, current: str) -> dict[str, Any]:
        counted = progress_of(run, self._state.snapshot(run.session_id))
        return {
            "sessionId": run.session_id,
            "agent": run.agent,
            "turn": turn_words(run),
            "running": run.state == "running",
            "failed": run.state == "failed",
            "progress": progress_words(counted),
            "fraction": counted.fraction if counted.total else 0.0,
            "changes": change_words(run),
            "usage": run.usage,
            "check": check_words(run),
            "checkFailed": run.check_state in ("failed", "error"),
            "checkTail": run.check_tail,
            "shown": run.session_id == current,
        }

    @Slot()
    def read(self) -> None:
        if self._attempt_id():
            self._ask(it.ReadAttempt(self._attempt_id()))

    @Slot(str)
    def showRun(self, session_id: str) -> None:
        self._ask(ev.SessionShown(session_id))

    @Slot(str, str)
    def compare(self, a: str, b: str) -> None:
        if self._attempt_id() and a and b and a != b:
            self._ask(it.CompareRuns(self._attempt_id(), a, b))
            self.changesAsked.emit()

    @Slot(str)
    def keep(self, session_id: str) -> None:
        """Keep this run: its session shown, and its worktree's merge asked of the window
        (the merge dialog names what it merges and what would conflict)."""
        self._ask(ev.SessionShown(session_id))
        self.keepAsked.emit()

    @Slot(str, result=str)
    def othersQuestion(self, keep: str) -> str:
        """What removing every run but `keep` loses, each run named with what it changed."""
        held = self._held()
        if held is None:
            return ""
        others = [r for r in held.runs if r.session_id != keep]
        named = "; ".join(f"{r.agent}'s ({change_words(r)})" for r in others)
        return f"Remove the worktrees and branches of {named}? What they changed is lost."

    @Slot(str)
    def removeOthers(self, keep: str) -> None:
        if self._attempt_id() and keep:
            self._ask(it.RemoveRuns(self._attempt_id(), keep))

    @Slot()
    def stopAll(self) -> None:
        if self._attempt_id():
            self._ask(it.StopRuns(self._attempt_id()))

    def _running(self) -> bool:
        held = self._held()
        return held is not None and any_running(held)

    def _present(self) -> bool:
        return self._attempt_id() != ""

    present = Property(bool, _present, notify=changed)
    running = Property(bool, _running, notify=changed)  # any of its runs
    title = Property(str, _title, notify=changed)
