"""A store's first record of a git checkout's top starts from git's own index (issue 49):
the same tree as a record that reads every file, its blobs borrowed from the repository
only until the store is tidied, after which the store needs nothing of the repository."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from pathlib import Path

from harness.git_env import git_env
from host.checkpoints.folder import FolderStore

ENV = git_env()


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], env=ENV, check=True, capture_output=True, text=True
    )
    return done.stdout


def checkout(root: Path) -> Path:
    repo = root / "repo"
    (repo / "src").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    for i in range(30):
        (repo / "src" / f"m{i}.py").write_text(f"X = {i}\n")
    (repo / ".gitignore").write_text("*.log\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    git(repo, "worktree", "add", "-q", "-b", "nib/t", str(root / "wt"))
    wt = root / "wt"
    (wt / "src" / "m3.py").write_text("X = 'changed'\n")  # a tracked file changed since
    (wt / "new.txt").write_text("untracked\n")
    (wt / "run.log").write_text("ignored\n")
    return wt


def alternates(store: FolderStore) -> Path:
    return store.root / "objects" / "info" / "alternates"


def test_a_worktrees_first_record_is_seeded_and_then_owned(tmp_path: Path) -> None:
    wt = checkout(tmp_path)
    seeded, plain = FolderStore(tmp_path / "s1"), FolderStore(tmp_path / "s2")
    tree = asyncio.run(seeded.record(wt)).tree
    assert alternates(seeded).is_file()  # its blobs read from the repository meanwhile
    # a record that reads every file (of a copy: not a checkout's top) gives the same tree
    copy = tmp_path / "copy"
    shutil.copytree(wt, copy, ignore=shutil.ignore_patterns(".git"))
    (copy / ".gitignore").write_text("*.log\n")
    assert asyncio.run(plain.record(copy)).tree == tree
    assert not alternates(plain).exists()

    asyncio.run(seeded.tidy())
    assert not alternates(seeded).exists()
    shutil.rmtree(tmp_path / "repo")  # the store needs nothing of the repository now
    files = asyncio.run(seeded.entries(tree))
    assert sorted(files)[:3] == [".gitignore", "new.txt", "src/m0.py"]
    blobs = asyncio.run(seeded.blobs([files["src/m3.py"].sha, files["src/m7.py"].sha]))
    assert sorted(blobs.values()) == [b"X = 'changed'\n", b"X = 7\n"]


def test_a_subfolder_of_a_checkout_reads_every_file(tmp_path: Path) -> None:
    wt = checkout(tmp_path)
    store = FolderStore(tmp_path / "s1")
    asyncio.run(store.record(wt / "src"))
    assert not alternates(store).exists()


def test_an_index_that_trusts_what_it_does_not_read_is_not_seeded(tmp_path: Path) -> None:
    """An entry marked assume-unchanged (or skip-worktree) in the checkout's index would
    keep its blob however the file changed: the store reads every file instead, so the
    record holds the file as it is, and a restore's undo never loses the user's edit."""
    wt = checkout(tmp_path)
    git(wt, "update-index", "--assume-unchanged", "src/m5.py")
    (wt / "src" / "m5.py").write_text("X = 'edited, unseen by git'\n")
    store = FolderStore(tmp_path / "s1")
    tree = asyncio.run(store.record(wt)).tree
    assert not alternates(store).exists()
    files = asyncio.run(store.entries(tree))
    blob = asyncio.run(store.blobs([files["src/m5.py"].sha]))
    assert list(blob.values()) == [b"X = 'edited, unseen by git'\n"]


def test_a_file_changed_in_the_second_git_indexed_it_is_read_again(tmp_path: Path) -> None:
    """ "Racy git": a file changed, its size kept, in the second its index was written
    (here: all set to one past second) has stat data the index cannot tell from the
    indexed one; git reads such an entry again because its time is not before the index
    file's own. The seeded copy keeps the index's time, so the record holds the file as
    it is, not the indexed blob (a restore's undo would otherwise give back the old text)."""
    import os

    wt = checkout(tmp_path)
    index = Path(git(wt, "rev-parse", "--path-format=absolute", "--git-path", "index").strip())
    edited = wt / "src" / "m5.py"
    past = (os.stat(edited).st_mtime_ns // 10**9 - 60) * 10**9
    for _attempt in range(20):  # until the change's ctime falls in the indexed one's second
        edited.write_text("X = 5\n")
        os.utime(edited, ns=(past, past))
        git(wt, "add", "src/m5.py")
        indexed = os.stat(edited)
        edited.write_text("X = 9\n")  # the same size
        os.utime(edited, ns=(past, past))
        if os.stat(edited).st_ctime_ns // 10**9 == indexed.st_ctime_ns // 10**9:
            break
    os.utime(index, ns=(past, past))  # the index written in that second too: racy
    store = FolderStore(tmp_path / "store")
    tree = asyncio.run(store.record(wt)).tree
    blob = asyncio.run(store.entries(tree))["src/m5.py"].sha
    assert asyncio.run(store.blobs([blob]))[blob] == b"X = 9\n"


def test_an_index_git_cannot_trust_is_written_again_once(tmp_path: Path) -> None:
    """A fresh worktree's index and the files git wrote in its last second share that
    second (here: all set to one past second). git reads such files again at every record
    ("racy git") and writes an index only when an entry changed: the seeded store's index,
    its time kept, would have git hash them at every record for good. The store writes its
    index once more, later, and git trusts the entries from then on."""
    import os

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    files = [repo / f"m{i}.py" for i in range(5)]
    past = (int(time.time()) - 60) * 10**9
    for i, file in enumerate(files):
        file.write_text(f"X = {i}\n")
        os.utime(file, ns=(past, past))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    index = Path(git(repo, "rev-parse", "--path-format=absolute", "--git-path", "index").strip())
    os.utime(index, ns=(past, past))  # written in the files' second: every entry racy
    store = FolderStore(tmp_path / "store")
    first = asyncio.run(store.record(repo))
    second = asyncio.run(store.record(repo))
    assert second.tree == first.tree
    assert (store.root / "nib-index").stat().st_mtime_ns // 10**9 > past // 10**9
