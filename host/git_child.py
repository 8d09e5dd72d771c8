"""One `git` child process, for the checkpoint store and the worktrees alike: run with
a bound on its time, and ended with the task that awaits it (a cancelled request never
leaves a git behind)."""

from __future__ import annotations

import asyncio
import contextlib
import os

GIT_TIMEOUT_S = 120.0


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
