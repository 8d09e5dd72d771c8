"""A worktree's status readings start from its base (host/worktrees/bases.py): its own
index as git trusts it. A fresh worktree's index shares its second with the files its
checkout wrote last (here: all set to one past second), and git hashes such files again
at every reading until that index is written in a later second."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from pathlib import Path

from harness.git_env import git_env
from host.core import HostCore
from host.protocol import models as m
from host.worktrees.bases import Bases
from host.worktrees.service import SCRATCH_FOLDER


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], env=git_env(), check=True, capture_output=True
    )
    return done.stdout.decode()


def bases(core: HostCore) -> list[Path]:
    """The bases made (not the last reading's index and objects kept beside each)."""
    found = (core.data_dir / SCRATCH_FOLDER).glob("nib-base-*")
    return sorted(p for p in found if p.suffix not in (".kept", ".objects"))


def test_readings_start_from_the_worktrees_index_as_git_trusts_it(
    core: HostCore, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for i in range(5):
        (repo / f"m{i}.py").write_text(f"X = {i}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")

    async def run() -> tuple[m.WorktreeStatus, ...]:
        params = m.CreateSessionParams(cwd=str(repo), worktree=m.WorktreeRequest())
        session = await core.worktrees.create(params)
        assert session.worktree is not None
        tree = Path(session.worktree.path)
        past = (int(time.time()) - 60) * 10**9
        for file in tree.glob("*.py"):
            os.utime(file, ns=(past, past))
        git(tree, "update-index", "-q", "--refresh")  # the files' stat data as they are now
        index = git(tree, "rev-parse", "--path-format=absolute", "--git-path", "index")
        os.utime(index.strip(), ns=(past, past))  # every entry racy
        ref = m.SessionRef(session_id=session.id)
        first = await core.worktrees.status(ref)
        made = bases(core)
        assert len(made) == 1  # git trusts its entries: it was written after their second
        assert made[0].stat().st_mtime_ns // 10**9 > past // 10**9
        second = await core.worktrees.status(ref)
        assert bases(core) == made  # the same index: the same base
        (tree / "m1.py").write_text("X = 'one'\n")
        git(tree, "add", "m1.py")  # the worktree's index changed: a new base
        third = await core.worktrees.status(ref)
        assert len(bases(core)) == 1 and bases(core) != made
        return first, second, third

    first, second, third = asyncio.run(run())
    assert (first.dirty, first.files) == (False, ())
    assert (second.dirty, second.files) == (False, ())
    assert third.dirty and [f.path for f in third.files] == ["m1.py"]


def test_one_reading_of_a_worktree_at_a_time_and_two_never_wait_on_each_other(
    tmp_path: Path,
) -> None:
    """A base is made again, and its file replaced, by one reading only: a status holds
    its worktree, and an attempt's comparison holds both of its runs', taken in one order
    (a comparison of a with b beside one of b with a once waited on each other for ever)."""
    held = Bases(tmp_path / "scratch")
    a, b = tmp_path / "a", tmp_path / "b"
    inside: dict[Path, str] = {}  # a worktree: the reading that holds it
    done: list[str] = []

    async def read(name: str, *paths: Path) -> None:
        async with held.reading(*paths):
            assert not set(paths) & set(inside), (name, inside)
            inside.update(dict.fromkeys(paths, name))
            await asyncio.sleep(0.01)  # (a reading's git, awaited)
            for path in paths:
                del inside[path]
        done.append(name)

    async def run() -> None:
        # a and b held first: then ab waits for a while ba waits for b
        both = asyncio.gather(read("a", a), read("b", b), read("ab", a, b), read("ba", b, a))
        await asyncio.wait_for(both, 5)  # none waits on another for ever

    asyncio.run(run())
    assert sorted(done) == ["a", "ab", "b", "ba"]


def test_where_a_worktree_keeps_its_index_is_asked_again_when_it_is_made_again(
    tmp_path: Path,
) -> None:
    repos = [tmp_path / "one", tmp_path / "two"]
    for repo in repos:
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        (repo / "a.txt").write_text(repo.name)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "start")
    path = tmp_path / "wt"
    kept = Bases(tmp_path / "scratch")
    git(repos[0], "worktree", "add", "-q", "-b", "nib/a", str(path))
    first = asyncio.run(kept.located(path))
    assert first == (repos[0] / ".git", repos[0] / ".git" / "worktrees" / "wt" / "index")
    assert asyncio.run(kept.located(path)) == first  # (asked once)
    git(repos[0], "worktree", "remove", str(path))
    git(repos[1], "worktree", "add", "-q", "-b", "nib/b", str(path))  # the same folder
    again = asyncio.run(kept.located(path))
    assert again == (repos[1] / ".git", repos[1] / ".git" / "worktrees" / "wt" / "index")
    kept.close()
