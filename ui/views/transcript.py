"""The transcript of the session shown, as the host committed it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.transcript_lines import Line
from ui.views import find_highlight  # noqa: F401 (registers FindHighlight for QML)
from ui.views.finder import Finder
from ui.views.live_text import LiveTold
from ui.views.rows import TranscriptModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class TranscriptView(QObject):
    moreChanged = Signal()
    liveChanged = Signal()  # the text arriving is new, or not only longer: read it whole
    liveAppended = Signal(str)  # ...or it grew by this
    copied = Signal(str)  # what went to the clipboard, in words, for a passing note
    findChanged = Signal()  # the query, its matches or the current one changed
    findMoved = Signal()  # the user went to a match (not new lines found again)
    findEnded = Signal()  # another session shown: its find bar closes, its query gone

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)
        self.model = TranscriptModel(self)
        self._more = False
        self._told_live = LiveTold()  # the text arriving, as the QML holds it
        # Ctrl+F: the query, the row of each occurrence, and the one shown (an index)
        self._finder = Finder()  # Ctrl+F

    def _changed(self, event: ev.Event, change: Change) -> None:
        if store.LIVE in change:
            self._live_changed()
        if store.TRANSCRIPT not in change:
            return
        if self._finder.ended_elsewhere(self._state.transcript.session_id or ""):
            self.findEnded.emit()
            self.findChanged.emit()
        lines = self._state.transcript.lines
        if isinstance(event, ev.LinesAppended):
            held = self.model.rowCount()
            for line in event.lines:  # a step's line that finished changes in place
                at = self._replaced(line, held)
                if at >= 0:
                    self.model.set_row(at, lines[at])
            self.model.append_rows(list(lines[held:]))  # the view keeps its place
        elif isinstance(event, ev.TranscriptPage) and event.older:
            self.model.replace_keeping_tail(list(lines))
        else:
            self.model.set_rows(list(lines))
        if self._finder.query:
            self._refind(keep=True)
        if self._state.transcript.has_more != self._more:
            self._more = self._state.transcript.has_more
            self.moreChanged.emit()

    def _replaced(self, line: Line, held: int) -> int:
        """Where `line` took the place of a held row (as `merge_lines` put it), else -1."""
        if not line.replaces:
            return -1
        lines = self._state.transcript.lines
        for at in range(min(held, len(lines)) - 1, -1, -1):
            if lines[at] is line:
                return at
        return -1

    def _live_changed(self) -> None:
        """The text arriving, told to the QML: the pieces added where a message only grew
        (the item appends them and lays out only its end), else the whole anew."""
        held = self._state.transcript
        added = self._told_live.told(held.live, held.live_thought)
        if added is None:
            self.liveChanged.emit()
        elif added:
            self.liveAppended.emit(added)

    def _rows(self) -> TranscriptModel:
        return self.model

    def _has_more(self) -> bool:
        return self._more

    def _live(self) -> str:
        """As shown: a message whole; a thought (folded once stored) its newest line."""
        held = self._state.transcript
        if not held.live_thought or not held.live:
            return held.live.text.strip("\n")
        return f"Thinking… {held.live.newest_line(300)}"

    def _live_thought(self) -> bool:
        return self._state.transcript.live_thought

    # --- finding text (Ctrl+F) ---------------------------------------------------------

    def _refind(self, keep: bool) -> None:
        shown = self._find_row()
        if self._finder.refind(self._state.transcript, keep):
            self._ask(it.LoadOlderMessages())  # the match is in an older page: read it
        self.findChanged.emit()
        if not keep or self._find_row() != shown:  # asked, or its row moved: shown
            self.findMoved.emit()

    @Slot(str)
    def find(self, query: str) -> None:
        """Look for `query` in every loaded line, its folded parts, output and input
        included; the newest occurrence is shown first."""
        self._finder.look(query)
        self._refind(keep=False)

    @Slot(str, str, int)
    def findAt(self, query: str, session_id: str, seq: int) -> None:
        """Look for `query`, showing first its occurrence in the message `seq` of the
        session `session_id` (a search hit opened), as soon as that is loaded."""
        self._finder.look(query, session_id, seq)
        self._refind(keep=False)

    @Slot(int)
    def findStep(self, step: int) -> None:
        """The next (1) or previous (-1) occurrence, wrapping around."""
        if self._finder.step(step):
            self.findChanged.emit()
            self.findMoved.emit()

    def _find_query(self) -> str:
        return self._finder.query

    def _find_row(self) -> int:
        """The row of the occurrence shown (-1: none): scrolled to, and unfolded."""
        return self._finder.row()

    def _find_count(self) -> str:
        return self._finder.count()

    findQuery = Property(str, _find_query, notify=findChanged)
    findRow = Property(int, _find_row, notify=findChanged)
    findCount = Property(str, _find_count, notify=findChanged)

    rows = Property(TranscriptModel, _rows, constant=True)
    hasMore = Property(bool, _has_more, notify=moreChanged)
    # the agent's message (or thought) while it arrives, shown after the rows
    liveText = Property(str, _live, notify=liveChanged)
    liveThought = Property(bool, _live_thought, notify=liveChanged)

    @Slot()
    def loadOlder(self) -> None:
        if self._more:
            self._ask(it.LoadOlderMessages())

    @Slot(int, result=str)
    def wholeRich(self, row: int) -> str:
        """A long agent message unfolded: the whole of it, rendered (once: the line keeps it)."""
        rows = self.model.rows()
        return rows[row].rich if 0 <= row < len(rows) else ""

    @Slot(int, str)
    def activateLink(self, row: int, url: str) -> None:
        """A link in a line, clicked: a code block's Copy ("copy:N") copies that block as
        the agent wrote it; a place a tool touched ("place:N") opens in the editor; any
        other opens in the browser, for a safe scheme only."""
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        from nib_desktop.state import line_picks as pick
        from nib_desktop.state.markdown import safe_link

        if url.startswith("copy:"):
            code = pick.linked_code(self.model.rows(), row, url.removeprefix("copy:"))
            if code is not None:
                self._to_clipboard(code, "Code block copied")
        elif url.startswith("place:"):
            place = pick.linked_place(self.model.rows(), row, url.removeprefix("place:"))
            if place is not None:
                self._ask(it.OpenPlace(*place))
        elif safe_link(url):
            QDesktopServices.openUrl(QUrl(url))

    @Slot(int)
    def copyLine(self, row: int) -> None:
        """One line as written: a message's text (an agent's Markdown source), a tool
        call's output or diff (else its line)."""
        rows = self.model.rows()
        if 0 <= row < len(rows):
            line = rows[row]
            self._to_clipboard(line.detail or line.text, "Copied")

    @Slot(int)
    @Slot(int, bool)
    def copyLastCode(self, row: int, folded: bool = False) -> None:
        """The last code block in view (`line_picks.last_code`; `folded`: line `row`
        shows only its folded form)."""
        from nib_desktop.state.line_picks import last_code

        code = last_code(self.model.rows(), row, folded)
        if code is None:
            self.copied.emit("No code block to copy")
        else:
            self._to_clipboard(code, "Code block copied")

    @Slot(int)
    def openPlaceAt(self, row: int) -> None:
        """The first file or place of line `row` or of the nearest line before it that
        has one, opened as its link would (O in the transcript)."""
        from nib_desktop.state.line_picks import nearest_place

        place = nearest_place(self.model.rows(), row)
        if place is None:
            self.copied.emit("No file or place in view to open")
        else:
            self._ask(it.OpenPlace(*place))

    @Slot(str, int, bool, result=bool)
    def key(self, text: str, row: int, folded: bool = False) -> bool:
        """The transcript's one-key commands on the last line in view (`row`, `folded`
        when it shows only its folded form): C copies its last code block shown, M the
        line, O opens its file; False for any other key."""
        if text == "c":
            self.copyLastCode(row, folded)
            return True
        act = {"m": self.copyLine, "o": self.openPlaceAt}.get(text)
        if act is not None:
            act(row)
        return act is not None

    def _to_clipboard(self, text: str, said: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(said)

    @Slot()
    def copy(self) -> None:
        """The whole transcript, every page of it (the Main role reads the pages not
        loaded), as plain text to the clipboard."""
        self._ask(it.CopyTranscript())
