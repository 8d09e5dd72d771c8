"""How a session's checkpoint store runs `git` (section 16): the store as GIT_DIR, the
folder as the work tree, no one's global or system configuration, the folder's own exclude
file (a worktree's as git names it), at a priority below the host's; its failures in
git's last words."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from host.checkpoints.errors import FolderError
from host.git_child import fed_git, read_git, run_git

T = TypeVar("T")

NICENESS = 10  # git's priority below the host's, the agents' and the window's
_CONFIG = (
    "core.autocrlf=false", "core.safecrlf=false", "core.symlinks=true",
    "core.quotepath=false", "core.fsmonitor=false", "core.untrackedCache=false",
    "core.preloadIndex=true", "gc.auto=0", "diff.renames=true", "diff.noprefix=false",
    "diff.external=", "core.hooksPath=/dev/null", "advice.detachedHead=false",
)  # fmt: skip


class StoreGit:
    """git run against one store; FolderStore says what it records and restores."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._exclude: Path | None = None  # a worktree's exclude file, once asked

    def _env(self, cwd: Path | None, index: Path | None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(
            GIT_DIR=str(self.root),
            GIT_CONFIG_NOSYSTEM="1",
            GIT_CONFIG_GLOBAL=os.devnull,
            GIT_LITERAL_PATHSPECS="1",
            GIT_TERMINAL_PROMPT="0",
            GIT_OPTIONAL_LOCKS="0",
            LC_ALL="C",
            GIT_AUTHOR_NAME="Nib",
            GIT_AUTHOR_EMAIL="nib@localhost",
            GIT_COMMITTER_NAME="Nib",
            GIT_COMMITTER_EMAIL="nib@localhost",
        )
        if cwd is not None:
            env["GIT_WORK_TREE"] = str(cwd)
        if index is not None:
            env["GIT_INDEX_FILE"] = str(index)
        return env

    def _command(self, args: tuple[str, ...], cwd: Path | None, exclude: Path | None) -> list[str]:
        excludes = os.devnull
        if exclude is None and cwd is not None:
            exclude = self.exclude_of(cwd)
        if exclude is not None and exclude.is_file():
            excludes = str(exclude)
        config = [arg for pair in _CONFIG for arg in ("-c", pair)]
        return [*config, "-c", f"core.excludesFile={excludes}", *args]

    async def _git(
        self,
        *args: str,
        cwd: Path | None = None,
        index: Path | None = None,
        stdin: bytes | None = None,
        check: bool = True,
        exclude: Path | None = None,
    ) -> bytes:
        code, out, err = await run_git(
            self._command(args, cwd, exclude),
            cwd=str(cwd if cwd is not None else self.root.parent),
            env=self._env(cwd, index),
            stdin=stdin,
            niceness=NICENESS,
        )
        if check and code != 0:
            raise failed(args[0], code, err)
        return out

    async def _fed(
        self, feed: Callable[[Callable[[bytes], None]], T], *args: str, cwd: Path, index: Path
    ) -> T:
        """`git ARGS` in `cwd`, its input written by `feed` in a worker thread as it goes."""
        code, _out, err, made = await fed_git(
            self._command(args, cwd, None),
            feed,
            cwd=str(cwd),
            env=self._env(cwd, index),
            niceness=NICENESS,
        )
        if code != 0 or made is None:
            raise failed(args[0], code, err)
        return made

    def exclude_of(self, cwd: Path) -> Path:
        """The folder's exclude file: `.git/info/exclude`, or, where `.git` is a file (a
        worktree, section 18), the one git named for it (`find_exclude`, asked once)."""
        if not (cwd / ".git").is_file():
            return cwd / ".git" / "info" / "exclude"
        if self._exclude is None:  # a reading of the folder would apply no exclude file
            raise RuntimeError(f"find_exclude({cwd}) is awaited before git reads it")
        return self._exclude

    async def find_exclude(self, cwd: Path) -> None:
        """Where `.git` is a file, ask git once which exclude file it reads there (awaited:
        the host's loop is never held by a git it waits for)."""
        if self._exclude is not None or not (cwd / ".git").is_file():
            return
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        asked = ["rev-parse", "--path-format=absolute", "--git-path", "info/exclude"]
        code, out, _err = await run_git(["-C", str(cwd), *asked], cwd=None, env=env)
        named = out.decode("utf-8", "surrogateescape").strip()
        self._exclude = Path(named) if code == 0 and named else Path(os.devnull)

    async def _ensure(self) -> None:
        if (self.root / "objects").is_dir():
            return
        self.root.parent.mkdir(parents=True, exist_ok=True)
        await self._git("init", "--bare", "--quiet", str(self.root))

    # --- recording ----------------------------------------------------------------------

    async def _read(
        self,
        take: Callable[[bytes], bool],
        args: tuple[str, ...],
        cwd: Path | None = None,
        index: Path | None = None,
    ) -> None:
        """`git ARGS`, its output handed to `take` as it comes (`git_child.read_git`);
        FolderError in git's words when it fails."""
        config = [arg for pair in _CONFIG for arg in ("-c", pair)]
        code, err = await read_git(
            [*config, *args],
            take,
            cwd=str(cwd if cwd is not None else self.root.parent),
            env=self._env(cwd, index),
            niceness=NICENESS,
        )
        if code not in (0, None):
            raise failed(next(a for a in args if not a.startswith("-") and "=" not in a), code, err)


def failed(name: str, code: int | None, err: bytes) -> FolderError:
    words = err.decode("utf-8", "replace").strip().splitlines()
    return FolderError(f"git {name} failed: {words[-1] if words else code}")
