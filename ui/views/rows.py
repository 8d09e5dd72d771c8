"""List models for QML: a list of frozen rows, one role per attribute, and the rows of
each list the window shows."""

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QObject,
    QPersistentModelIndex as PersistentIndex,
)
from PySide6.QtQml import QmlElement, QmlUncreatable

from nib_desktop.state.tuples import NamedTuple

T = TypeVar("T")

# QmlUncreatable's stub does not say it is a decorator factory.
qml_uncreatable: Callable[[str], Callable[[T], T]] = QmlUncreatable  # type: ignore[assignment]

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

Index = QModelIndex | PersistentIndex


# Qt.ItemDataRole's values, as numbers: reading PySide's `Qt` namespace the first time
# costs about 20 ms, which the window's first frame need not pay
DISPLAY_ROLE = 0  # Qt.ItemDataRole.DisplayRole
USER_ROLE = 0x0100  # Qt.ItemDataRole.UserRole


class RowModel(QAbstractListModel):
    """A list of frozen rows; each role reads one attribute: `ROLES` names the roles QML
    sees, each the row's attribute of the same name, or the one `ATTRIBUTES` gives (the
    state's own values are shown as they are, no copy). `set_rows` emits the least
    change it can, by row: never a reset."""

    ROLES: tuple[str, ...] = ()
    ATTRIBUTES: dict[str, str] = {}  # noqa: RUF012 - read only, per class

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []
        self._role_ids = {USER_ROLE + 1 + i: name for i, name in enumerate(self.ROLES)}
        self._attributes = {
            role: self.ATTRIBUTES.get(name, name) for role, name in self._role_ids.items()
        }

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def roleNames(self) -> dict[int, QByteArray]:
        return {role: QByteArray(name.encode()) for role, name in self._role_ids.items()}

    def data(self, index: Index, role: int = DISPLAY_ROLE) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == DISPLAY_ROLE:
            role = USER_ROLE + 1
        name = self._attributes.get(role)
        return getattr(row, name) if name is not None else None

    def rows(self) -> list[Any]:
        return list(self._rows)

    def set_row(self, index: int, row: Any) -> None:
        """One row changed in place (a step's line that finished)."""
        self._rows[index] = row
        self.dataChanged.emit(self.index(index), self.index(index))

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
        """The rows that differ, by row: what is the same at either end stays, the rows
        between change in place, and the rest is inserted or removed. Never a reset, so a
        view keeps its delegates, its focus and its scroll position."""
        held, n, m = self._rows, len(self._rows), len(rows)
        head = 0
        while head < min(n, m) and held[head] == rows[head]:
            head += 1
        tail = 0
        while tail < min(n, m) - head and held[n - 1 - tail] == rows[m - 1 - tail]:
            tail += 1
        was, now = n - tail - head, m - tail - head  # the rows between, before and after
        both = min(was, now)
        if both:
            held[head : head + both] = rows[head : head + both]
            self.dataChanged.emit(self.index(head), self.index(head + both - 1))
        at = head + both
        if now > was:
            self.beginInsertRows(QModelIndex(), at, at + now - was - 1)
            held[at:at] = rows[at : at + now - was]
            self.endInsertRows()
        elif was > now:
            self.beginRemoveRows(QModelIndex(), at, at + was - now - 1)
            del held[at : at + was - now]
            self.endRemoveRows()


@QmlElement
@qml_uncreatable("made by the views")
class SessionListModel(RowModel):
    """Rows: `state.sidebar.SidebarRow`s."""

    ROLES = ("sessionId", "title", "mode", "remote", "running", "parentId", "remoteState",
             "agent", "folder", "progress", "ended", "unseen", "waiting", "accessible",
             "group", "grouped")  # fmt: skip
    ATTRIBUTES = {"sessionId": "session_id", "parentId": "parent_id",  # noqa: RUF012
                  "remoteState": "remote_state"}  # fmt: skip


@QmlElement
@qml_uncreatable("made by the views")
class TranscriptModel(RowModel):
    """Rows: the state's transcript `Line`s."""

    ROLES = ("kind", "text", "preview", "isError", "warning", "detail", "detailHtml",
             "detailPreview", "markdown", "richShort", "callInput", "images", "spoken",
             "spokenShort")  # fmt: skip
    ATTRIBUTES = {"isError": "is_error", "detailHtml": "detail_html",  # noqa: RUF012
                  "detailPreview": "detail_preview", "richShort": "rich_short",
                  "callInput": "call_input", "images": "image_list",
                  "spokenShort": "spoken_short"}  # fmt: skip


@QmlElement
@qml_uncreatable("made by the views")
class TodoListModel(RowModel):
    """Rows: `ui.snapshots.TodoRow`s."""

    ROLES = ("content", "status", "glyph", "activeForm", "number", "accessibleName",
             "interrupted", "endedWord", "sweeping", "filesText", "askedText")  # fmt: skip


class HistoryRow(NamedTuple):
    revision: int
    time: str
    summary: str
    warning: bool
    turnLabel: str  # the section the row is grouped under: its turn
    accessibleName: str
    files: str = ""  # "2 files" changed in its interval ("": none, or not counted)


@QmlElement
@qml_uncreatable("made by the views")
class HistoryModel(RowModel):
    ROLES = ("revision", "time", "summary", "warning", "turnLabel", "accessibleName", "files")


@QmlElement
@qml_uncreatable("made by the views")
class ToolSourceModel(RowModel):
    """Rows: the state's `ToolSource`s."""

    ROLES = ("name", "kind", "sourceState", "error", "tools", "accessibleName")
    ATTRIBUTES = {"sourceState": "state", "accessibleName": "accessible_name"}  # noqa: RUF012


@QmlElement
@qml_uncreatable("made by the views")
class AgentChoiceModel(RowModel):
    """The configured ACP agents, for the New menu. Rows: `AgentChoice`s."""

    ROLES = ("name", "agentState", "error")
    ATTRIBUTES = {"agentState": "state"}  # noqa: RUF012


@QmlElement
@qml_uncreatable("made by the views")
class RemoteChoiceModel(RowModel):
    """The sessions a remote host has, to pick one to attach. Rows: `RemoteChoice`s."""

    ROLES = ("choiceId", "title")
    ATTRIBUTES = {"choiceId": "choice_id"}  # noqa: RUF012


@QmlElement
@qml_uncreatable("made by the views")
class ChangeRowModel(RowModel):
    """The Changes view's lists: its scopes (a step, the last turn, the whole session)
    and a scope's files. Rows: `ui.views.changes_view.ChangeRow`s."""

    ROLES = ("title", "summary", "accessibleName")
    ATTRIBUTES = {"accessibleName": "accessible_name"}  # noqa: RUF012


@QmlElement
@qml_uncreatable("made by the views")
class EarlierModel(RowModel):
    """An agent's earlier sessions. Rows: `state.earlier.EarlierRow`s."""

    ROLES = ("title", "when", "folder", "imported", "accessible")


class AskRow(NamedTuple):
    said: str  # the ask in the dock's words
    stale: str = ""  # why it will not be sent (its step finished or gone), "" while it fits


@QmlElement
@qml_uncreatable("made by the views")
class AskModel(RowModel):
    """The asks on the plan not sent yet. Rows: `AskRow`s."""

    ROLES = ("said", "stale")


@QmlElement
@qml_uncreatable("made by the views")
class ImageModel(RowModel):
    """The images held to go with the next message. Rows: `HeldImage`s."""

    ROLES = ("label", "source")


@QmlElement
@qml_uncreatable("made by the views")
class SearchHitModel(RowModel):
    """Rows: `ui.views.library_view.HitRow`s, the search across sessions' results."""

    ROLES = ("sessionId", "title", "where", "snippetHtml", "accessibleName", "found", "seq")
