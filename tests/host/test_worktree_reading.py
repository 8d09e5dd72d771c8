"""A worktree's status read against its base (host/worktrees/reading.py) with the real
`git`: names and counts from one `--raw --numstat` as the two formats say them, and the
trial merge of uncommitted changes when the base has moved (and none when it has not)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from pathlib import Path

import pytest

from host.protocol import models as m
from host.worktrees import bases as bases_module, git as wgit, making, reading
from host.worktrees.bases import Bases

ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@t",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t",
}


def git(folder: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(folder), *args], env=ENV, check=True, capture_output=True
    ).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "one.txt").write_text("a\nb\nc\nd\ne\nf\n")
    (path / "two.txt").write_text("x\n")
    (path / ":odd").write_text("y\n")
    git(path, "add", "-A")
    git(path, "commit", "-qm", "start")
    return path


def test_raw_and_numstat_split_as_each_format_says_them(repo: Path) -> None:
    git(repo, "mv", "one.txt", "moved.txt")
    with (repo / "moved.txt").open("a") as handle:
        handle.write("g\n")
    (repo / "two.txt").write_text("w\n")
    git(repo, "rm", "-q", "--", "./:odd")
    (repo / "new.txt").write_text("n\n")
    (repo / "bin").write_bytes(b"\0\1")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "b")
    base = ("diff-tree", "-r", "-M", "-z", "HEAD~1", "HEAD")
    named, counted = reading.raw_split(git(repo, *base, "--raw", "--numstat"))
    assert named == git(repo, *base, "--name-status")
    assert counted == git(repo, *base, "--numstat")
    assert reading.raw_split(b"") == (b"", b"")


def worktree(repo: Path, tmp_path: Path) -> m.Worktree:
    path = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "nib/t", str(path))
    head = git(path, "rev-parse", "HEAD").decode().strip()
    return making.new_worktree(
        making.Repo(repo, repo, repo / ".git", ""), path, "nib/t", "main", head
    )


def test_uncommitted_changes_are_tried_against_a_base_that_moved(
    repo: Path, tmp_path: Path
) -> None:
    tree = worktree(repo, tmp_path)
    path = Path(tree.path)
    (path / "two.txt").write_text("the agent's\n")  # uncommitted
    (path / "one.txt").rename(path / "renamed.txt")
    told = asyncio.run(reading.status("s", tree))
    assert told.conflicts == () and told.behind == 0 and told.dirty  # not moved: no trial
    assert [(f.path, f.status) for f in told.files] == [
        ("renamed.txt", "renamed"),
        ("two.txt", "modified"),
    ]
    (repo / "two.txt").write_text("the user's\n")
    git(repo, "commit", "-qam", "the user's")
    told = asyncio.run(reading.status("s", tree))
    assert (told.behind, told.ahead, told.dirty) == (1, 0, True)
    assert told.conflicts == ("two.txt",)
    (path / "two.txt").write_text("x\n")  # as it was: only the rename is left
    told = asyncio.run(reading.status("s", tree))
    assert told.conflicts == () and [f.path for f in told.files] == ["renamed.txt"]


def test_when_one_of_both_fails_the_other_is_ended_before_it_is_said() -> None:
    ended = asyncio.Event()

    async def long() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            ended.set()

    async def failing() -> None:
        raise ValueError("no")

    async def run() -> None:
        with pytest.raises(ValueError, match="no"):
            await wgit.both(long(), failing())
        assert ended.is_set()

    asyncio.run(run())


def test_a_reading_starts_from_the_last_one_only_while_it_holds_the_bases_paths(
    repo: Path, tmp_path: Path
) -> None:
    """A status reading's index is where the next starts (it writes no index when nothing
    changed) only while it holds the same paths as the worktree's own: every reading says
    what one from the worktree's own index says, a file made and then ignored included."""
    tree = worktree(repo, tmp_path)
    path = Path(tree.path)
    kept = Bases(tmp_path / "scratch")

    def read() -> list[tuple[str, str]]:
        told = asyncio.run(reading.status("s", tree, bases=kept))
        fresh = Bases(tmp_path / "fresh")  # as a first reading: from the worktree's index
        again = asyncio.run(reading.status("s", tree, bases=fresh))
        fresh.close()
        assert again == told
        return [(f.path, f.status) for f in told.files]

    def started_from_the_last() -> bool:
        _common, index = asyncio.run(kept.located(path))
        return asyncio.run(kept.trusted(path, index))[0].name.endswith(".kept")

    (path / "two.txt").write_text("the agent's\n")
    assert read() == [("two.txt", "modified")] and started_from_the_last()
    assert read() == [("two.txt", "modified")] and started_from_the_last()
    (path / "one.txt").unlink()
    (path / "made.txt").write_text("new\n")
    assert read() == [("made.txt", "added"), ("one.txt", "deleted"), ("two.txt", "modified")]
    # (not kept: its paths are not the worktree's; the next starts from the last that was)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("made.txt\n")  # ignored from now on
    assert read() == [("one.txt", "deleted"), ("two.txt", "modified")]
    (path / "one.txt").write_text("back\n")
    assert read() == [("one.txt", "modified"), ("two.txt", "modified")]
    assert started_from_the_last()
    kept.close()


def test_a_reading_from_the_last_ones_index_finds_the_objects_it_wrote(
    repo: Path, tmp_path: Path
) -> None:
    """The last reading's index names the blobs and trees that reading wrote into its
    scratch objects (the changed files'): the next reading, starting from it, reads them
    (here the files changed a minute before the reading, so git trusts their entries and
    hashes nothing again)."""
    tree = worktree(repo, tmp_path)
    path = Path(tree.path)
    (path / "two.txt").write_text("the agent's\n")
    (path / "one.txt").write_text("one, changed\n")
    past = time.time() - 60
    for file in (path / "two.txt", path / "one.txt"):
        os.utime(file, (past, past))
    kept = Bases(tmp_path / "scratch")
    first = asyncio.run(reading.status("s", tree, bases=kept))
    for _ in range(3):
        assert asyncio.run(reading.status("s", tree, bases=kept)) == first
    kept.close()


def test_past_so_many_objects_kept_a_reading_starts_from_the_base_again(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bases_module, "KEPT_OBJECTS", 6)
    tree = worktree(repo, tmp_path)
    path = Path(tree.path)
    kept = Bases(tmp_path / "scratch")
    _common, index = asyncio.run(kept.located(path))
    starts: list[bool] = []
    for n in range(4):  # each reading writes a blob and a tree of its own
        (path / "two.txt").write_text(f"change {n}\n")
        asyncio.run(reading.status("s", tree, bases=kept))
        start, objects = asyncio.run(kept.trusted(path, index))
        starts.append(start.name.endswith(".kept") and objects is not None and objects.is_dir())
    assert starts == [True, True, True, False]  # 2, 4, 6 objects kept; 8 are too many
    assert not list((tmp_path / "scratch").glob("*.objects"))  # they went
    kept.close()


def test_a_reading_that_wrote_too_many_objects_is_not_kept(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = worktree(repo, tmp_path)
    path = Path(tree.path)
    kept = Bases(tmp_path / "scratch")
    _common, index = asyncio.run(kept.located(path))
    (path / "two.txt").write_text("the agent's\n")  # a blob and a tree: kept
    asyncio.run(reading.status("s", tree, bases=kept))
    first = asyncio.run(kept.trusted(path, index))[0].read_bytes()
    monkeypatch.setattr(bases_module, "KEPT_AT_ONCE", 1)
    (path / "two.txt").write_text("the agent's, again\n")  # two more: not kept
    told = asyncio.run(reading.status("s", tree, bases=kept))
    start = asyncio.run(kept.trusted(path, index))[0]
    assert start.name.endswith(".kept") and start.read_bytes() == first  # the last kept
    assert asyncio.run(reading.status("s", tree, bases=kept)) == told
    kept.close()
