"""One git child fed as its input is made (host/git_child.fed_git), with the real `git`:
what it read, an early end, and a cancelled task that leaves no git behind."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

from host.git_child import fed_git

ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def test_git_reads_what_the_feed_writes_as_it_goes(tmp_path: Path) -> None:
    pieces = [f"line {i}\n".encode() * 500 for i in range(40)]  # more than a pipe holds

    def feed(write: Callable[[bytes], None]) -> int:
        for piece in pieces:
            write(piece)
        return len(pieces)

    code, out, _err, made = asyncio.run(
        fed_git(["hash-object", "--stdin"], feed, cwd=str(tmp_path), env=ENV)
    )
    whole = b"".join(pieces)
    expected = hashlib.sha1(b"blob %d\0" % len(whole) + whole).hexdigest()
    assert (code, out.decode().strip(), made) == (0, expected, 40)


def test_git_that_ends_early_is_told_by_its_exit_status(tmp_path: Path) -> None:
    def feed(write: Callable[[bytes], None]) -> str:
        for _ in range(1000):
            write(b"x" * 65536)  # nobody reads: the pipe breaks
        return "all written"

    code, _out, err, made = asyncio.run(
        fed_git(["no-such-command"], feed, cwd=str(tmp_path), env=ENV)
    )
    assert code != 0 and made is None and b"no-such-command" in err


def test_a_cancelled_task_ends_git_and_its_feed(tmp_path: Path) -> None:
    ended = threading.Event()
    started = threading.Event()
    pids: list[int] = []

    def feed(write: Callable[[bytes], None]) -> None:
        started.set()
        try:
            while True:  # git never ends its input: only the cancel stops this
                write(b"not a patch\n" * 5000)
        finally:
            ended.set()

    async def run() -> None:
        task = asyncio.ensure_future(
            # patch-id reads line by line and holds nothing: hash-object would hold all it
            # read, and under load grew by gigabytes before git was looked for
            fed_git(["patch-id"], feed, cwd=str(tmp_path), env=ENV)
        )
        assert await asyncio.to_thread(started.wait, 10), "the feed never started"
        pids.extend(int(p) for p in os.listdir("/proc") if p.isdigit() and _is_git(int(p)))
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(run())
    assert ended.wait(10), "the feed went on writing after its task was cancelled"
    assert pids and not any(_is_git(pid) for pid in pids), "git outlived its task"


def _is_git(pid: int) -> bool:
    """Whether `pid` is a live `git patch-id` child of this process."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    except OSError:
        return False
    state, parent = fields[0], int(fields[1])
    return args[:2] == [b"git", b"patch-id"] and state != b"Z" and parent == os.getpid()
