"""The library of sessions for QML: rename the shown session, search every session (the
hits as a list model), export one as Markdown."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state.aspects import Aspect
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.library import Hit
from nib_desktop.state.rich import escape
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.tuples import NamedTuple
from ui.views.rows import SearchHitModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


class HitRow(NamedTuple):
    sessionId: str
    title: str
    where: str  # "You · 2026-12-03 09:14", "Title"
    snippetHtml: str  # the snippet escaped, its matched words in bold
    accessibleName: str
    found: str  # the first matched word, looked for in the transcript when opened
    seq: int


def snippet_html(hit: Hit) -> str:
    """The snippet as rich text made here: every character of it escaped, only the bold
    around its matches ours."""
    out, at = [], 0
    for start, end in hit.marks:
        out.append(escape(hit.snippet[at:start]))
        out.append(f"<b>{escape(hit.snippet[start:end])}</b>")
        at = end
    out.append(escape(hit.snippet[at:]))
    return "".join(out)


def hit_row(hit: Hit) -> HitRow:
    where = f"{hit.who} · {hit.when}" if hit.message_seq else "Title"
    found = hit.snippet[hit.marks[0][0] : hit.marks[0][1]] if hit.marks else ""
    name = f"{hit.title}: {where}: {hit.snippet}"
    return HitRow(hit.session_id, hit.title, where, snippet_html(hit), name, found, hit.message_seq)


@QmlElement
@qml_uncreatable("made by the views")
class LibraryView(QObject):
    searchChanged = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        self._query = ""
        self.model = SearchHitModel(self)
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        if Aspect.SEARCH in change and self._state.search.query == self._query:
            self.model.set_rows([hit_row(h) for h in self._state.search.hits])
            self.searchChanged.emit()

    @Slot(str)
    def search(self, query: str) -> None:
        """Every session searched for `query` (the answer fills `hits`)."""
        self._query = query
        self.searchChanged.emit()
        self._ask(it.SearchSessions(query))

    @Slot(int)
    def open(self, row: int) -> None:
        """The session of hit `row` shown, the transcript's find on its matched word and
        at its message."""
        rows = self.model.rows()
        if 0 <= row < len(rows):
            chosen: HitRow = rows[row]
            self._ask(ev.SessionShown(chosen.sessionId))
            self.opened.emit(chosen.found, chosen.sessionId, chosen.seq)

    # the word to find in the transcript, in session `sessionId` at message `seq`
    opened = Signal(str, str, int)

    @Slot(str, str)
    def rename(self, session_id: str, title: str) -> None:
        self._ask(it.RenameSession(session_id, title))

    @Slot(str, str, bool)
    def export(self, session_id: str, path: str, replace: bool) -> None:
        self._ask(it.ExportSession(session_id, path, replace))

    @Slot(str, result=str)
    def exportPath(self, session_id: str) -> str:
        """Where a session is exported unless the user says otherwise: a file named by
        its title in the Documents folder (else the home folder), as "~/…"; never in
        the agent's folder, where it would be an untracked file in its repository."""
        session = self._state.session(session_id)
        title = session.title if session is not None else "session"
        name = "".join(c if c.isalnum() or c in " -_" else " " for c in title).strip()
        name = "-".join(name.split())[:60] or "session"
        folder = "~/Documents" if (Path.home() / "Documents").is_dir() else "~"
        return f"{folder}/{name}.md"

    @Slot(str, result=str)
    def exportProblem(self, typed: str) -> str:
        """What is wrong with an export's path as typed ("" for nothing; "replace" when a
        file is there)."""
        path = Path(typed.strip()).expanduser()
        if not typed.strip():
            return "Name the file to write"
        if not path.is_absolute():
            return "Give the whole path: from / or ~"
        if path.is_dir():
            return f"{typed.strip()} is a folder: name a file in it"
        if not path.parent.is_dir():
            return f"There is no folder {path.parent}"
        return "replace" if path.exists() else ""

    def _hits(self) -> SearchHitModel:
        return self.model

    def _note(self) -> str:
        """What the search says besides its hits: nothing yet, its failure, no hits."""
        held = self._state.search
        if not self._query.strip() or held.query != self._query:
            return ""
        if held.error:
            return f"The search failed: {held.error}"
        return "" if held.hits else f"No session says “{self._query.strip()}”"

    def _searching(self) -> bool:
        return bool(self._query.strip()) and self._state.search.query != self._query

    hits = Property(SearchHitModel, _hits, constant=True)
    note = Property(str, _note, notify=searchChanged)
    searching = Property(bool, _searching, notify=searchChanged)
