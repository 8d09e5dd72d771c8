"""What an ACP agent offers to steer a session (contract section 17), as the window holds
it: plain values, its words already made safe to show."""

from __future__ import annotations

from typing import NamedTuple


class AgentCommand(NamedTuple):
    """One of an agent's own slash commands (section 17)."""

    name: str
    description: str
    hint: str  # what its input is, "" when it takes none or says nothing


class Steering(NamedTuple):
    """What an ACP agent offers to steer one session (section 17), as the window shows it."""

    session_id: str
    mode: str = ""  # the current mode's name, "" without modes
    modes: tuple[tuple[str, str], ...] = ()  # (id, name)
    commands: tuple[AgentCommand, ...] = ()
    usage: str = ""  # "62 % of context · $0.41", "" when not told
    model: str = ""  # the chosen model's name, "" when the agent offers no model option
    models: tuple[tuple[str, str], ...] = ()  # (value, name)
    model_option: str = ""  # the option's id, to set it
    sign_ins: tuple[tuple[str, str], ...] = ()  # its sign-in methods: (id, name)
    images: bool = True  # it takes images in a prompt (True until it says otherwise)
    # its sign-in methods that run in a terminal: (id, the command, the environment added)
    terminals: tuple[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]], ...] = ()

    def words(self) -> str:
        """The composer's line: "Plan · Large · 62 % of context · $0.41"."""
        return " · ".join(part for part in (self.mode, self.model, self.usage) if part)
