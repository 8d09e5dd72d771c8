"""One `git` child process, for the checkpoint store and the worktrees alike: run with
a bound on its time, and ended with the task that awaits it (a cancelled request never
leaves a git behind)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable

GIT_TIMEOUT_S = 120.0
READ_CHUNK = 256 * 1024  # of a streamed output, read at a time


async def run_git(
    args: list[str],
    *,
    cwd: str | None,
    env: dict[str, str],
    stdin: bytes | None = None,
    niceness: int = 0,
) -> tuple[int, bytes, bytes]:
    """`git ARGS`: its exit status, output and error output; TimeoutError after
    GIT_TIMEOUT_S. `niceness` lowers its priority below the caller's."""
    process = await asyncio.create_subprocess_exec(
        "git",
        *args,
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    if niceness:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, process.pid, niceness)
    try:
        out, err = await asyncio.wait_for(process.communicate(stdin), GIT_TIMEOUT_S)
    except BaseException:
        if process.returncode is None:
            process.kill()
            await process.wait()
        raise
    return process.returncode or 0, out, err


async def _tail(stream: asyncio.StreamReader, keep: int = 64 * 1024) -> bytes:
    """A stream read to its end (a writer never waits on it), its last `keep` bytes."""
    held = b""
    while chunk := await stream.read(READ_CHUNK):
        held = (held + chunk)[-keep:]
    return held


async def read_git(
    args: list[str],
    take: Callable[[bytes], bool],
    *,
    cwd: str | None,
    env: dict[str, str],
    niceness: int = 0,
) -> tuple[int | None, bytes]:
    """`git ARGS`, its output handed to `take` as it comes (a large diff is never held
    whole); once `take` answers False git is ended. Its exit status (None: ended here)
    and error output; TimeoutError after GIT_TIMEOUT_S."""
    process = await asyncio.create_subprocess_exec(
        "git",
        *args,
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    if niceness:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, process.pid, niceness)
    assert process.stdout is not None and process.stderr is not None
    errors = asyncio.ensure_future(_tail(process.stderr))

    async def reading() -> bool:
        assert process.stdout is not None
        while chunk := await process.stdout.read(READ_CHUNK):
            if not take(chunk):
                return False
        return True

    try:
        whole = await asyncio.wait_for(reading(), GIT_TIMEOUT_S)
    except BaseException:
        errors.cancel()
        if process.returncode is None:
            process.kill()
            await process.wait()
        raise
    if not whole and process.returncode is None:
        process.kill()
    code = await process.wait()
    err = await errors
    return (code if whole else None), err
