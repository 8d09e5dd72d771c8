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
    Snapshot,
    SnapshotStore,
    TurnView,
    accessible_name,
    current_step,
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
    interrupted: bool
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


@QmlElement
@qml_uncreatable("made by the controller")
class SessionListModel(RowModel):
    ROLES = ("sessionId", "title", "mode", "remote", "running", "parentId")


@dataclass(frozen=True)
class TranscriptRow:
    kind: str  # user, assistant, tool_call, tool_result, todo
    text: str
    isError: bool
    warning: bool = False  # e.g. checklist items dropped unfinished (said in words too)


@QmlElement
@qml_uncreatable("made by the controller")
class TranscriptModel(RowModel):
    ROLES = ("kind", "text", "isError", "warning")


def reduced_motion_default() -> bool:
    return os.environ.get("NIB_REDUCED_MOTION", "") not in ("", "0", "false")


@QmlElement
@qml_uncreatable("made by the controller")
class TodoDockModel(QObject):
    """What the TodoDock shows for the current session: derived from the store's entry
    for it (the snapshot and the turn state together). QML binds to its properties; all
    of them change together through `changed`."""

    changed = Signal()
    expandedChanged = Signal()
    reducedMotionChanged = Signal()

    def __init__(self, store: SnapshotStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._items = TodoListModel(self)
        self._session: str | None = None
        self._remote = False
        self._expanded = False
        self._reduced = reduced_motion_default()
        self._snapshot: Snapshot | None = None
        self._turn = TurnView("")
        self._running = False
        store.on_change(self._store_changed)

    # --- input from the controller: which session is on screen ----------------------

    def show_session(self, session_id: str | None, remote: bool) -> None:
        if (session_id, remote) != (self._session, self._remote):
            self._session, self._remote = session_id, remote
            self._refresh()

    def _store_changed(self, session_id: str) -> None:
        if session_id == self._session:
            self._refresh()

    def _refresh(self) -> None:
        session = self._session
        snapshot = None if self._remote or session is None else self._store.get(session)
        self._snapshot = snapshot
        self._turn = self._store.turn(session or "")
        self._running = self._turn.running
        rows: list[TodoRow] = []
        if snapshot is not None:
            total = len(snapshot.items)
            for index, item in enumerate(snapshot.items):
                in_progress = item.status == "in_progress"
                interrupted = in_progress and not self._running
                rows.append(
                    TodoRow(
                        content=item.content,
                        status=item.status,
                        glyph=STATUS_GLYPHS[item.status],
                        activeForm=item.active_form or "",
                        number=index + 1,
                        accessibleName=accessible_name(index, total, item, interrupted),
                        interrupted=interrupted,
                        sweeping=in_progress and self._running,
                    )
                )
        self._items.set_rows(rows)
        self.changed.emit()

    # --- what QML reads -------------------------------------------------------------

    def _get_items(self) -> TodoListModel:
        return self._items

    def _get_visible(self) -> bool:
        return self._remote or visible(self._snapshot)

    def _get_remote(self) -> bool:
        return self._remote

    def _get_completed(self) -> int:
        return progress(self._snapshot).completed if self._snapshot else 0

    def _get_total(self) -> int:
        return progress(self._snapshot).total if self._snapshot else 0

    def _get_fraction(self) -> float:
        return progress(self._snapshot).fraction if self._snapshot else 0.0

    def _get_current_step(self) -> str:
        return current_step(self._snapshot) if self._snapshot else ""

    def _get_running_row(self) -> int:
        return running_index(self._snapshot) if self._snapshot else -1

    def _get_running(self) -> bool:
        return self._running

    def _get_revision(self) -> int:
        return self._snapshot.revision if self._snapshot else 0

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
    remote = Property(bool, _get_remote, notify=changed)
    completed = Property(int, _get_completed, notify=changed)
    total = Property(int, _get_total, notify=changed)
    fraction = Property(float, _get_fraction, notify=changed)
    currentStep = Property(str, _get_current_step, notify=changed)
    runningRow = Property(int, _get_running_row, notify=changed)
    running = Property(bool, _get_running, notify=changed)
    revision = Property(int, _get_revision, notify=changed)
    expanded = Property(bool, _get_expanded, _set_expanded, notify=expandedChanged)
    reducedMotion = Property(bool, _get_reduced, _set_reduced, notify=reducedMotionChanged)

    @Slot()
    def toggleExpanded(self) -> None:
        self._set_expanded(not self._expanded)
