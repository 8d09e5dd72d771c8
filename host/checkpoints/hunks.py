"""One hunk of a file's change undone (the project's `changes.revertHunk`): the hunk read
from git's own diff of the two records (so its number is the one the diff shows), applied
backwards to the file as it is now, where the lines it changed still read as the change
left them; else refused, in words."""

from __future__ import annotations

import re
from pathlib import Path

from host.checkpoints.folder import FolderStore
from host.checkpoints.writer import Write, write_back

HEADER = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


class HunkRefused(Exception):
    """The hunk cannot be undone: the message says why."""


async def hunk_undone(
    store: FolderStore, old_tree: str, new_tree: str, now_tree: str, path: str, hunk: int
) -> tuple[str, bytes | None]:
    """The file's mode and its content with the `hunk`-th hunk of its change from
    `old_tree` to `new_tree` undone in it as `now_tree` records it (None: the file goes,
    as it did not exist before and nothing else is left in it)."""
    change = next((c for c in await store.changes(old_tree, new_tree) if c.path == path), None)
    if change is None:
        raise HunkRefused(f"{path} did not change there")
    if change.binary:
        raise HunkRefused(f"{path} is a binary file: restore the whole file instead")
    headers = HEADER.findall(change.diff.encode())
    if hunk >= len(headers):
        raise HunkRefused(f"{path} has {len(headers)} hunks shown; there is no hunk {hunk + 1}")
    old_at, old_n, new_at, new_n = headers[hunk]
    old_start, old_count = _span(old_at, old_n)
    new_start, new_count = _span(new_at, new_n)
    trees = {"old": old_tree, "new": new_tree, "now": now_tree}
    entries = {name: (await store.entries(tree)).get(path) for name, tree in trees.items()}
    found = await store.blobs(sorted({e.sha for e in entries.values() if e is not None}))
    lines = {
        name: found[e.sha].splitlines(keepends=True) if e is not None else []
        for name, e in entries.items()
    }
    now = entries["now"]
    if now is None:
        raise HunkRefused(f"{path} is not in the folder now: restore the whole file instead")
    if (
        lines["now"][new_start : new_start + new_count]
        != (lines["new"][new_start : new_start + new_count])
    ):
        raise HunkRefused(
            f"{path} has changed there since: that part no longer reads as the change left it;"
            " restore the whole file instead"
        )
    undone = (
        lines["now"][:new_start]
        + lines["old"][old_start : old_start + old_count]
        + lines["now"][new_start + new_count :]
    )
    if entries["old"] is None and not undone:
        return now.mode, None
    return now.mode, b"".join(undone)


def _span(start: bytes, count: bytes) -> tuple[int, int]:
    """A hunk side's 0-based first line and length (git writes a side of no lines as
    the line before it, and a count of 1 not at all)."""
    n = int(count) if count else 1
    return (int(start) if n == 0 else int(start) - 1), n


def write_file(cwd: Path, path: str, mode: str, content: bytes | None) -> None:
    """The file written (as a restore writes: through no link out of the folder, its
    mode kept), or removed for None."""
    if content is None:
        write_back(cwd, [path], [])
    else:
        write_back(cwd, [], [Write(path, mode, content, recorded=True)])
