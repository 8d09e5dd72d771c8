"""What a screen reader hears when a turn of the shown session ends (issue 47, point
29): the agent's answer, or how the turn ended, once, politely (never each streamed
piece). The window's QML says it (`Accessible.announce`), as it says the dock's and the
approvals' announcements: Python never names QAccessible, whose enums PySide would make
(about 0.4 MB) at the first turn's end."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtQml import QmlElement

from nib_desktop.state.facts import End
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.store import AppState, Change
from ui.views.rows import qml_uncreatable

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

ANSWER_CHARS = 400  # of the answer said


@QmlElement
@qml_uncreatable("made by the views")
class Announcer(QObject):
    said = Signal(str)  # the words, for the window to announce politely

    def __init__(
        self,
        state: AppState,
        parent: QObject | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self._state, self._say = state, say or self.said.emit
        state.subscribe(self._changed)

    def _changed(self, event: ev.Event, _change: Change) -> None:
        if not isinstance(event, ev.TurnChanged):
            return
        turn = event.turn
        if turn.session_id != self._state.current or not turn.ended:
            return
        words = self.words(turn.end, turn.error)
        if words:
            self._say(words)

    def words(self, end: End, error: str) -> str:
        """The turn's end as heard: the answer's first words when it completed."""
        if end is End.COMPLETED:
            answer = next(
                (
                    ln.text
                    for ln in reversed(self._state.transcript.lines)
                    if ln.kind == "assistant"
                ),
                "",
            )
            cut = answer[:ANSWER_CHARS] + ("…" if len(answer) > ANSWER_CHARS else "")
            return f"The agent answered: {cut}" if cut.strip() else "The turn is done."
        if end is End.FAILED:
            return f"The turn failed: {error}" if error else "The turn failed."
        if end is End.STOPPED:
            return "The turn stopped."
        if end is End.INTERRUPTED:
            return "The turn was interrupted: the host restarted."
        return ""
