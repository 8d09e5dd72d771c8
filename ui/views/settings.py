"""The settings view: what the app shows outside its window, each on or off; the window's
appearance (system, light or dark) and still motion."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.types import APPEARANCES, DesktopPrefs
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1
NAMES = frozenset(DesktopPrefs._fields)


@QmlElement
@qml_uncreatable("made by the views")
class SettingsView(QObject):
    changed = Signal()

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if isinstance(event, ev.DesktopPrefsSet) and store.PREFS in change:
            self.changed.emit()

    @Slot(str, bool)
    def set(self, name: str, on: bool) -> None:
        """Turn `name` (a field of DesktopPrefs: titleProgress, badge, launcherProgress,
        notifications, attention, reducedMotion in QML's spelling) on or off; kept in
        settings.json."""
        attr = {
            "titleProgress": "title_progress",
            "launcherProgress": "launcher_progress",
            "reducedMotion": "reduced_motion",
        }.get(name, name)
        if attr in NAMES and attr != "appearance":
            self._ask(it.SetDesktopPref(attr, on))

    @Slot(str)
    def setAppearance(self, appearance: str) -> None:
        """The window's palette: "system", "light" or "dark"; kept in settings.json."""
        if appearance in APPEARANCES:
            self._ask(it.SetDesktopPref("appearance", appearance))

    def _appearance(self) -> str:
        return self._state.desktop.appearance

    def _reduced(self) -> bool:
        return self._state.desktop.reduced_motion

    def _title(self) -> bool:
        return self._state.desktop.title_progress

    def _badge(self) -> bool:
        return self._state.desktop.badge

    def _launcher(self) -> bool:
        return self._state.desktop.launcher_progress

    def _notifications(self) -> bool:
        return self._state.desktop.notifications

    def _attention(self) -> bool:
        return self._state.desktop.attention

    titleProgress = Property(bool, _title, notify=changed)
    badge = Property(bool, _badge, notify=changed)
    launcherProgress = Property(bool, _launcher, notify=changed)
    notifications = Property(bool, _notifications, notify=changed)
    attention = Property(bool, _attention, notify=changed)
    appearance = Property(str, _appearance, notify=changed)
    reducedMotion = Property(bool, _reduced, notify=changed)
