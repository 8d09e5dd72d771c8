"""The composer's input: what it may send, and each session's unsent draft."""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import intents as it
from nib_desktop.state.intents import Ask
from nib_desktop.state.store import AppState
from ui.views.rows import qml_uncreatable

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class ComposerView(QObject):
    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask

    @Slot(str, result=bool)
    def send(self, text: str) -> bool:
        """Send `text` in the session shown (a new one if none is); False, and the text
        stays in the input, when it cannot be sent now."""
        shown = self._state.shown
        command = it.slash_command(text)
        if command is not None:  # answered in words by the Main role, whatever the case
            self._ask(it.Send(command))
            return command == it.COMPACT_COMMAND and shown is not None and not shown.running
        busy = shown is not None and (shown.running or not shown.reachable)
        if not text.strip() or busy or self._state.connection != "ready":
            return False
        self._ask(it.Send(text))
        return True

    @Slot()
    def stop(self) -> None:
        self._ask(it.Stop())

    @Slot(str, str)
    def saveDraft(self, session_id: str, text: str) -> None:
        """Keep the unsent `text` of a session (the input shows another one now)."""
        self._ask(it.SaveDraft(session_id, text))

    @Slot(str, result=str)
    def draft(self, session_id: str) -> str:
        return self._state.drafts.get(session_id, "")
