"""A session folder's files, as "@" in the composer offers them (contract section 17):
in a git repository `git ls-files` (tracked and untracked files, .gitignore honoured as git
does), elsewhere a walk that honours the folder's .gitignore files (`pathspec`, git's own
pattern rules). Shared: the window lists a local session's folder with it, and a host
answers `files.list` (the project's) with it for a remote one."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from host.protocol.models import FilesList


MAX_FILES = 200_000  # a folder's files listed, at most


async def list_files(folder: Path) -> tuple[str, ...]:
    """The files under `folder`, relative, with "/" between parts: git's (tracked but
    not deleted, and untracked but not ignored) in git's order, or the walk's, sorted.
    What runs on the loop is a few C calls, never a Python loop over every file."""
    listed = await _git(folder, "--cached", "--others", "--exclude-standard", "--deduplicate")
    if listed is None:
        return await asyncio.to_thread(lambda: tuple(sorted(_walk(folder)[:MAX_FILES])))
    deleted = set(await _git(folder, "--deleted") or ())
    if deleted:
        listed = [name for name in listed if name not in deleted]
    return tuple(listed[:MAX_FILES])


async def _git(folder: Path, *options: str) -> list[str] | None:
    """`git ls-files` of the folder; None where it is not a repository (or git is missing)."""
    try:
        process = await asyncio.create_subprocess_exec(
            "git",
            "-C",
            str(folder),
            "ls-files",
            "-z",
            *options,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )
    except OSError:
        return None
    out, _ = await process.communicate()
    if process.returncode != 0:
        return None
    names = out.decode("utf-8", "replace").split("\0")
    if names and names[-1] == "":
        names.pop()
    return names


def _walk(folder: Path) -> list[str]:
    """Every file under `folder` that its .gitignore files (at any depth) do not ignore."""
    import pathspec

    found: list[str] = []
    specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []  # (the directory's prefix, its rules)
    for root, dirs, files in os.walk(folder):
        prefix = os.path.relpath(root, folder).replace(os.sep, "/")
        prefix = "" if prefix == "." else prefix + "/"
        ignore = Path(root) / ".gitignore"
        if ignore.is_file():
            lines = ignore.read_text("utf-8", "replace").splitlines()
            specs.append((prefix, pathspec.GitIgnoreSpec.from_lines(lines)))

        def ignored(path: str, is_dir: bool) -> bool:
            probe = path + "/" if is_dir else path
            return any(
                probe.startswith(base) and spec.match_file(probe[len(base) :])
                for base, spec in specs
            )

        dirs[:] = sorted(d for d in dirs if d != ".git" and not ignored(prefix + d, True))
        found += [prefix + f for f in files if not ignored(prefix + f, False)]
        if len(found) >= MAX_FILES:
            break
    return found


MAX_WIRE_CHARS = 4 * 1024 * 1024  # of names in one `files.list` answer


async def listed_for_wire(folder: Path) -> FilesList:
    """`list_files`, as `files.list` answers it: at most MAX_WIRE_CHARS of names."""
    from host.protocol.models import FilesList  # the host's: the window lists its own

    listed = await list_files(folder)
    kept, size = len(listed), 0
    for at, name in enumerate(listed):
        size += len(name) + 4  # its quotes and comma on the wire
        if size > MAX_WIRE_CHARS:
            kept = at
            break
    return FilesList(files=listed[:kept], truncated=kept < len(listed) or kept >= MAX_FILES)
