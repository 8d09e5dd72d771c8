"""`worktrees.changed` told in a pause of its session (host/worktrees/service.py), on a
real worktree of a real repository: a reading that fails never takes the place of the
telling a later change asked for, so the last state is still told."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from harness.git_env import git_env
from host.core import HostCore
from host.protocol import errors, methods as rpc, models as m
from host.worktrees import reading


def git(folder: Path, *args: str) -> None:
    env = git_env()
    subprocess.run(["git", "-C", str(folder), *args], env=env, check=True, capture_output=True)


def test_a_failed_reading_leaves_the_telling_a_later_change_asked_for(
    core: HostCore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    real = reading.status
    calls = 0

    async def status(session_id: str, tree: m.Worktree, diffs: bool = True) -> object:
        nonlocal calls
        calls += 1
        if calls == 1:  # the first reading: a change comes while it runs, then it fails
            core.publisher.publish(rpc.TODOS_CHANGED, core.todos.snapshot(session_id))
            raise errors.InvalidParams("the worktree's folder is gone")
        return await real(session_id, tree, diffs)

    monkeypatch.setattr(reading, "status", status)

    async def run() -> m.Wire:
        told: asyncio.Future[m.Wire] = asyncio.get_running_loop().create_future()
        core.publisher.subscribe(
            lambda name, params: (
                told.set_result(params)
                if name == rpc.WORKTREES_CHANGED.name and not told.done()
                else None
            )
        )
        params = m.CreateSessionParams(cwd=str(repo), worktree=m.WorktreeRequest())
        session = await core.worktrees.create(params)
        core.publisher.publish(rpc.TODOS_CHANGED, core.todos.snapshot(session.id))
        return await asyncio.wait_for(told, 10)

    told = asyncio.run(run())
    assert calls == 2
    assert isinstance(told, m.WorktreeStatus) and told.dirty is False
