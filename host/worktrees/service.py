"""A worktree per session (contract section 18, first half): made when the session is,
read against its base, merged back into it, removed; told as `worktrees.changed` after
each turn's end and checklist revision of its sessions, each merge and remove (at most
once a second per worktree, the last state always told).

Refs move only by git's compare-and-swap (`update-ref NEW OLD`): a `git commit` the user
makes meanwhile is never overwritten, the merge is refused instead. Calls on one worktree
run one at a time."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from pathlib import Path

from host.clock import new_id, now_iso
from host.events import Publisher
from host.protocol import errors, methods as rpc, models as m
from host.sessions.service import SessionService
from host.store.db import Database, immediate
from host.worktrees import git, making, reading, setup
from host.worktrees.bases import Bases
from host.worktrees.git import GitFailed

log = logging.getLogger(__name__)
SCRATCH_FOLDER = "scratch"  # the data folder's: readings' scratches (`git.Scratch`)
TELL_EVERY_S = 1.0
LIVE_KEPT = 4096  # sessions whose having a worktree is held (`_has_worktree`)
# A worktree's status is read in a pause of its session: once its checklist and turns have
# been still QUIET_S, or LATEST_S after the first change not yet told, whichever is first.
# Reading it costs git a pass over the worktree; during a burst of revisions that pass
# would share the processor with the revisions' own way to the window.
QUIET_S = 0.25
LATEST_S = 2.0


class Worktrees:
    def __init__(
        self,
        data_dir: Path,
        db: Database,
        publisher: Publisher,
        sessions: SessionService,
        checklist: Callable[[str], m.TodoSnapshot],
    ) -> None:
        self._data_dir, self._db, self._publisher = data_dir, db, publisher
        self._sessions, self._checklist = sessions, checklist
        # each worktree's index as git trusts it, for its readings (the attempts' too)
        self.bases = Bases(data_dir / SCRATCH_FOLDER)
        self._told_at: dict[str, float] = {}  # session id: when it was last told
        self._telling: dict[str, asyncio.Task[None]] = {}
        self._untold: dict[str, tuple[float, float]] = {}  # session id: (first, last) change
        self._setting_up: dict[str, asyncio.Task[None]] = {}  # by worktree folder
        # session id: whether it has a worktree not removed, as last read (a session's
        # worktree is set when it is made; a worktree's state changes only here, and each
        # change forgets every answer)
        self._live: dict[str, bool] = {}
        publisher.subscribe(self._heard)

    # --- making ---------------------------------------------------------------------------

    async def create(
        self,
        params: m.CreateSessionParams,
        based: tuple[str, str] | None = None,
        attempt_id: str | None = None,
    ) -> m.Session:
        """`sessions.create` with `worktree`: the worktree first, then the session in it
        (its `cwd` the same subfolder of the worktree), written with its row at once. An
        attempt's runs give the base already found (name, commit) and their attempt."""
        asked = params.worktree
        assert asked is not None and params.cwd is not None
        if params.remote is not None:
            raise errors.RemoteSession("a worktree on a remote host is made by that host")
        repo = await making.repo_of(Path(params.cwd))
        base, commit = based or await making.base_of(repo, asked.base)
        session_id = new_id()
        branch = asked.branch or making.default_branch(session_id)
        await making.check_branch(repo, branch)
        path = making.worktree_path(self._data_dir, session_id)
        await making.make(repo, path, branch, commit, asked.carry)
        tree = making.new_worktree(repo, path, branch, base, commit)
        cwd = path / repo.below if repo.below else path
        tree_id = new_id()
        try:
            with immediate(self._db):
                self._db.execute(
                    "INSERT INTO worktrees (id, repo, path, branch, base, base_commit, state,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        tree_id,
                        tree.repo,
                        tree.path,
                        tree.branch,
                        tree.base,
                        tree.base_commit,
                        tree.state,
                        now_iso(),
                    ),
                )
            made = params.model_copy(update={"cwd": str(cwd), "worktree": None})
            session = self._sessions.create(
                made, session_id=session_id, worktree_id=tree_id, attempt_id=attempt_id
            )
        except BaseException:
            self._live.clear()
            with contextlib.suppress(Exception), immediate(self._db):
                self._db.execute("DELETE FROM worktrees WHERE id = ?", (tree_id,))
            await git.run(repo.top, "worktree", "remove", "--force", str(path), check=False)
            await git.run(repo.top, "branch", "-D", branch, check=False)
            raise
        command = setup.command_for(self._data_dir, repo.main)
        if command is not None:
            task = asyncio.ensure_future(self._set_up(session.id, command, path))
            self._setting_up[str(path)] = task
            task.add_done_callback(lambda _t: self._setting_up.pop(str(path), None))
        return session

    async def _set_up(self, session_id: str, command: list[str], path: Path) -> None:
        """The repository's set-up in the new worktree, told in the session's transcript."""
        said = " ".join(command)
        self._sessions.transcript.append(
            session_id, None, "tool", f"Setting up the worktree: {said}"
        )
        code, output = await setup.run(command, path)
        end = output.strip()
        if code == 0:
            words = f"The worktree is set up ({said})" + (f":\n{end}" if end else "")
        elif code is None:
            words = f"The set-up {said} did not run: {end}"
        else:
            words = f"The set-up {said} failed (exit status {code})" + (f":\n{end}" if end else "")
        self._sessions.transcript.append(session_id, None, "tool", words, is_error=code != 0)

    async def before_prompt(self, turn_id: str) -> None:
        """A turn in a worktree whose set-up still runs waits for it."""
        row = self._db.execute("SELECT session_id FROM turns WHERE id = ?", (turn_id,)).fetchone()
        if row is None:
            return
        tree = self._sessions.get(str(row[0])).worktree
        task = self._setting_up.get(tree.path) if tree is not None else None
        if task is not None:
            await asyncio.wait({task})

    # --- reading --------------------------------------------------------------------------

    def _tree(self, session_id: str) -> m.Worktree:
        session = self._sessions.get(session_id)
        if session.worktree is None:
            raise errors.InvalidParams("this session has no worktree")
        if session.worktree.state == "removed":
            raise errors.InvalidParams(
                f"this session's worktree {session.worktree.path} was removed"
            )
        return session.worktree

    def _lock(self, tree: m.Worktree) -> contextlib.AbstractAsyncContextManager[None]:
        return self.bases.reading(Path(tree.path))

    async def status(self, params: m.SessionRef) -> m.WorktreeStatus:
        tree = self._tree(params.session_id)
        async with self._lock(tree):
            told = await self._status(params.session_id, tree)
        return told

    async def _status(
        self, session_id: str, tree: m.Worktree, diffs: bool = True
    ) -> m.WorktreeStatus:
        try:
            return await reading.status(session_id, tree, diffs, self.bases)
        except GitFailed as exc:
            raise errors.InternalError(f"git could not read the worktree: {exc.words}") from None

    # --- merging --------------------------------------------------------------------------

    def _not_running(self, session_id: str, tree: m.Worktree, checkout: Path | None) -> None:
        """-32020 while a turn runs in the session, in another on its worktree, or (with
        `checkout`) in any session whose folder is inside the base's checked-out tree."""
        for other in self._sessions.list():
            if other.running_turn_id is None or other.origin != "local":
                continue
            here = (
                other.cwd is not None
                and checkout is not None
                and (Path(other.cwd).resolve().is_relative_to(checkout.resolve()))
            )
            same = other.worktree is not None and other.worktree.path == tree.path
            if other.id == session_id or same or here:
                raise errors.TurnRunning(
                    f"a turn is running in {other.title!r}: stop it or wait for its end first"
                )

    async def _checkout_of(self, tree: m.Worktree) -> Path | None:
        """The work tree where the base branch is checked out, if any."""
        listed = await git.run(Path(tree.path), "worktree", "list", "--porcelain", "-z")
        folder: Path | None = None
        for field in listed.out.decode("utf-8", "surrogateescape").split("\0"):
            if field.startswith("worktree "):
                folder = Path(field[len("worktree ") :])
            elif field == f"branch refs/heads/{tree.base}":
                return folder
        return None

    async def merge(self, params: m.MergeParams) -> m.Merged:
        tree = self._tree(params.session_id)
        path = Path(tree.path)
        if not await git.ok(path, "show-ref", "--verify", "--quiet", f"refs/heads/{tree.base}"):
            raise errors.InvalidParams(
                f"the base {tree.base!r} is not a branch: a merge needs one to move"
            )
        async with self._lock(tree):
            checkout = await self._checkout_of(tree)
            self._not_running(params.session_id, tree, checkout)
            for who in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"):
                if not await git.ok(path, "var", who):
                    raise errors.InvalidParams(
                        "git has no identity to commit with: set user.name and user.email "
                        "(git config --global user.name …)"
                    )
            from host.worktrees.merging import merge

            message = params.message or self._message(params.session_id)
            try:
                commit = await merge(tree, params.how, message, checkout, self.bases)
            except GitFailed as exc:
                raise errors.InternalError(f"git could not merge: {exc.words}") from None
            self._set_state(tree, "merged")
            told = await self._status(params.session_id, self._tree(params.session_id))
        self._tell_now(params.session_id, told)
        return m.Merged(commit=commit, status=told)

    def _message(self, session_id: str) -> str:
        """A commit message of the session's title and its checklist as it was done."""
        session = self._sessions.get(session_id)
        marks = {"completed": "x", "cancelled": "-", "in_progress": "~", "pending": " "}
        items = self._checklist(session_id).items
        steps = "\n".join(f"- [{marks[i.status]}] {i.content}" for i in items)
        return f"{session.title}\n\n{steps}\n" if steps else f"{session.title}\n"

    # --- removing -------------------------------------------------------------------------

    async def remove(self, params: m.RemoveWorktreeParams) -> m.RemovedWorktree:
        tree = self._tree(params.session_id)
        path = Path(tree.path)
        async with self._lock(tree):
            self._not_running(params.session_id, tree, None)
            repo = Path(tree.repo)
            if path.is_dir() and not params.force:
                unmerged = await self._unmerged(tree)
                if unmerged:
                    raise errors.InvalidParams(
                        f"{len(unmerged)} file(s) of the worktree are not merged into "
                        f"{tree.base!r}: merge first, or remove with force",
                        {"files": unmerged},
                    )
            if path.is_dir():
                await git.run(repo, "worktree", "remove", "--force", str(path))
            else:
                await git.run(repo, "worktree", "prune", check=False)
            if not params.keep_branch:
                await git.run(repo, "branch", "-D", tree.branch, check=False)
            self._set_state(tree, "removed")
            self.bases.forget(path)
        self._forget_telling(params.session_id)
        return m.RemovedWorktree(removed=str(path))

    async def _unmerged(self, tree: m.Worktree) -> list[str]:
        """Paths where the worktree's file (uncommitted changes included) differs from the
        base's and the branch changed it since `baseCommit`."""
        path = Path(tree.path)
        with await reading.scratch_of(path, self.bases) as work:
            now = await reading.read(tree, work)
            changed = await git.run(
                path,
                "diff-tree",
                "-r",
                "--no-renames",
                "--name-only",
                "-z",
                tree.base_commit,
                now.tree,
                env=work.env,
            )
            names = git.names(changed.out)
            if not names:
                return []
            mine = await _blobs(path, now.tree, names, work.env)
            theirs = await _blobs(path, now.base_head, names, work.env)
        return sorted(n for n in names if mine.get(n) != theirs.get(n))

    def _set_state(self, tree: m.Worktree, state: m.WorktreeState) -> None:
        self._live.clear()
        with immediate(self._db):
            self._db.execute("UPDATE worktrees SET state = ? WHERE path = ?", (state, tree.path))
            sessions = [
                row[0]
                for row in self._db.execute(
                    "SELECT s.id FROM sessions s JOIN worktrees w ON w.id = s.worktree_id"
                    " WHERE w.path = ?",
                    (tree.path,),
                ).fetchall()
            ]
        for session_id in sessions:
            self._publisher.publish(rpc.SESSIONS_CHANGED, self._sessions.get(session_id))

    # --- telling --------------------------------------------------------------------------

    def _heard(self, name: str, params: m.Wire) -> None:
        if name == rpc.TURNS_CHANGED.name and isinstance(params, m.Turn):
            if params.state != "running":
                self._soon(params.session_id)
        elif name == rpc.TODOS_CHANGED.name and isinstance(params, m.TodoSnapshot):
            self._soon(params.session_id)

    def _soon(self, session_id: str) -> None:
        """`worktrees.changed` for the session's worktree, at most once a second, read in
        a pause of the session (QUIET_S, LATEST_S); the last state always told."""
        now = time.monotonic()
        first, _last = self._untold.get(session_id, (now, now))
        self._untold[session_id] = (first, now)
        if session_id in self._telling:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._untold.pop(session_id, None)
            return
        if not self._has_worktree(session_id):
            self._untold.pop(session_id, None)
            return
        self._telling[session_id] = loop.create_task(self._tell_after(session_id))

    def _has_worktree(self, session_id: str) -> bool:
        """Whether the session has a worktree not removed: heard at every checklist write
        and turn end of every session, so read once per session (one indexed read, no
        session built) until a worktree's state changes."""
        known = self._live.get(session_id)
        if known is None:
            row = self._db.execute(
                "SELECT w.state FROM sessions s JOIN worktrees w ON w.id = s.worktree_id"
                " WHERE s.id = ?",
                (session_id,),
            ).fetchone()
            known = row is not None and row[0] != "removed"
            if len(self._live) >= LIVE_KEPT:
                self._live.clear()
            self._live[session_id] = known
        return known

    def _due(self, session_id: str) -> float:
        first, last = self._untold[session_id]
        allowed = self._told_at.get(session_id, -TELL_EVERY_S) + TELL_EVERY_S
        return max(allowed, min(last + QUIET_S, first + LATEST_S))

    async def _tell_after(self, session_id: str) -> None:
        while (wait := self._due(session_id) - time.monotonic()) > 0:
            await asyncio.sleep(wait)  # (a change meanwhile moves the moment on)
        # from here a change asks for a telling of its own
        del self._telling[session_id]
        del self._untold[session_id]
        git.NICENESS.set(git.IN_BACKGROUND)  # (this task's own: nobody waits on it)
        try:
            tree = self._tree(session_id)
            async with self._lock(tree):
                told = await self._status(session_id, tree, diffs=False)
            self._tell_now(session_id, told)
        except (errors.RpcError, OSError) as exc:
            log.info("the worktree of session %s was not told: %s", session_id, exc)

    def _tell_now(self, session_id: str, told: m.WorktreeStatus) -> None:
        self._told_at[session_id] = time.monotonic()
        quiet = told.model_copy(  # (a merge's answer had its diffs: not told)
            update={
                "files": tuple(
                    f.model_copy(update={"diff": "", "truncated": False}) for f in told.files
                )
            }
        )
        self._publisher.publish(rpc.WORKTREES_CHANGED, quiet)

    def _forget_telling(self, session_id: str) -> None:
        self._untold.pop(session_id, None)
        task = self._telling.pop(session_id, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        for task in [*self._telling.values(), *self._setting_up.values()]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._telling.clear()
        self.bases.close()


async def _blobs(path: Path, tree: str, names: list[str], env: dict[str, str]) -> dict[str, str]:
    listed = await git.run(path, "ls-tree", "-r", "-z", "--full-tree", tree, "--", *names, env=env)
    found: dict[str, str] = {}
    for line in listed.out.decode("utf-8", "surrogateescape").split("\0"):
        if line:
            meta, _tab, name = line.partition("\t")
            found[name] = meta.split(" ")[2]
    return found
