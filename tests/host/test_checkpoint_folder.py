"""A session folder's records in its own git store (host/checkpoints/folder.py), on real
folders and the real `git` program: what is recorded, what differs, what a restore does."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest

from host.checkpoints.errors import FolderError, FolderGone
from host.checkpoints.folder import FolderStore
from host.checkpoints.keeping import MAX_FILES


def record(store: FolderStore, folder: Path) -> str:
    return asyncio.run(store.record(folder)).tree


def changes(store: FolderStore, old: str, new: str) -> list[tuple[str, str | None, str, bool]]:
    return [(c.path, c.old_path, c.status, c.binary) for c in asyncio.run(store.changes(old, new))]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "work"
    path.mkdir()
    (path / "a.txt").write_text("one\ntwo\n")
    return path


@pytest.fixture
def store(tmp_path: Path) -> FolderStore:
    return FolderStore(tmp_path / "data" / "checkpoints" / "s1")


def test_binary_renamed_and_linked_files(folder: Path, store: FolderStore, tmp_path: Path) -> None:
    (folder / "moved.txt").write_text("the same words on several lines\n" * 5)
    outside = tmp_path / "secret"
    outside.write_text("not to be read\n")
    before = record(store, folder)
    (folder / "image.bin").write_bytes(b"\x89PNG\0\0\x01")
    (folder / "moved.txt").rename(folder / "renamed.txt")
    (folder / "link").symlink_to(outside)
    after = record(store, folder)
    assert changes(store, before, after) == [
        ("image.bin", None, "added", True),
        ("link", None, "added", False),
        ("renamed.txt", "moved.txt", "renamed", False),
    ]
    found = asyncio.run(store.changes(before, after))
    assert found[0].diff == "" and found[0].additions == 0
    # the link's target
    assert found[1].diff.endswith(f"+{outside}\n\\ No newline at end of file\n")
    assert "not to be read" not in found[1].diff  # never followed
    entries = asyncio.run(store.entries(after))
    assert entries["link"].mode == "120000"


def test_ignored_large_and_too_many_files(
    folder: Path, store: FolderStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the user's global excludes are never read
    config = tmp_path / "xdg"
    (config / "git").mkdir(parents=True)
    (config / "git" / "ignore").write_text("*.txt\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    (folder / ".gitignore").write_text("*.log\nsub/skip/\n")
    (folder / "sub" / "skip").mkdir(parents=True)
    (folder / "sub" / "skip" / "x.py").write_text("x\n")
    (folder / "sub" / "keep.py").write_text("k\n")
    (folder / "run.log").write_text("log\n")
    (folder / "big.dat").write_bytes(b"x" * (1024 * 1024 + 1))
    (folder / "edge.dat").write_bytes(b"x" * (1024 * 1024))
    (folder / ".git" / "info").mkdir(parents=True)
    (folder / ".git" / "info" / "exclude").write_text("edge.dat\n")
    (folder / ".git" / "config").write_text("[core]\n")
    made = asyncio.run(store.record(folder))
    assert sorted(asyncio.run(store.entries(made.tree))) == [".gitignore", "a.txt", "sub/keep.py"]
    assert (made.files, made.partial_reason) == (3, None)
    assert not (folder / ".git" / "objects").exists()  # nothing written in the folder

    many = folder / "many"
    many.mkdir()
    for i in range(MAX_FILES):
        (many / f"{i:05}").write_bytes(b"")
    made = asyncio.run(store.record(folder))
    assert made.files == MAX_FILES
    assert made.partial_reason is not None and "20,003 files" in made.partial_reason


def test_a_restore_writes_back_removes_and_makes_again(folder: Path, store: FolderStore) -> None:
    (folder / "gone.txt").write_text("removed later\n")
    (folder / "tool.sh").write_text("#!/bin/sh\n")
    (folder / "tool.sh").chmod(0o755)
    then = record(store, folder)
    (folder / "a.txt").write_text("changed\n")
    (folder / "gone.txt").unlink()
    (folder / "deep" / "er").mkdir(parents=True)
    (folder / "deep" / "er" / "new.txt").write_text("added\n")
    (folder / "untracked.log").write_text("x\n")
    (folder / ".gitignore").write_text("*.log\n")
    now = record(store, folder)
    done, skipped = asyncio.run(store.restore(folder, now, then, None))
    assert skipped == [] and done == [".gitignore", "a.txt", "deep/er/new.txt", "gone.txt"]
    assert (folder / "a.txt").read_text() == "one\ntwo\n"
    assert (folder / "gone.txt").read_text() == "removed later\n"
    assert not (folder / "deep").exists()
    assert (folder / "untracked.log").exists()  # recorded by neither: left alone
    assert os.access(folder / "tool.sh", os.X_OK)
    (folder / "untracked.log").unlink()  # no longer ignored, with the .gitignore gone
    assert record(store, folder) == then


def test_a_restore_never_writes_through_a_link_out_of_the_folder(
    folder: Path, store: FolderStore, tmp_path: Path
) -> None:
    (folder / "sub").mkdir()
    (folder / "sub" / "f.txt").write_text("inside\n")
    then = record(store, folder)
    (folder / "sub" / "f.txt").unlink()
    (folder / "sub").rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "sub").symlink_to(elsewhere)  # recorded as a link: restored as the folder
    now = record(store, folder)
    done, _skipped = asyncio.run(store.restore(folder, now, then, None))
    assert done == ["sub", "sub/f.txt"]
    assert (folder / "sub").is_dir() and not (folder / "sub").is_symlink()
    assert list(elsewhere.iterdir()) == []

    # a link that nothing records stands in the way: refused, nothing written through it
    (folder / "sub" / "f.txt").unlink()
    (folder / "sub").rmdir()
    (folder / ".gitignore").write_text("sub\n")
    (folder / "sub").symlink_to(elsewhere)
    now = record(store, folder)
    with pytest.raises(FolderError, match="is not a folder"):
        asyncio.run(store.restore(folder, now, then, ["sub/f.txt"]))
    assert list(elsewhere.iterdir()) == []


def test_a_folder_that_has_gone(folder: Path, store: FolderStore) -> None:
    tree = record(store, folder)
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()
    with pytest.raises(FolderGone, match="no longer exists"):
        asyncio.run(store.record(folder))
    assert [c.path for c in asyncio.run(store.changes(tree, tree))] == []


def test_a_huge_folder_is_listed_only_so_far(
    folder: Path, store: FolderStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of `/` or a home folder (issue 46, item 14): git's listing is read as it
    comes and ended past LIST_CAP names, never held whole; the record says there were
    more. (Here the caps are small; the real ones are 20,000 kept of 200,000 listed.)"""
    from host.checkpoints import keeping

    monkeypatch.setattr(keeping, "MAX_FILES", 10)
    monkeypatch.setattr(keeping, "LIST_CAP", 50)
    for i in range(500):
        (folder / f"f{i:03}.txt").write_text(f"{i}\n")
    made = asyncio.run(store.record(folder))
    assert made.files == 10
    assert made.partial_reason is not None
    # listed up to the cap, in git's chunks: at least 50 names read, at most all 501
    said = re.fullmatch(r"the folder has more than (\d+) files; .*", made.partial_reason)
    assert said is not None and 50 <= int(said.group(1)) <= 501, made.partial_reason
    assert "the first 10 in path order are recorded" in made.partial_reason


def test_a_large_folder_goes_to_git_in_pieces_as_it_is_read(
    folder: Path, store: FolderStore
) -> None:
    """The kept paths are handed to git's update-index as they are found (several pieces
    here): every one is recorded, once, and a second record reads only what changed."""
    from host.checkpoints import keeping

    many = folder / "many"
    many.mkdir()
    count = 3 * keeping.YIELD_EVERY + 7
    for i in range(count):
        (many / f"{i:05}").write_text(f"{i}\n")
    first = asyncio.run(store.record(folder))
    assert first.files == count + 1
    assert len(asyncio.run(store.entries(first.tree))) == count + 1
    (many / "00003").write_text("changed\n")
    (many / "00004").unlink()
    second = asyncio.run(store.record(folder))
    assert changes(store, first.tree, second.tree) == [
        ("many/00003", None, "modified", False),
        ("many/00004", None, "deleted", False),
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_files_this_process_cannot_read_are_left_out_and_said(
    folder: Path, store: FolderStore
) -> None:
    """The owner's read bit decides for the owner's own files (no `access` per file)."""
    secret = folder / "secret.txt"
    secret.write_text("mine, unreadable\n")
    secret.chmod(0o200)
    try:
        made = asyncio.run(store.record(folder))
    finally:
        secret.chmod(0o600)
    assert set(asyncio.run(store.entries(made.tree))) == {"a.txt"}
    assert made.partial_reason == "1 file on another filesystem or not readable are not recorded"
