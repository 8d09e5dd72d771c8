"""The shown session's own worktree (contract section 18), from the window: its state read
again (told as any `worktrees.changed`), merged into its base, removed; each outcome, and
each refusal with the files it names, said in words."""

from __future__ import annotations

from host.protocol import errors, plain_methods as rpc, plain_models as m
from nib_desktop.inbound import convert
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, intents as it
from nib_desktop.state.store import AppState


class WorktreeWork:
    HANDLES = (it.ReadWorktree, it.MergeWorktree, it.RemoveWorktree)

    def __init__(self, host: HostLink, state: AppState, run: Runner) -> None:
        self._host, self._state, self._run = host, state, run

    def ask(self, intent: it.ReadWorktree | it.MergeWorktree | it.RemoveWorktree) -> None:
        session_id = self._state.current
        if session_id is None:
            return
        match intent:
            case it.ReadWorktree():
                self._run(self.read(session_id), "read the worktree")
            case it.MergeWorktree(how, message):
                self._run(self.merge(session_id, how, message), "merge the worktree")
            case it.RemoveWorktree(force):
                self._run(self.remove(session_id, force), "remove the worktree")

    async def read(self, session_id: str) -> None:
        status = await self._host.call(rpc.WORKTREES_STATUS, m.SessionRef(session_id=session_id))
        self._state.apply(ev.WorktreeTold(convert.worktree(status)))

    async def merge(self, session_id: str, how: str, message: str) -> None:
        params = m.MergeParams.from_wire(
            {"sessionId": session_id, "how": how, "message": message.strip() or None}
        )
        try:
            done = await self._host.call(rpc.WORKTREES_MERGE, params)
        except errors.InvalidParams as exc:
            self._state.apply(ev.NoticeShown(_with_files(exc)))
            return
        status = done.status
        self._state.apply(ev.WorktreeTold(convert.worktree(status)))
        words = f"Merged ⎇ {status.branch} into {status.base} ({how}): {done.commit[:10]}"
        self._state.apply(ev.NoticeShown(words, "done"))

    async def remove(self, session_id: str, force: bool) -> None:
        params = m.RemoveWorktreeParams(session_id=session_id, force=force)
        try:
            done = await self._host.call(rpc.WORKTREES_REMOVE, params)
        except errors.InvalidParams as exc:
            self._state.apply(ev.NoticeShown(_with_files(exc)))
            return
        self._state.apply(ev.NoticeShown(f"Removed the worktree {done.removed}", "done"))


def _with_files(exc: errors.RpcError) -> str:
    """A refusal in the host's words, and the files it names."""
    data = exc.data if isinstance(exc.data, dict) else {}
    named = [str(p) for key in ("conflicts", "files") for p in data.get(key) or ()]
    shown = ", ".join(named[:8]) + (f" and {len(named) - 8} more" if len(named) > 8 else "")
    return f"{exc.message}: {shown}" if named else exc.message
