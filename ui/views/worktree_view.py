"""The shown session's own worktree (contract section 18) in the window: how it stands
against its base, as the host last told it, and its merge and removal, asked of the Main
role. Read-only over the state; every action is an intent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class WorktreeView(QObject):
    changed = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        if {store.SESSIONS, store.CURRENT, store.ATTEMPTS} & change.aspects:
            self.changed.emit()

    def _branch(self) -> str:
        shown = self._state.shown
        return shown.branch if shown is not None else ""

    def _summary(self) -> str:
        """ "⎇ feat/x from main: 3 files changed · ↑2 ↓1 · uncommitted changes"."""
        told = self._state.worktrees.get(self._state.current or "")
        if not self._branch():
            return ""
        if told is None:
            return f"⎇ {self._branch()}: reading how it stands…"
        files = f"{told.files} file{'' if told.files == 1 else 's'} changed"
        dirty = " · uncommitted changes (committed first)" if told.dirty else ""
        return f"⎇ {told.branch} from {told.base}: {files} · ↑{told.ahead} ↓{told.behind}{dirty}"

    def _conflicts(self) -> str:
        told = self._state.worktrees.get(self._state.current or "")
        if told is None or not told.conflicts:
            return ""
        return "A merge now would conflict on " + ", ".join(told.conflicts)

    def _message(self) -> str:
        """The commit message a merge makes by default: the session's title and its
        checklist as it was done (as the host would make it)."""
        shown = self._state.shown
        if shown is None:
            return ""
        marks = {"completed": "x", "cancelled": "-", "in_progress": "~", "pending": " "}
        snapshot = self._state.snapshot(shown.session_id)
        items = snapshot.items if snapshot is not None else ()
        steps = "\n".join(f"- [{marks.get(i.status, ' ')}] {i.content}" for i in items)
        return f"{shown.title}\n\n{steps}" if steps else shown.title

    @Slot()
    def read(self) -> None:
        self._ask(it.ReadWorktree())

    @Slot(str, str)
    def merge(self, how: str, message: str) -> None:
        self._ask(it.MergeWorktree(how, message))

    @Slot(bool)
    def remove(self, force: bool) -> None:
        self._ask(it.RemoveWorktree(force))

    @Slot(result="QStringList")
    def agentNames(self) -> list[str]:
        """The agents a task can be tried by: the configured ones that can start, and
        Nib's own."""
        return [a.name for a in self._state.agents if a.state != "failed"] + ["nib"]

    @Slot(str, str, "QStringList", str, str, str)
    def tryAgents(
        self, folder: str, text: str, agents: list[str], base: str, check: str, source: str
    ) -> None:
        """The runs started; `source` the session whose composer the task came from ("":
        none), whose held images go with them."""
        self._ask(it.StartAttempt(folder, text, tuple(agents), base, check, source))

    @Slot(str)
    def recallCheck(self, folder: str) -> None:
        """The check last given to an attempt on `folder`'s repository, asked for
        (`recalledCheck` once told)."""
        from nib_desktop.state.worktree_intents import RecallCheck

        if folder.strip():
            self._ask(RecallCheck(folder.strip()))

    @Slot(str, result=str)
    def recalledCheck(self, folder: str) -> str:
        """That check, once told, for `folder` as typed ("" none, or not told yet)."""
        told, command = self._state.recalled_check
        return command if folder.strip() and told == folder.strip() else ""

    branch = Property(str, _branch, notify=changed)
    summary = Property(str, _summary, notify=changed)
    conflicts = Property(str, _conflicts, notify=changed)
    message = Property(str, _message, notify=changed)
