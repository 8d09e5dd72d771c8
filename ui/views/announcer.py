"""What a screen reader hears when a turn of the shown session ends (issue 47, point
29): the agent's answer, or how the turn ended, once, politely (never each streamed
piece). The announcement goes to the focused window as Qt's accessibility event."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from nib_desktop.state.facts import End
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.store import AppState, Change

ANSWER_CHARS = 400  # of the answer said


def _to_focused_window(text: str) -> None:
    from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QGuiApplication

    window = QGuiApplication.focusWindow()
    if window is None:
        return
    event = QAccessibleAnnouncementEvent(window, text)
    event.setPoliteness(QAccessible.AnnouncementPoliteness.Polite)
    QAccessible.updateAccessibility(event)


class Announcer(QObject):
    def __init__(
        self,
        state: AppState,
        parent: QObject | None = None,
        say: Callable[[str], None] = _to_focused_window,
    ) -> None:
        super().__init__(parent)
        self._state, self._say = state, say
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
