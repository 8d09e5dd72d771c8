"""`worktrees.changed` told in a pause of its session (host/worktrees/service.py), on a
real worktree of a real repository: a reading that fails never takes the place of the
telling a later change asked for, so the last state is still told."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.git_env import git_env
from host.core import HostCore
from host.protocol import errors, methods as rpc, models as m
from host.worktrees import git as worktree_git, reading


def git(folder: Path, *args: str) -> None:
    env = git_env()
    subprocess.run(["git", "-C", str(folder), *args], env=env, check=True, capture_output=True)


def repository(root: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    return repo


def first_told(core: HostCore) -> asyncio.Future[m.Wire]:
    """The first `worktrees.changed` the host tells from now on (on the running loop)."""
    told: asyncio.Future[m.Wire] = asyncio.get_running_loop().create_future()
    core.publisher.subscribe(
        lambda name, params: (
            told.set_result(params)
            if name == rpc.WORKTREES_CHANGED.name and not told.done()
            else None
        )
    )
    return told


def test_a_failed_reading_leaves_the_telling_a_later_change_asked_for(
    core: HostCore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = repository(tmp_path)
    real = reading.status
    calls = 0

    async def status(
        session_id: str, tree: m.Worktree, diffs: bool = True, bases: object = None
    ) -> object:
        nonlocal calls
        calls += 1
        if calls == 1:  # the first reading: a change comes while it runs, then it fails
            core.publisher.publish(rpc.TODOS_CHANGED, core.todos.snapshot(session_id))
            raise errors.InvalidParams("the worktree's folder is gone")
        return await real(session_id, tree, diffs, bases)

    monkeypatch.setattr(reading, "status", status)

    async def run() -> m.Wire:
        told = first_told(core)
        params = m.CreateSessionParams(cwd=str(repo), worktree=m.WorktreeRequest())
        session = await core.worktrees.create(params)
        core.publisher.publish(rpc.TODOS_CHANGED, core.todos.snapshot(session.id))
        return await asyncio.wait_for(told, 10)

    told = asyncio.run(run())
    assert calls == 2
    assert isinstance(told, m.WorktreeStatus) and told.dirty is False


def test_a_telling_never_asks_git_for_the_diffs_it_would_drop(
    core: HostCore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`worktrees.changed` tells every diff "": git's patch of a large change (cut on
    the host's loop as it is read) is not asked for, and no file is told as cut."""
    repo = repository(tmp_path)
    patches: list[tuple[str, ...]] = []
    real_stream = worktree_git.stream

    async def stream(
        path: Path, feed: Callable[[bytes], bool], *args: str, env: dict[str, str] | None = None
    ) -> None:
        if "-p" in args:
            patches.append(args)
        await real_stream(path, feed, *args, env=env)

    monkeypatch.setattr(worktree_git, "stream", stream)

    async def run() -> tuple[m.Wire, m.WorktreeStatus]:
        told = first_told(core)
        params = m.CreateSessionParams(cwd=str(repo), worktree=m.WorktreeRequest())
        session = await core.worktrees.create(params)
        assert session.worktree is not None
        # a change whose diff is past a file's 256 KiB
        big = "".join(f"line {i} of a large change\n" for i in range(20_000))
        (Path(session.worktree.path) / "a.txt").write_text(big)
        core.publisher.publish(rpc.TODOS_CHANGED, core.todos.snapshot(session.id))
        quiet = await asyncio.wait_for(told, 10)
        asked = await core.worktrees.status(m.SessionRef(session_id=session.id))
        return quiet, asked

    quiet, asked = asyncio.run(run())
    assert isinstance(quiet, m.WorktreeStatus)
    assert [(f.path, f.diff, f.truncated, f.additions) for f in quiet.files] == [
        ("a.txt", "", False, 20_000)
    ]
    # only the status a client asked for read git's patch, and cut it
    assert len(patches) == 1
    assert asked.files[0].truncated and asked.files[0].diff.startswith("--- a/a.txt")


def test_a_removed_worktree_is_not_read_at_its_sessions_next_write(
    core: HostCore, tmp_path: Path
) -> None:
    """Whether a session has a worktree is read once per session (every checklist write
    of every session asks), and forgotten when a worktree's state changes: after its
    removal a write asks for no reading of the folder that is gone."""
    repo = repository(tmp_path)

    async def run() -> tuple[bool, bool]:
        params = m.CreateSessionParams(cwd=str(repo), worktree=m.WorktreeRequest())
        session = await core.worktrees.create(params)
        core.publisher.publish(rpc.TODOS_CHANGED, core.todos.snapshot(session.id))
        asked_before = session.id in core.worktrees._telling
        await core.worktrees.remove(m.RemoveWorktreeParams(session_id=session.id, force=True))
        core.publisher.publish(rpc.TODOS_CHANGED, core.todos.snapshot(session.id))
        return asked_before, session.id in core.worktrees._telling

    asked_before, asked_after = asyncio.run(run())
    assert asked_before and not asked_after
