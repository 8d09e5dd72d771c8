"""The composer's own commands as typed: which there are, what "/" completes to, and
whether a message is one. Plain values, for the composer's view and the Main role.

In a session on an external agent, "/" offers the agent's own commands too (contract 17:
sent to it as the prompt's text, "/review the diff"), and not /compact, which only Nib's
own agent does."""

from __future__ import annotations

COMPACT_COMMAND = "/compact"  # sent alone: summarise the session now
CONTINUE_COMMAND = "/continue"  # carry the unfinished checklist on
HELP_COMMAND = "/help"
# the composer's commands, with what each does (offered as "/" is typed, and said when
# an unknown one is)
COMMANDS = {
    COMPACT_COMMAND: "summarise the conversation so far",
    CONTINUE_COMMAND: "carry on from the first unfinished step",
    HELP_COMMAND: "list these commands",
}


def offered(agent_commands: tuple[tuple[str, str], ...] | None) -> list[tuple[str, str]]:
    """The commands "/" offers: Nib's own, or in an agent's session (`agent_commands`, its
    (name, description) pairs) /continue, /help and the agent's."""
    if agent_commands is None:
        return list(COMMANDS.items())
    own = [(name, what) for name, what in COMMANDS.items() if name != COMPACT_COMMAND]
    theirs = [
        (f"/{name}", what or "the agent's command")
        for name, what in agent_commands
        if f"/{name}" not in dict(own)
    ]  # its /compact is its own
    return own + theirs


def command_completions(
    text: str, agent_commands: tuple[tuple[str, str], ...] | None = None
) -> list[tuple[str, str]]:
    """The commands that complete `text` as typed ("/", "/co"), with what each does;
    none once a space or a second line follows."""
    if not text.startswith("/") or any(c.isspace() for c in text):
        return []
    typed = text.lower()
    return [(name, what) for name, what in offered(agent_commands) if name.startswith(typed)]


def for_the_agent(text: str, agent_commands: tuple[tuple[str, str], ...] | None) -> bool:
    """Whether `text` is one of the agent's own commands (sent to it as the prompt)."""
    word = text.strip().split(maxsplit=1)[0] if text.strip() else ""
    return agent_commands is not None and any(word == f"/{n}" for n, _ in agent_commands)


def slash_command(text: str) -> str | None:
    """The command `text` is (one word after "/", nothing else), lower-cased; None for
    a message, even one that starts with "/" ("/usr/bin is missing")."""
    word = text.strip()
    if (
        len(word) < 2
        or word[0] != "/"
        or not (word[1].isalpha() and word[1:].replace("-", "").replace("_", "").isalnum())
    ):
        return None
    return word.lower()


# what /continue and the Continue key send the agent
CONTINUE_TEXT = "Continue from the first unfinished step of the checklist."
