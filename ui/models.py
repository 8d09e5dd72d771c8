"""List models and the TodoDock view model that QML binds to."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from PySide6.QtCore import (
    Property,
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtQml import QmlElement, QmlUncreatable

from ui.snapshots import (
    STATUS_GLYPHS,
    Headline,
    Revision,
    Snapshot,
    SnapshotStore,
    TurnView,
    accessible_name,
    current_step,
    ended_word,
    focus_index,
    headline,
    progress,
    running_index,
    visible,
)

T = TypeVar("T")

# QmlUncreatable's stub does not say it is a decorator factory.
qml_uncreatable: Callable[[str], Callable[[T], T]] = QmlUncreatable  # type: ignore[assignment]

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

Index = QModelIndex | QPersistentModelIndex


class RowModel(QAbstractListModel):
    """A list of frozen rows; each role reads one attribute. `set_rows` emits the least
    change it can: dataChanged for rows that differ when the length is the same."""

    ROLES: tuple[str, ...] = ()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []
        self._role_ids = {
            Qt.ItemDataRole.UserRole + 1 + i: name for i, name in enumerate(self.ROLES)
        }

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def roleNames(self) -> dict[int, QByteArray]:
        return {role: QByteArray(name.encode()) for role, name in self._role_ids.items()}

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            role = Qt.ItemDataRole.UserRole + 1
        name = self._role_ids.get(role)
        return getattr(row, name) if name is not None else None

    def rows(self) -> list[Any]:
        return list(self._rows)

    def append_rows(self, rows: list[Any]) -> None:
        """Rows added at the end (a transcript growing): inserted, not a reset, so the
        view keeps its delegates and its scroll position."""
        if rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
            self._rows.extend(rows)
            self.endInsertRows()

    def replace_keeping_tail(self, rows: list[Any]) -> None:
        """Rows that grew at the front (older history loaded): the new ones inserted
        before the held ones, which change in place only where they differ, so a view
        keeps its delegates and what the user was reading."""
        added = len(rows) - len(self._rows)
        if added < 0:
            self.set_rows(rows)
            return
        if added:
            self.beginInsertRows(QModelIndex(), 0, added - 1)
            self._rows[:0] = rows[:added]
            self.endInsertRows()
        self.set_rows(rows)

    def set_rows(self, rows: list[Any]) -> None:
        if len(rows) != len(self._rows):
            self.beginResetModel()
            self._rows = list(rows)
            self.endResetModel()
            return
        changed = [
            i for i, (old, new) in enumerate(zip(self._rows, rows, strict=True)) if old != new
        ]
        self._rows = list(rows)
        if changed:
            self.dataChanged.emit(self.index(changed[0]), self.index(changed[-1]))


@dataclass(frozen=True)
class TodoRow:
    content: str
    status: str
    glyph: str
    activeForm: str
    number: int
    accessibleName: str
    interrupted: bool  # in progress, but its turn ended
    endedWord: str  # then how: "stopped", "interrupted", "failed"
    sweeping: bool


@QmlElement
@qml_uncreatable("made by the controller")
class TodoListModel(RowModel):
    ROLES = (
        "content",
        "status",
        "glyph",
        "activeForm",
        "number",
        "accessibleName",
        "interrupted",
        "endedWord",
        "sweeping",
    )


@dataclass(frozen=True)
class SessionRow:
    sessionId: str
    title: str
    mode: str
    remote: bool
    running: bool
    parentId: str
    remoteState: str = ""  # "" (local), "connected", "connecting", "unreachable"
    remoteNote: str = ""  # e.g. "on dev@box · unreachable: Connection refused"
    checklistNote: str = ""  # why this session has no checklist to show ("": it has one)


@QmlElement
@qml_uncreatable("made by the controller")
class SessionListModel(RowModel):
    ROLES = ("sessionId", "title", "mode", "remote", "running", "parentId", "remoteState")


@dataclass(frozen=True)
class RemoteChoice:
    choiceId: str  # the session's id on that host
    title: str


@QmlElement
@qml_uncreatable("made by the controller")
class RemoteChoiceModel(RowModel):
    """The sessions a remote host has, to pick one to attach."""

    ROLES = ("choiceId", "title")


@dataclass(frozen=True)
class ApprovalView:
    """A tool call waiting for the user (contract section 13), as the composer shows it."""

    approvalId: str
    sessionId: str
    tool: str  # e.g. "get_current_time (time)" or a plugin tool's name
    arguments: str  # as the model wrote them, made safe to display


@dataclass(frozen=True)
class ToolSourceRow:
    """One MCP server or plugin in the Tools view."""

    name: str
    kind: str  # "MCP server" or "plugin"
    sourceState: str  # starting, ready, failed, disabled (plugins: ready or failed)
    error: str
    tools: str  # the tool names, comma separated
    accessibleName: str


@QmlElement
@qml_uncreatable("made by the controller")
class ToolSourceModel(RowModel):
    ROLES = ("name", "kind", "sourceState", "error", "tools", "accessibleName")


@dataclass(frozen=True)
class TranscriptRow:
    kind: str  # user, assistant, tool_call, tool_result, todo, turn_end, summary
    text: str
    isError: bool
    warning: bool = False  # e.g. checklist items dropped unfinished (said in words too)


@QmlElement
@qml_uncreatable("made by the controller")
class TranscriptModel(RowModel):
    ROLES = ("kind", "text", "isError", "warning")


@dataclass(frozen=True)
class HistoryRow:
    revision: int
    time: str
    summary: str
    warning: bool
    turnLabel: str  # the section the row is grouped under: its turn
    accessibleName: str


@QmlElement
@qml_uncreatable("made by the controller")
class HistoryModel(RowModel):
    ROLES = ("revision", "time", "summary", "warning", "turnLabel", "accessibleName")


def history_rows(revisions: tuple[Revision, ...]) -> list[HistoryRow]:
    """Revisions newest first, each under a label naming its turn: the time of its first
    revision shown and the revisions it wrote (which also keeps two turns of the same
    minute apart)."""
    first: dict[str, Revision] = {}
    last: dict[str, Revision] = {}
    for r in revisions:  # newest first: the last seen is the turn's earliest
        first[r.turn_id] = r
        last.setdefault(r.turn_id, r)
    rows = []
    for r in revisions:
        low, high = first[r.turn_id], last[r.turn_id]
        span = (
            f"revision {low.revision}"
            if low is high
            else (f"revisions {low.revision}–{high.revision}")
        )
        label = f"Turn started {low.time} · {span}" if r.turn_id else f"Before the history · {span}"
        name = f"Revision {r.revision}, {r.time}: {r.summary}"
        rows.append(HistoryRow(r.revision, r.time, r.summary, r.warning, label, name))
    return rows


def reduced_motion_default() -> bool:
    return os.environ.get("NIB_REDUCED_MOTION", "") not in ("", "0", "false")


@QmlElement
@qml_uncreatable("made by the controller")
class TodoDockModel(QObject):
    """What the TodoDock shows for the current session: derived from the store's entry
    for it (the snapshot and the turn state together). QML binds to its properties; all
    of them change together through `changed`."""

    changed = Signal()
    announcement = Signal(str)  # said politely to assistive technology
    historyChanged = Signal()
    expandedChanged = Signal()
    reducedMotionChanged = Signal()

    def __init__(self, store: SnapshotStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self.items_model = TodoListModel(self)
        self._session: str | None = None
        self._remote = False  # no checklist to show (a remote session's, for `_unavailable`)
        self._unavailable = ""
        self._expanded = False
        self._reduced = reduced_motion_default()
        self._headline: Headline | None = None
        self._snapshot: Snapshot | None = None  # what the list shows: live or a past one
        self._live: Snapshot | None = None
        self._turn = TurnView("")
        self._running = False
        # the History view: open or not, the revisions loaded (newest first), the one shown
        self._history_open = False
        self._history: tuple[Revision, ...] = ()
        self._history_more = False
        self._viewed: Revision | None = None
        self.history_model = HistoryModel(self)
        store.on_change(self._store_changed)

    # --- input from the controller: which session is on screen ----------------------

    def show_session(self, session_id: str | None, unavailable: str = "") -> None:
        """The session on screen; `unavailable` says why it has no checklist to show
        (a remote host that does not share it, or cannot be reached), "" if it has."""
        if unavailable != self._unavailable:
            self._unavailable = unavailable
            self.changed.emit()
        remote = bool(unavailable)
        if (session_id, remote) != (self._session, self._remote):
            self._session, self._remote = session_id, remote
            self._close_history()
            self._live = None  # nothing seen of this session yet: nothing to announce
            self._running = False
            self._refresh(announce=False)

    # --- the History view -------------------------------------------------------------

    def open_history(self) -> bool:
        """Open the History view for the session shown; False if it has no history (none
        shown, or remote)."""
        if self._session is None or self._remote:
            return False
        if not self._history_open:
            self._history_open = True
            self.historyChanged.emit()
        return True

    def set_history(
        self, session_id: str, revisions: tuple[Revision, ...], has_more: bool, older: bool
    ) -> None:
        """A page of `todos.history` for `session_id`: the newest page (replacing what is
        held) or, with `older`, the page after the oldest held."""
        if session_id != self._session or not self._history_open:
            return
        if older:
            held = {r.revision for r in self._history}
            revisions = self._history + tuple(r for r in revisions if r.revision not in held)
        else:
            newest = {r.revision for r in revisions}
            oldest = min(newest, default=0)
            revisions = revisions + tuple(
                r for r in self._history if r.revision < oldest and r.revision not in newest
            )
            has_more = has_more or self._history_more
        self._history, self._history_more = revisions, has_more
        self.history_model.set_rows(history_rows(revisions))
        self.historyChanged.emit()

    def history_session(self) -> str | None:
        """The session whose History view is open, if any."""
        return self._session if self._history_open else None

    def oldest_revision(self) -> int:
        return min((r.revision for r in self._history), default=0)

    def _close_history(self) -> None:
        was_open = self._history_open
        self._history_open, self._history, self._history_more = False, (), False
        self._viewed = None
        self.history_model.set_rows([])
        if was_open:
            self.historyChanged.emit()

    def _store_changed(self, session_id: str) -> None:
        if session_id == self._session:
            self._refresh()

    def _refresh(self, announce: bool = True) -> None:
        session = self._session
        live = None if self._remote or session is None else self._store.get(session)
        was_running = self._running
        if announce:
            self._announce_completed(self._live, live)
        self._live = live
        viewed = self._viewed
        snapshot = live
        if viewed is not None and session is not None:
            snapshot = Snapshot(session, viewed.revision, viewed.items)
        self._snapshot = snapshot
        self._turn = self._store.turn(session or "")
        self._running = self._turn.running and viewed is None
        rows: list[TodoRow] = []
        word = ended_word(self._turn)
        self._headline = headline(snapshot, self._turn) if snapshot is not None else None
        if viewed is not None and snapshot is not None:
            self._headline = Headline(current_step(snapshot), "idle", False)
        if snapshot is not None:
            total = len(snapshot.items)
            for index, item in enumerate(snapshot.items):
                in_progress = item.status == "in_progress"
                interrupted = in_progress and not self._running and viewed is None
                rows.append(
                    TodoRow(
                        content=item.content,
                        status=item.status,
                        glyph=STATUS_GLYPHS[item.status],
                        activeForm=item.active_form or "",
                        number=index + 1,
                        accessibleName=accessible_name(
                            index, total, item, word if interrupted else ""
                        ),
                        interrupted=interrupted,
                        endedWord=word if interrupted else "",
                        sweeping=in_progress and self._running,
                    )
                )
        self.items_model.set_rows(rows)
        self.changed.emit()
        ended = was_running and not self._turn.running and self._headline is not None
        if announce and ended and self._headline is not None:
            self.announcement.emit(self._headline.text)

    def _announce_completed(self, before: Snapshot | None, after: Snapshot | None) -> None:
        """Steps that became completed between two snapshots of the session shown."""
        if before is None or after is None or before.session_id != after.session_id:
            return
        done_before = {i.content for i in before.items if i.status == "completed"}
        total = len(after.items)
        newly = [
            (index, item)
            for index, item in enumerate(after.items)
            if item.status == "completed" and item.content not in done_before
        ]
        if len(newly) > 3:
            self.announcement.emit(f"Completed {len(newly)} steps")
            return
        for index, item in newly:
            self.announcement.emit(f"Completed step {index + 1} of {total}: {item.content}")

    # --- what QML reads -------------------------------------------------------------

    def _get_items(self) -> TodoListModel:
        return self.items_model

    def _get_visible(self) -> bool:
        return self._remote or self._history_open or visible(self._snapshot)

    def _get_remote(self) -> bool:
        return self._remote

    def _get_unavailable(self) -> str:
        return self._unavailable

    def _get_completed(self) -> int:
        return progress(self._snapshot).completed if self._snapshot else 0

    def _get_total(self) -> int:
        return progress(self._snapshot).total if self._snapshot else 0

    def _get_fraction(self) -> float:
        return progress(self._snapshot).fraction if self._snapshot else 0.0

    def _get_current_step(self) -> str:
        return self._headline.text if self._headline else ""

    def _get_tone(self) -> str:
        return self._headline.tone if self._headline else "idle"

    def _get_counted(self) -> bool:
        return self._headline.counted if self._headline else False

    def _get_running_row(self) -> int:
        return running_index(self._snapshot) if self._snapshot else -1

    def _get_focus_row(self) -> int:
        """The row the expanded list keeps in view (see `focus_index`)."""
        return focus_index(self._snapshot) if self._snapshot else -1

    def _get_running(self) -> bool:
        return self._running

    def _get_revision(self) -> int:
        return self._snapshot.revision if self._snapshot else 0

    def _get_history_open(self) -> bool:
        return self._history_open

    def _get_history(self) -> HistoryModel:
        return self.history_model

    def _get_history_more(self) -> bool:
        return self._history_more

    def _get_viewing(self) -> bool:
        return self._viewed is not None

    def _get_view_label(self) -> str:
        viewed = self._viewed
        if viewed is None:
            return ""
        latest = max(self._live.revision if self._live else 0, self._history[0].revision)
        return f"Revision {viewed.revision} of {latest}, {viewed.time}"

    def _get_expanded(self) -> bool:
        return self._expanded

    def _set_expanded(self, value: bool) -> None:
        if value != self._expanded:
            self._expanded = value
            self.expandedChanged.emit()

    def _get_reduced(self) -> bool:
        return self._reduced

    def _set_reduced(self, value: bool) -> None:
        if value != self._reduced:
            self._reduced = value
            self.reducedMotionChanged.emit()

    items = Property(TodoListModel, _get_items, constant=True)
    shown = Property(bool, _get_visible, notify=changed)
    remote = Property(bool, _get_remote, notify=changed)  # no checklist to show
    unavailableText = Property(str, _get_unavailable, notify=changed)
    completed = Property(int, _get_completed, notify=changed)
    total = Property(int, _get_total, notify=changed)
    fraction = Property(float, _get_fraction, notify=changed)
    currentStep = Property(str, _get_current_step, notify=changed)  # the headline
    tone = Property(str, _get_tone, notify=changed)  # running, ended, done, idle
    countInText = Property(bool, _get_counted, notify=changed)
    runningRow = Property(int, _get_running_row, notify=changed)
    focusRow = Property(int, _get_focus_row, notify=changed)
    running = Property(bool, _get_running, notify=changed)
    revision = Property(int, _get_revision, notify=changed)
    historyOpen = Property(bool, _get_history_open, notify=historyChanged)
    history = Property(HistoryModel, _get_history, constant=True)
    historyHasMore = Property(bool, _get_history_more, notify=historyChanged)
    viewing = Property(bool, _get_viewing, notify=historyChanged)
    viewLabel = Property(str, _get_view_label, notify=changed)
    expanded = Property(bool, _get_expanded, _set_expanded, notify=expandedChanged)
    reducedMotion = Property(bool, _get_reduced, _set_reduced, notify=reducedMotionChanged)

    @Slot()
    def toggleExpanded(self) -> None:
        self._set_expanded(not self._expanded)

    @Slot(int)
    def showRevision(self, revision: int) -> None:
        """Show a loaded revision's list, read-only (0: back to the live list)."""
        viewed = next((r for r in self._history if r.revision == revision), None)
        if viewed != self._viewed:
            self._viewed = viewed
            self.historyChanged.emit()
            self._refresh()

    @Slot(int, result=int)
    def revisionAt(self, index: int) -> int:
        """The revision at `index` of the History view (0 if there is none)."""
        return self._history[index].revision if 0 <= index < len(self._history) else 0

    @Slot()
    def closeHistory(self) -> None:
        """Back to the live list."""
        viewing = self._viewed is not None
        self._close_history()
        if viewing:
            self._refresh()
