""" "@" in the composer (issue 34, point 3): a folder's files listed as git lists them (or
by its .gitignore files where it is no repository), matched by letters in order, and the
files a message mentions, only under the folder."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest

from nib_desktop.work import files_work as ff


def folder_with_files(root: Path) -> Path:
    for name, text in {
        "src/app.py": "x",
        "src/app_test.py": "x",
        "docs/guide.md": "x",
        "README.md": "x",
        "build/out.py": "x",
        "src/cache/big.bin": "x",
        "notes.log": "x",
        ".gitignore": "build/\n*.log\n",
        "src/.gitignore": "cache/\n",
    }.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


EXPECTED = (
    ".gitignore",
    "README.md",
    "docs/guide.md",
    "src/.gitignore",
    "src/app.py",
    "src/app_test.py",
)


def test_a_folder_lists_what_its_gitignore_files_keep(tmp_path) -> None:
    assert asyncio.run(ff.list_files(folder_with_files(tmp_path))) == EXPECTED


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_repository_lists_tracked_and_untracked_files_but_not_ignored_ones(tmp_path) -> None:
    folder = folder_with_files(tmp_path)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "add", "src/app.py"], check=True)
    (folder / "gone.txt").write_text("x")
    subprocess.run(["git", "-C", str(folder), "add", "gone.txt"], check=True)
    (folder / "gone.txt").unlink()  # tracked, deleted since: not offered
    assert sorted(asyncio.run(ff.list_files(folder))) == list(EXPECTED)


def test_letters_in_order_match_and_the_best_come_first() -> None:
    paths = (
        "src/application/main.py",
        "src/app.py",
        "docs/apple.md",
        "tests/test_app.py",
        "zap/p.txt",
    )
    assert ff.rank("app", paths) == [
        "src/app.py",
        "docs/apple.md",
        "tests/test_app.py",
        "src/application/main.py",
        "zap/p.txt",
    ]
    assert ff.rank("APPpy", paths)[0] == "src/app.py"  # any case
    assert ff.rank("xyz", paths) == []
    assert asyncio.run(ff.find("app", paths * 3000, 3)) == ["src/app.py"] * 3  # in slices


def test_only_files_under_the_folder_are_mentioned(tmp_path) -> None:
    folder = folder_with_files(tmp_path / "work")
    (tmp_path / "secret.txt").write_text("x")
    (folder / "link.txt").symlink_to(tmp_path / "secret.txt")
    text = (
        "see @src/app.py, @README.md. and @src/app.py again; not @docs, @../secret.txt, "
        "@link.txt, @missing.py, nor mail@README.md"
    )
    assert ff.mentioned(str(folder), text) == ("src/app.py", "README.md")
    assert ff.mentioned("", text) == ()


def test_letters_typed_while_the_folder_is_listed_wait_for_that_listing(tmp_path) -> None:
    from harness.waiting import until
    from nib_desktop.link.runner import Runner
    from nib_desktop.state import events as ev
    from nib_desktop.state.store import AppState
    from nib_desktop.state.types import Session

    folder = folder_with_files(tmp_path)
    state = AppState()
    state.apply(ev.SessionsListed((Session("s", "t", "agent", agent="a", cwd=str(folder)),)))
    work = ff.FilesWork(state, Runner(state))

    async def body() -> None:
        work.find("")  # "@": the listing begins
        work.find("a")
        work.find("ap")  # before it has ended
        await until(lambda: state.files_found[1] == "ap", what="the answer to 'ap'")
        assert state.files_found == ("s", "ap", ("src/app.py", "src/app_test.py"))

    asyncio.run(body())
