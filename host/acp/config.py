"""The `agents` of `DIR/settings.json` (contract section 15), in the form editors use for
ACP agent servers: `{"name": {"command", "args", "env"}}`, and, as this host adds,
`"timeout"`: the seconds the agent has to answer `initialize` (default 30). Other keys
are ignored; a wrong value is that agent's error, shown where agents are listed."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from host.config import SettingsError, read_settings_file
from host.protocol import errors, models as m
from host.protocol.models import NIB_AGENT

DEFAULT_START_TIMEOUT_S = 30.0


class AgentCommand(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    command: str = Field(min_length=1)
    args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict)
    timeout: float = Field(DEFAULT_START_TIMEOUT_S, gt=0, le=600)

    def __hash__(self) -> int:
        return hash((self.command, self.args, tuple(sorted(self.env.items())), self.timeout))


INSTALL_HINTS = {
    "claude-agent-acp": "npm install -g @agentclientprotocol/claude-agent-acp",
    "codex-acp": "npm install -g @zed-industries/codex-acp",
    "gemini": "npm install -g @google/gemini-cli",
    "goose": "see https://block.github.io/goose/docs/getting-started/installation",
}


def not_installed(entry: AgentCommand) -> str:
    """An agent whose command cannot be found, in words: how to install the known ones."""
    words = " ".join((entry.command, *entry.args))
    hint = next((h for key, h in INSTALL_HINTS.items() if key in words), None)
    how = f"install it ({hint})" if hint else "install it"
    return (
        f'{entry.command!r} was not found: {how}, or set the agent\'s "command" in '
        "settings.json to where it is"
    )


def findable(entry: AgentCommand) -> bool:
    """Whether the agent's command can be started: a path to an executable file, or a
    name on the PATH it will run with (its own "env" may set one)."""
    if "/" in entry.command:
        path = Path(entry.command).expanduser()
        return path.is_file() and os.access(path, os.X_OK)
    path_list = entry.env.get("PATH", os.environ.get("PATH"))
    return shutil.which(entry.command, path=path_list) is not None


@dataclass(frozen=True)
class AgentConfig:
    """One configured agent: its command, and `problem` why it cannot be used (no command
    when its settings are not usable; a command that cannot be found)."""

    name: str
    entry: AgentCommand | None
    problem: str | None = None

    @property
    def command(self) -> str:
        return self.entry.command if self.entry is not None else ""


def load_agents(data_dir: Path | None) -> list[AgentConfig]:
    """The configured agents in the file's order. A settings file that cannot be read
    configures none (its problem is the tools' to show)."""
    if data_dir is None:
        return []
    try:
        loaded = read_settings_file(data_dir)
    except SettingsError:
        return []
    agents = loaded.get("agents") if loaded is not None else None
    if not isinstance(agents, dict):
        return []
    return [_config(str(name), raw) for name, raw in agents.items()]


def idle_listing(configs: list[AgentConfig]) -> m.AgentsList:
    """`agents.list` before any agent was used (no SDK loaded): each configured agent
    idle, or failed with why its settings cannot be used."""
    return m.AgentsList(
        agents=tuple(
            m.AgentEntry(
                name=c.name,
                command=c.command,
                state="idle" if c.entry and not c.problem else "failed",
                error=c.problem,
                agent_info=None,
            )
            for c in configs
        )
    )


def check_agent(configs: list[AgentConfig], name: str) -> None:
    """-32602 for an agent a session cannot be created on."""
    found = next((c for c in configs if c.name == name), None)
    if found is None:
        known = ", ".join(sorted(c.name for c in configs)) or "none is configured"
        raise errors.InvalidParams(f"unknown agent {name!r} (configured in settings.json: {known})")
    if found.entry is None or found.problem:
        raise errors.InvalidParams(f"agent {name!r} cannot be used: {found.problem}")


def _config(name: str, raw: Any) -> AgentConfig:
    if name.strip() == NIB_AGENT:
        return AgentConfig(name, None, f'the name "{NIB_AGENT}" is the host\'s own agent')
    if not name.strip() or len(name) > 100:
        return AgentConfig(name, None, "an agent's name must have 1 to 100 characters")
    if not isinstance(raw, dict):
        return AgentConfig(name, None, "its settings must be an object")
    try:
        entry = AgentCommand.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "settings"
        return AgentConfig(name, None, f"{where}: {first['msg']}")
    return AgentConfig(name, entry, None if findable(entry) else not_installed(entry))
