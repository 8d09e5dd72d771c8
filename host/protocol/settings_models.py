"""The project's settings.json as the window reads and changes it (written by the host
alone). Reached as `models.X`, like every wire type."""

from typing import Annotated, Literal

from pydantic import StringConstraints, model_validator

from host.protocol.wire import Switch, Wire

# --- the project's: settings.json, written by the host alone ----------------------------

Appearance = Literal["system", "light", "dark"]


class DesktopSettings(Wire):
    """settings.json's "desktop" section as the window uses it (a key missing or of the
    wrong type: its default)."""

    title_progress: bool = True
    badge: bool = True
    launcher_progress: bool = True
    notifications: bool = True
    attention: bool = True
    appearance: Appearance = "system"
    reduced_motion: bool = False


class DesktopChange(Wire):
    """The keys of the "desktop" section to set; the others stay as they are."""

    title_progress: Switch | None = None
    badge: Switch | None = None
    launcher_progress: Switch | None = None
    notifications: Switch | None = None
    attention: Switch | None = None
    appearance: Appearance | None = None
    reduced_motion: Switch | None = None


class ServerSwitch(Wire):
    """An MCP server of settings.json disabled, or enabled again."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    disabled: Switch


class SettingsSetParams(Wire):
    """One change of settings.json: the desktop section's keys, or one server's switch."""

    desktop: DesktopChange | None = None
    server: ServerSwitch | None = None

    @model_validator(mode="after")
    def _one_change(self) -> "SettingsSetParams":
        if (self.desktop is None) == (self.server is None):
            raise ValueError("give exactly one of desktop and server")
        return self


class SettingsView(Wire):
    """What the window reads of settings.json, as the host holds it now."""

    desktop: DesktopSettings
