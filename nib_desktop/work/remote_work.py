"""Sessions on other hosts (contract section 14): attaching one, listing a host's
sessions for the dialog, and trying an unreachable host's link again."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from host.protocol import errors, plain_methods as rpc, plain_models as m
from host.protocol.remote import parse_endpoint
from host.protocol.text import shown_text
from nib_desktop.link.connection import HostLink
from nib_desktop.link.rpc_client import describe
from nib_desktop.state import events as ev, intents as it
from nib_desktop.state.store import AppState
from nib_desktop.state.types import RemoteChoice

Open = Callable[[m.Session], Coroutine[Any, Any, m.Session]]


def endpoint_problem(endpoint: str) -> str:
    """What is wrong with a remote endpoint as typed, or "" if nothing."""
    try:
        parse_endpoint(endpoint)
    except ValueError as exc:
        return str(exc)
    return ""


class RemoteWork:
    def __init__(self, host: HostLink, state: AppState, open_session: Open) -> None:
        self._host = host
        self._state = state
        self._open = open_session

    async def attach_remote(self, asked: it.AttachRemote) -> m.Session:
        """Attach a session of the host at `endpoint`, or with no id create one there, on
        its agent, in its folder and worktree (section 19: all the remote machine's); the
        host names it after the remote session and its host."""
        remote = m.RemoteTarget(
            endpoint=asked.endpoint, remote_session_id=asked.remote_session_id or None
        )
        params = m.CreateSessionParams(remote=remote)
        if not asked.remote_session_id:
            params = m.CreateSessionParams(
                remote=remote,
                agent=asked.agent or m.NIB_AGENT,
                cwd=asked.folder or None,
                worktree=m.WorktreeRequest() if asked.worktree else None,
            )
        return await self._open(await self._host.call(rpc.SESSIONS_CREATE, params))

    async def list_remote_sessions(self, endpoint: str) -> None:
        if not endpoint:
            self._state.apply(ev.RemoteChoicesListed((), ""))
            return
        self._state.apply(ev.RemoteChoicesListed((), "Asking the remote host…"))
        try:
            listing = await self._host.call(
                rpc.REMOTE_SESSIONS, m.RemoteSessionsParams(endpoint=endpoint)
            )
        except Exception as exc:  # said in the dialog, beside the field it is about
            self._state.apply(ev.RemoteChoicesListed((), f"Could not list them: {describe(exc)}"))
            return
        choices = tuple(RemoteChoice(s.id, shown_text(s.title)) for s in listing.sessions)
        note = "" if choices else "That host has no sessions yet: leave the id blank for a new one."
        agents: tuple[str, ...] = ()
        try:
            listed = await self._host.call(
                rpc.AGENTS_LIST,
                m.AgentsListParams(remote=m.RemoteSessionsParams(endpoint=endpoint)),
            )
            agents = tuple(shown_text(a.name) for a in listed.agents if a.name != m.NIB_AGENT)
        except errors.RemoteSession:
            note = f"{note} That host runs only Nib's own agent (an older Nib host).".strip()
        except errors.RpcError as exc:
            note = f"{note} Its agents could not be listed: {describe(exc)}".strip()
        self._state.apply(ev.RemoteChoicesListed(choices, note, agents))

    async def check_folder(self, endpoint: str, folder: str) -> None:
        """A folder typed for a new session on the host at `endpoint`, checked there."""
        params = m.FolderCheckParams(cwd=folder, remote=m.RemoteSessionsParams(endpoint=endpoint))
        try:
            told = await self._host.call(rpc.FOLDERS_CHECK, params)
        except Exception as exc:  # said beside the field; the session's create checks again
            words = f"It could not be checked there: {describe(exc)}"
            self._state.apply(ev.RemoteFolderChecked(endpoint, folder, words, False, False))
            return
        checked = ev.RemoteFolderChecked(endpoint, folder, told.problem, True, told.repository)
        self._state.apply(checked)

    async def retry_remote(self) -> None:
        """Ctrl+R on an unreachable remote session: any call forwarded to its host makes
        the local host try the link now; the session's row says how that went."""
        shown = self._state.shown
        if shown is None or not shown.remote or shown.reachable:
            return
        page = m.MessageListParams(session_id=shown.session_id, limit=1)
        with contextlib.suppress(errors.RpcError):  # still unreachable: the row says why
            await self._host.call(rpc.MESSAGES_LIST, page)
