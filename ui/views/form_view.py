"""What an agent asks the user to fill in (ACP's elicitation, the project's
`agents.asked`), as its dialog reads it: the shown session's oldest ask, its words, its
fields (or its URL and the URL's host), and the three answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.asking import Ask
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask as Asker

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class FormView(QObject):
    changed = Signal()

    def __init__(self, state: AppState, ask: Asker, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        self._shown: Ask | None = None
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        if store.ASKS in change or store.CURRENT in change:
            current = self._state.current
            shown = next((a for a in self._state.asks if a.session_id == current), None)
            if shown != self._shown:
                self._shown = shown
                self.changed.emit()

    def _get_waiting(self) -> bool:
        return self._shown is not None

    def _get_message(self) -> str:
        return self._shown.message if self._shown else ""

    def _get_url(self) -> str:
        return self._shown.url if self._shown else ""

    def _get_urlHost(self) -> str:
        return urlsplit(self._get_url()).hostname or ""

    @Slot(result="QVariantList")
    def fieldList(self) -> list[dict[str, Any]]:
        """The form's fields as its dialog draws them (read as it opens)."""
        if self._shown is None:
            return []
        return [
            {
                "name": f.name,
                "title": f.title + (" *" if f.required else ""),
                "description": f.description,
                "kind": f.kind,
                "value": f.default,
                "choices": list(f.choices),
            }
            for f in self._shown.fields
        ]

    waiting = Property(bool, _get_waiting, notify=changed)
    message = Property(str, _get_message, notify=changed)
    url = Property(str, _get_url, notify=changed)
    urlHost = Property(str, _get_urlHost, notify=changed)

    @Slot("QVariantMap")
    def accept(self, values: dict[str, Any]) -> None:
        """The form as filled in (by field name; a yes or no as true or false)."""
        if self._shown is not None:
            typed = tuple((k, v if isinstance(v, bool) else str(v)) for k, v in values.items())
            self._ask(it.AnswerAsk(self._shown.ask_id, "accept", typed))

    @Slot()
    def decline(self) -> None:
        if self._shown is not None:
            self._ask(it.AnswerAsk(self._shown.ask_id, "decline"))

    @Slot()
    def cancel(self) -> None:
        if self._shown is not None:
            self._ask(it.AnswerAsk(self._shown.ask_id, "cancel"))

    @Slot()
    def openUrl(self) -> None:
        """The URL, in the browser, only because the user asked (https or http only)."""
        from PySide6.QtCore import QUrl  # (named on first use: 0.7 ms)
        from PySide6.QtGui import QDesktopServices

        url = self._get_url()
        if urlsplit(url).scheme in ("https", "http"):
            QDesktopServices.openUrl(QUrl(url))
