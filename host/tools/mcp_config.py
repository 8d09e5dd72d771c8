"""The `mcpServers` of `DIR/settings.json` (contract section 13), in the format other MCP
clients already read: `{"name": {"command", "args", "env"}}` for a server the host starts
over stdio, `{"name": {"url", "headers"}}` for one it reaches over streamable HTTP; each
optionally `"approval": "ask" | "allow"`, and, as other clients have them, `"disabled"`
and `"timeout"` (seconds a call may take). Keys other clients write that this host does
not use (`type`, `transport`, ...) are ignored; a wrong value is the server's error, shown
where the server is listed, and never stops the host.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from host.config import SettingsError, read_settings_file
from host.protocol.settings_file import SETTINGS_FILENAME

DEFAULT_CALL_TIMEOUT_S = 60.0
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


class _Entry(BaseModel):
    # built when a server's entry is first read: a host without MCP servers never does
    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)

    approval: Literal["ask", "allow"] = "ask"
    disabled: bool = False
    timeout: float = Field(DEFAULT_CALL_TIMEOUT_S, gt=0, le=3600)


class StdioEntry(_Entry):
    command: str = Field(min_length=1)
    args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None


class HttpEntry(_Entry):
    url: str
    headers: dict[str, str] = Field(default_factory=dict)

    @field_validator("url")
    @classmethod
    def _http(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("url must start with http:// or https://")
        return value


class ServerEntry(NamedTuple):
    """One configured server: `key` is its name as offered to models (`mcp__<key>__...`),
    `entry` its settings, or `problem` why they cannot be used."""

    name: str
    key: str
    entry: StdioEntry | HttpEntry | None
    problem: str | None = None


def tool_key(text: str, limit: int = 64) -> str:
    """A name as tool names must be (OpenAI: letters, digits, `_` and `-`, at most 64)."""
    return _UNSAFE.sub("_", text)[:limit] or "_"


def load_servers(data_dir: Path | None) -> list[ServerEntry]:
    """The configured servers, in the file's order; unusable entries carry their problem."""
    if data_dir is None:
        return []
    try:
        loaded = read_settings_file(data_dir)
    except SettingsError as exc:
        return [ServerEntry(SETTINGS_FILENAME, "settings", None, str(exc))]
    servers = loaded.get("mcpServers") if loaded is not None else None
    if servers is None:
        return []
    if not isinstance(servers, dict):
        # a problem of the file, told as the file's entry (the Tools view's settings row)
        path = data_dir / SETTINGS_FILENAME
        return [
            ServerEntry(
                SETTINGS_FILENAME, "settings", None, f'{path}: "mcpServers" must be an object'
            )
        ]
    entries: list[ServerEntry] = []
    keys: set[str] = set()
    for name, raw in servers.items():
        key = tool_key(str(name), 32)
        if key in keys:
            entries.append(ServerEntry(name, key, None, f"another server is also named {key!r}"))
            continue
        keys.add(key)
        entries.append(_entry(str(name), key, raw))
    return entries


def _entry(name: str, key: str, raw: Any) -> ServerEntry:
    if not isinstance(raw, dict):
        return ServerEntry(name, key, None, "its settings must be an object")
    kind: type[StdioEntry] | type[HttpEntry]
    if "command" in raw:
        kind = StdioEntry
    elif "url" in raw:
        kind = HttpEntry
    else:
        return ServerEntry(name, key, None, 'it needs a "command" (stdio) or a "url" (HTTP)')
    try:
        return ServerEntry(name, key, kind.model_validate(raw))
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "settings"
        return ServerEntry(name, key, None, f"{where}: {first['msg']}")
