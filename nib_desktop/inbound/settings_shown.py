"""The window's own settings as the host holds them (settings.json's "desktop" section,
told by `settings.get`, `settings.set` and `settings.changed`), shown where they differ."""

from __future__ import annotations

from host.protocol import plain_models as m
from nib_desktop.state import events as ev
from nib_desktop.state.motion import still_motion
from nib_desktop.state.store import AppState
from nib_desktop.state.types import DesktopPrefs


def show_settings(state: AppState, view: m.SettingsView) -> None:
    """The desktop section as the host holds it, shown where it differs."""
    prefs = DesktopPrefs(**view.desktop.field_values())
    if prefs != state.desktop:
        state.apply(ev.DesktopPrefsSet(prefs))
        state.apply(ev.ReducedMotionSet(still_motion(prefs.reduced_motion)))
