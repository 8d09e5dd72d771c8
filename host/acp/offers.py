"""What an agent offers, as its `initialize` answer says: who it is, the session methods
it serves (load, list, resume, fork), its sign-in methods and what a prompt may hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from acp.schema import InitializeResponse

from host.acp.config import AgentCommand
from host.acp.controls import MAX_ENTRIES, MAX_TEXT
from host.acp.permissions import MAX_NAME
from host.protocol import models as m
from host.protocol.text import shorten


@dataclass(frozen=True)
class Offers:
    info: m.AgentInfo | None = None
    load_session: bool = False
    list_sessions: bool = False  # section 20: session/list
    resume_session: bool = False
    fork_session: bool = False  # session/fork (ACP, unstable)
    auth_methods: tuple[str, ...] = ()  # their names
    auth: tuple[m.AuthInfo, ...] = ()  # as section 17 tells them
    prompt_kinds: m.PromptKinds = field(default_factory=m.PromptKinds)


def offers_of(answer: InitializeResponse, entry: AgentCommand) -> Offers:
    """The answer's offers, its words bounded: a name of megabytes is not drawn in every
    view that names it."""
    info = answer.agent_info
    caps = answer.agent_capabilities
    sessions = caps.session_capabilities if caps is not None else None
    kinds = caps.prompt_capabilities if caps is not None else None
    return Offers(
        info=None
        if info is None
        else m.AgentInfo(
            name=shorten(info.name, MAX_NAME), version=shorten(info.version, MAX_NAME)
        ),
        load_session=bool(caps is not None and caps.load_session),
        list_sessions=bool(sessions is not None and sessions.list is not None),
        resume_session=bool(sessions is not None and sessions.resume is not None),
        fork_session=bool(sessions is not None and sessions.fork is not None),
        auth_methods=tuple(method.name for method in answer.auth_methods or ()),
        auth=tuple(
            m.AuthInfo(
                id=shorten(str(getattr(a, "id", "")), MAX_TEXT),
                name=shorten(str(getattr(a, "name", "")), MAX_TEXT),
                description=shorten(str(getattr(a, "description", "") or ""), MAX_TEXT),
                terminal=in_terminal(a, entry),
            )
            for a in (answer.auth_methods or ())[:MAX_ENTRIES]
        ),
        prompt_kinds=m.PromptKinds(
            image=bool(kinds and kinds.image),
            audio=bool(kinds and kinds.audio),
            embedded_context=bool(kinds and kinds.embedded_context),
        ),
    )


def in_terminal(method: Any, entry: AgentCommand) -> m.TerminalSignIn | None:
    """A `terminal` sign-in method as the window runs it: the agent's configured command
    and arguments, then the method's, with its environment and the method's (bounded,
    valid text)."""
    if getattr(method, "type", None) != "terminal":
        return None
    extra = [shorten(str(x), MAX_TEXT) for x in (getattr(method, "args", None) or ())][:50]
    given = getattr(method, "env", None) or {}
    added = {
        **entry.env,
        **{shorten(str(k), 200): shorten(str(v), MAX_TEXT) for k, v in given.items()},
    }
    return m.TerminalSignIn(command=(entry.command, *entry.args, *extra), env=added)
