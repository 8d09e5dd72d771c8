"""The dock's History view: every committed revision of the shown session's checklist,
grouped by turn, newest first, one of them shown read-only on demand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.types import Revision
from ui.views.rows import HistoryModel, HistoryRow, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


def history_rows(
    revisions: tuple[Revision, ...],
    requests: dict[str, str] | None = None,
    has_more: bool = False,
    files: dict[int, int] | None = None,
) -> list[HistoryRow]:
    """Revisions newest first, each under a label naming its turn: the time of its first
    revision, the revisions it wrote and its request's first words. The oldest group held
    while older pages exist may go on in them: its label says so instead of a range. Each
    says how many files changed in its interval (`files`, by revision) where any did."""
    requests = requests or {}
    files = files or {}
    first: dict[str, Revision] = {}
    last: dict[str, Revision] = {}
    for r in revisions:  # newest first: the last seen is the turn's earliest
        first[r.turn_id] = r
        last.setdefault(r.turn_id, r)
    oldest_turn = revisions[-1].turn_id if revisions and has_more else None
    rows = []
    for r in revisions:
        low, high = first[r.turn_id], last[r.turn_id]
        if r.turn_id == oldest_turn:  # its start is in a page not read yet
            span = f"revisions up to {high.revision}"
            when = f"Turn with revisions up to {high.revision}"
        else:
            span = (
                f"revision {low.revision}"
                if low is high
                else f"revisions {low.revision}–{high.revision}"
            )
            when = f"Turn started {low.time} · {span}"
        words = requests.get(r.turn_id, "")
        said = f" · “{words}”" if words else ""
        label = f"{when}{said}" if r.turn_id else f"Before the history · {span}"
        changed = files.get(r.revision, 0)
        count = f"{changed} file{'s' if changed != 1 else ''}" if changed else ""
        name = f"Revision {r.revision}, {r.time}: {r.summary}" + (
            f", {count} changed" if count else ""
        )
        rows.append(HistoryRow(r.revision, r.time, r.summary, r.warning, label, name, count))
    return rows


@QmlElement
@qml_uncreatable("made by the views")
class HistoryView(QObject):
    changed = Signal()
    filesAsked = Signal(int)  # the window opens the Changes view on that revision

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)
        self.model = HistoryModel(self)
        self._held: tuple[object, ...] = ()

    def _changed(self, event: ev.Event, change: Change) -> None:
        if store.HISTORY in change or (store.CHECKLIST in change and self._viewed()):
            history = self._state.history
            files = self._state.revision_files.get(history.session_id or "", ())
            held = (history.revisions, history.requests, history.has_more, files)
            if held != self._held:
                self._held = held
                self.model.set_rows(
                    history_rows(
                        history.revisions, dict(history.requests), history.has_more, dict(files)
                    )
                )
            self.changed.emit()

    def _viewed(self) -> bool:
        return self._state.history.viewed is not None

    def _label(self) -> str:
        history = self._state.history
        viewed = history.viewed
        if viewed is None:
            return ""
        live = self._state.snapshot(history.session_id)
        latest = max(live.revision if live else 0, history.revisions[0].revision)
        return f"Revision {viewed.revision} of {latest}, {viewed.time}"

    def _get_open(self) -> bool:
        return self._state.history.session_id is not None

    def _get_rows(self) -> HistoryModel:
        return self.model

    def _get_hasMore(self) -> bool:
        return self._state.history.has_more

    open = Property(bool, _get_open, notify=changed)
    rows = Property(HistoryModel, _get_rows, constant=True)
    hasMore = Property(bool, _get_hasMore, notify=changed)
    viewing = Property(bool, _viewed, notify=changed)
    viewLabel = Property(str, _label, notify=changed)

    @Slot()
    def show(self) -> None:
        """Open the History view on the session shown (its newest page loads)."""
        self._ask(it.OpenHistory())

    @Slot()
    def close(self) -> None:
        """Back to the live list."""
        self._ask(ev.HistoryClosed())

    @Slot()
    def loadOlder(self) -> None:
        if self._state.history.has_more:
            self._ask(it.LoadOlderRevisions())

    @Slot(int)
    def view(self, revision: int) -> None:
        """Show a loaded revision's list, read-only (0: back to the live list)."""
        self._ask(ev.RevisionViewed(revision))

    @Slot(int)
    def openFiles(self, revision: int) -> None:
        """The files changed in `revision`'s interval, in the Changes view."""
        self.filesAsked.emit(revision)

    @Slot(int, result=int)
    def revisionAt(self, index: int) -> int:
        """The revision at `index` of the list (0 if there is none)."""
        revisions = self._state.history.revisions
        return revisions[index].revision if 0 <= index < len(revisions) else 0
