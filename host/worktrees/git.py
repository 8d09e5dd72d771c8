"""The `git` program on the user's repository, for a session's worktree (section 18).

Git stays git's: every change is made by git itself (`worktree`, `merge-tree`,
`commit-tree`, `update-ref` with the old value, `rebase`), never reimplemented. Git runs
with the user's own configuration (their identity commits), with no prompt, no hooks (a
command the repository names never runs without the user's say) and no pager; a read
that must write nothing into the repository runs on `Scratch`, a temporary object
directory and index whose alternate is the repository's own objects.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from pathlib import Path
from typing import NamedTuple, TypeVar

from host.git_child import read_git, run_git

A = TypeVar("A")
B = TypeVar("B")

# what would point git elsewhere than the repository it is run in
_OWN = frozenset(
    [
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR",
        "GIT_NAMESPACE",
        "GIT_PREFIX",
        "GIT_CONFIG",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
    ]
)
_CONFIG = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.quotepath=false",
    "advice.detachedHead=false",
    "gc.auto=0",
    "color.ui=false",
)


# git's priority below the host's in a task that reads for nobody waiting (`worktrees.changed`
# after a turn or a checklist revision): the host, its agents and the window go first
NICENESS: ContextVar[int] = ContextVar("git_niceness", default=0)
IN_BACKGROUND = 10


class GitFailed(Exception):
    """git said no: `words` is its last line of error, `code` its exit status."""

    def __init__(self, args: tuple[str, ...], code: int, words: str) -> None:
        super().__init__(f"git {args[0] if args else ''} failed: {words or code}")
        self.code = code
        self.words = words


class Done(NamedTuple):
    code: int
    out: bytes
    err: str


def _env(extra: dict[str, str] | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _OWN}
    env.update(
        GIT_TERMINAL_PROMPT="0",
        GIT_EDITOR="true",
        GIT_SEQUENCE_EDITOR="true",
        LC_ALL="C",
        GIT_PAGER="cat",
    )
    env.update(extra or {})
    return env


async def run(
    cwd: Path,
    *args: str,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    check: bool = True,
) -> Done:
    """`git -C cwd ARGS`; GitFailed when it exits other than 0 and `check`."""
    config = [arg for pair in _CONFIG for arg in ("-c", pair)]
    code, out, err = await run_git(
        [*config, "-C", str(cwd), *args],
        cwd=None,
        env=_env(env),
        stdin=stdin,
        niceness=NICENESS.get(),
    )
    words = err.decode("utf-8", "replace").strip()
    if check and code != 0:
        lines = [line for line in words.splitlines() if line.strip()]
        raise GitFailed(args, code, lines[-1] if lines else "")
    return Done(code, out, words)


async def stream(
    cwd: Path, take: Callable[[bytes], bool], *args: str, env: dict[str, str] | None = None
) -> None:
    """`git -C cwd ARGS`, its output handed to `take` as it comes (ended once `take`
    answers False); GitFailed when it exits other than 0."""
    config = [arg for pair in _CONFIG for arg in ("-c", pair)]
    code, err = await read_git(
        [*config, "-C", str(cwd), *args], take, cwd=None, env=_env(env), niceness=NICENESS.get()
    )
    if code not in (0, None):
        lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
        raise GitFailed(args, code, lines[-1] if lines else "")


async def text(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """git's one-line answer."""
    return (await run(cwd, *args, env=env)).out.decode("utf-8", "surrogateescape").strip()


async def ok(cwd: Path, *args: str, env: dict[str, str] | None = None) -> bool:
    return (await run(cwd, *args, env=env, check=False)).code == 0


def names(out: bytes) -> list[str]:
    """NUL-separated paths (`-z`), read as the checkpoints read them."""
    return [n for n in out.decode("utf-8", "surrogateescape").split("\0") if n]


async def both(first: Awaitable[A], second: Awaitable[B]) -> tuple[A, B]:
    """`first` and `second` at once; when one fails, the other is cancelled (its git
    ended) and awaited before the failure is raised as it was."""
    one, two = asyncio.ensure_future(first), asyncio.ensure_future(second)
    try:
        return await asyncio.gather(one, two)
    except BaseException:
        for task in (one, two):
            task.cancel()
        await asyncio.gather(one, two, return_exceptions=True)
        raise


async def in_thread(work: Callable[[], object], undo: Callable[[], None]) -> None:
    """`work` done in a worker thread and awaited. A thread cannot be stopped: when the
    awaiting task is cancelled meanwhile (or the work fails), `undo` runs once the work is
    done, so what it made after the cancel goes too."""
    doing = asyncio.ensure_future(asyncio.to_thread(work))
    try:
        await asyncio.shield(doing)
    except BaseException:
        doing.add_done_callback(lambda done: _undone(done, undo))
        raise


def _undone(done: asyncio.Future[object], undo: Callable[[], None]) -> None:
    if not done.cancelled():
        done.exception()  # (the caller was told, or is gone: nothing to tell)
    undo()


class Scratch:
    """A temporary object directory and index over a repository: what git writes while
    reading (a tree of the worktree's files, a trial merge) goes there and is thrown
    away; the repository's own objects are read through the alternate."""

    def __init__(self, objects: Path, within: Path | None = None, also: Path | None = None) -> None:
        """Made in `within` (the host's scratch folder), else the system's temporary one;
        `also`: more objects to read (those an index it takes may name)."""
        self._folder = Path(tempfile.mkdtemp(prefix="nib-git-", dir=within))
        self.objects = self._folder / "objects"
        self.objects.mkdir()
        self.index = self._folder / "index"
        alternates = [str(objects), *([str(also)] if also is not None else [])]
        self.env = {
            "GIT_OBJECT_DIRECTORY": str(self.objects),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": os.pathsep.join(alternates),
            "GIT_INDEX_FILE": str(self.index),
            # a trial commit (of the worktree's uncommitted files) needs a name, not the user's
            "GIT_AUTHOR_NAME": "Nib",
            "GIT_AUTHOR_EMAIL": "nib@localhost",
            "GIT_COMMITTER_NAME": "Nib",
            "GIT_COMMITTER_EMAIL": "nib@localhost",
        }

    def take(self, index: Path) -> None:
        """A copy of `index` as this scratch's (a worker thread's job: it can be
        megabytes): its stat cache, so only changed files are read again; its own time
        kept, which git compares with each file's to tell an entry it cannot trust
        ("racy git")."""
        if index.is_file():
            shutil.copy2(index, self.index)

    def close(self) -> None:
        shutil.rmtree(self._folder, ignore_errors=True)
