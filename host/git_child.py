"""One `git` child process, for the checkpoint store and the worktrees alike: run with
a bound on its time, and ended with the task that awaits it (a cancelled request never
leaves a git behind)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

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


async def fed_git(
    args: list[str],
    feed: Callable[[Callable[[bytes], None]], T],
    *,
    cwd: str | None,
    env: dict[str, str],
    niceness: int = 0,
) -> tuple[int, bytes, bytes, T | None]:
    """`git ARGS` reading its input as `feed` writes it: `feed(write)` runs in a worker
    thread, git working on each piece meanwhile. Its exit status, output, error output
    and what `feed` returned (None: git ended before reading it all); TimeoutError after
    GIT_TIMEOUT_S. git is ended (and `feed` finds its pipe closed) with the awaiting task."""
    reading, writing = os.pipe()
    try:
        process = await asyncio.create_subprocess_exec(
            "git",
            *args,
            cwd=cwd,
            env=env,
            stdin=reading,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except BaseException:
        os.close(writing)
        raise
    finally:
        os.close(reading)
    if niceness:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, process.pid, niceness)
    pipe = _Pipe(writing)
    outputs = asyncio.ensure_future(process.communicate())
    try:
        made = await asyncio.wait_for(asyncio.to_thread(pipe.run, feed), GIT_TIMEOUT_S)
        out, err = await asyncio.wait_for(outputs, GIT_TIMEOUT_S)
    except BaseException:
        pipe.drop()
        if process.returncode is None:
            process.kill()
        outputs.cancel()
        await process.wait()
        raise
    return process.returncode or 0, out, err, made


class _Pipe:
    """The writing end of a child's input, closed once: by the worker thread that fed it,
    or, when that thread never started, by the task that gave up on it."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lock = threading.Lock()
        self._started = False
        self._closed = False

    def write(self, piece: bytes) -> None:
        view = memoryview(piece)
        while view:
            view = view[os.write(self._fd, view) :]

    def run(self, feed: Callable[[Callable[[bytes], None]], T]) -> T | None:
        with self._lock:
            if self._closed:
                return None
            self._started = True
        try:
            return feed(self.write)
        except BrokenPipeError:  # git ended early: its exit status says why
            return None
        finally:
            os.close(self._fd)

    def drop(self) -> None:
        with self._lock:
            if not self._started and not self._closed:
                self._closed = True
                os.close(self._fd)


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
