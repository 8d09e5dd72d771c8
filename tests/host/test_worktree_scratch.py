"""A worktree reading's scratch (`host/worktrees/git.Scratch`: a copy of the worktree's
index and an object folder) lives in the host's data folder and never outlives its
reading: not when the reading is cancelled while the index is copied, and not past the
next start when the host was stopped in the middle of one."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from harness.git_env import git_env
from harness.waiting import until
from host.core import HostCore
from host.protocol import models as m
from host.worktrees.service import SCRATCH_FOLDER


def repository(folder: Path) -> Path:
    folder.mkdir()
    for args in (("init", "-q", "-b", "main"), ("add", "-A"), ("commit", "-qm", "start")):
        if args[0] == "add":
            (folder / "a.txt").write_text("a\n")
        subprocess.run(
            ["git", "-C", str(folder), *args], env=git_env(), check=True, capture_output=True
        )
    return folder


def scratches(root: Path) -> list[Path]:
    return [p for p in root.iterdir() if p.name.startswith("nib-git-")]


def test_a_host_start_empties_what_a_stopped_reading_left(tmp_path: Path) -> None:
    data = tmp_path / "data"
    left = data / SCRATCH_FOLDER / "nib-git-left"
    (left / "objects").mkdir(parents=True)
    (left / "index").write_bytes(b"DIRC")
    core = HostCore(data)
    try:
        repo = repository(tmp_path / "repo")

        async def run() -> m.WorktreeStatus:
            params = m.CreateSessionParams(cwd=str(repo), worktree=m.WorktreeRequest())
            session = await core.worktrees.create(params)
            return await core.worktrees.status(m.SessionRef(session_id=session.id))

        assert asyncio.run(run()).dirty is False
        # the leftover gone, and the reading's own scratch; the worktree's base is kept,
        # and the reading's index and objects beside it (where the next reading starts)
        base, *kept = sorted(p.name for p in (data / SCRATCH_FOLDER).iterdir())
        assert base.startswith("nib-base-") and f"{base}.kept" in kept
        assert set(kept) <= {f"{base}.kept", f"{base}.objects"}
    finally:
        core.close()


def test_a_reading_cancelled_while_its_index_is_copied_leaves_no_scratch(
    core: HostCore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = repository(tmp_path / "repo")
    root = core.data_dir / SCRATCH_FOLDER
    copying, go_on = threading.Event(), threading.Event()
    real_copy = shutil.copy2

    def copy2(source: Any, target: Any, **options: Any) -> Any:
        if Path(target).parent.parent == root:  # a scratch's index: held until told
            copying.set()
            go_on.wait(10)
        return real_copy(source, target, **options)

    async def run() -> None:
        params = m.CreateSessionParams(cwd=str(repo), worktree=m.WorktreeRequest())
        session = await core.worktrees.create(params)
        monkeypatch.setattr(shutil, "copy2", copy2)
        status = asyncio.ensure_future(core.worktrees.status(m.SessionRef(session_id=session.id)))
        await asyncio.to_thread(copying.wait, 10)
        assert len(scratches(root)) == 1  # the scratch being made
        status.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await status
        go_on.set()  # the copy ends after its reading was cancelled
        await until(lambda: not scratches(root), what="the scratch removed")

    try:
        asyncio.run(run())
    finally:
        go_on.set()
