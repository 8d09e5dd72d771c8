"""A session's new worktree (contract section 18): git's own `git worktree add -b BRANCH
PATH BASE`, under the data folder; the checkout's uncommitted work carried over when asked,
and the ignored files a `.worktreeinclude` names copied in."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import NamedTuple

from host.protocol import errors, models as m
from host.worktrees import git
from host.worktrees.git import GitFailed

FOLDER = "worktrees"
INCLUDE_FILE = ".worktreeinclude"


class Repo(NamedTuple):
    top: Path  # the work tree `cwd` is in
    main: Path  # the main work tree's folder (`Worktree.repo`)
    common: Path  # the repository's git folder (its objects, its refs)
    below: str  # `cwd` below `top` ("" at the top)


async def repo_of(cwd: Path) -> Repo:
    """The git work tree `cwd` is in; -32602 naming why when it is none."""
    try:
        asked = ("--show-toplevel", "--path-format=absolute", "--git-common-dir")
        found = (await git.text(cwd, "rev-parse", *asked)).splitlines()
    except GitFailed:
        found = []
    if len(found) != 2:  # (a bare repository has no top)
        raise errors.InvalidParams(
            f"{cwd} is not inside a git work tree, so it cannot have a worktree"
        )
    top, common = Path(found[0]), Path(found[1])
    main = common.parent if common.name == ".git" else top
    below = cwd.resolve().relative_to(top.resolve()).as_posix()
    return Repo(top, main, common, "" if below == "." else below)


async def base_of(repo: Repo, given: str | None) -> tuple[str, str]:
    """(the base as named, its commit): the branch checked out where the user works,
    else its HEAD commit, when none is given; -32602 for one git does not know."""
    if given is None:
        branch = await git.run(repo.top, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
        name = branch.out.decode().strip() if branch.code == 0 else "HEAD"
    else:
        name = given
    found = await git.run(
        repo.top, "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}", check=False
    )
    if found.code != 0:
        if given is None:
            raise errors.InvalidParams(f"the repository at {repo.top} has no commit yet")
        raise errors.InvalidParams(f"git knows no branch, tag or commit {name!r}")
    commit = found.out.decode().strip()
    return (commit if name == "HEAD" else name), commit


async def check_branch(repo: Repo, branch: str) -> None:
    """-32602 for a name git refuses as a branch, or one that exists."""
    if not await git.ok(repo.top, "check-ref-format", "--branch", branch) or branch.startswith("-"):
        raise errors.InvalidParams(f"git refuses {branch!r} as a branch name")
    if await git.ok(repo.top, "show-ref", "--verify", "--quiet", f"refs/heads/{branch}"):
        raise errors.InvalidParams(f"the branch {branch!r} exists already")


async def make(repo: Repo, path: Path, branch: str, commit: str, carry: bool) -> None:
    """The worktree made, then what it carries; removed again (folder and branch) if any
    of it fails, so a failed create leaves nothing behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        await git.run(repo.top, "worktree", "add", "--quiet", "-b", branch, str(path), commit)
    except GitFailed as exc:
        raise errors.InvalidParams(f"git could not make the worktree: {exc.words}") from None
    try:
        copies: list[str] = []
        gone: list[str] = []
        if carry:
            listed = await git.run(
                repo.top, "ls-files", "-z", "--modified", "--others", "--exclude-standard"
            )
            copies += git.names(listed.out)
            deleted = await git.run(repo.top, "ls-files", "-z", "--deleted")
            gone += git.names(deleted.out)
        if (repo.top / INCLUDE_FILE).is_file():
            ignored = await git.run(
                repo.top, "ls-files", "-z", "--others", "--ignored", "--exclude-standard"
            )
            named = await git.run(
                repo.top,
                "ls-files",
                "-z",
                "--others",
                "--ignored",
                f"--exclude-from={repo.top / INCLUDE_FILE}",
            )
            copies += sorted(set(git.names(ignored.out)) & set(git.names(named.out)))
        await asyncio.to_thread(_copy, repo.top, path, copies, gone)
    except BaseException:
        await git.run(repo.top, "worktree", "remove", "--force", str(path), check=False)
        await git.run(repo.top, "branch", "-D", branch, check=False)
        shutil.rmtree(path, ignore_errors=True)
        raise


def _copy(source: Path, target: Path, copies: list[str], gone: list[str]) -> None:
    """Each of `copies` from `source` to the same place under `target` (a link as a
    link, a file with its mode), each of `gone` removed there."""
    for name in copies:
        here = source / name
        there = target / name
        if not os.path.lexists(here):
            gone.append(name)
            continue
        there.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(there):
            there.unlink()
        if here.is_symlink():
            os.symlink(os.readlink(here), there)
        elif here.is_file():
            shutil.copy2(here, there)
    for name in gone:
        there = target / name
        if os.path.lexists(there) and not there.is_dir():
            there.unlink()


def worktree_path(data_dir: Path, session_id: str) -> Path:
    return data_dir / FOLDER / session_id


def default_branch(session_id: str) -> str:
    return f"nib/{session_id[:8].lower()}"


def new_worktree(repo: Repo, path: Path, branch: str, base: str, commit: str) -> m.Worktree:
    return m.Worktree(
        repo=str(repo.main),
        path=str(path),
        branch=branch,
        base=base,
        base_commit=commit,
        state="active",
    )
