""" "@" in the composer: the files under a session's folder, found by a few letters of
their path, and the files a message mentions, which go with it as attachments (contract
section 17).

The folder is listed once per "@" (off the GUI thread): in a git repository by
`git ls-files` (tracked and untracked files, .gitignore honoured as git does), elsewhere
by a walk that honours the folder's .gitignore files (`pathspec`, git's own pattern
rules). A query matches a path whose letters it has in order (case-insensitive, as fzf
and editors' quick-open do); the best come first: the query whole in the file's name,
then whole in the path, then the fewest gaps, then the shortest path. Matching runs on
the loop in slices of a few thousand paths, so the window never waits on it for more
than a slice, and a newer query ends an older one's run.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterable
from pathlib import Path

from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState

MAX_FILES = 200_000  # a folder's files listed, at most
SLICE = 1_000  # paths matched between two turns of the loop (a few ms)
LIMIT = 20  # suggestions shown
_MENTION = re.compile(r"(?:^|(?<=\s))@(\S+)")


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


def _pattern(query: str) -> re.Pattern[str]:
    return re.compile(".*?".join(map(re.escape, query.lower())))


def score(query: str, path: str, pattern: re.Pattern[str] | None = None) -> tuple[int, ...] | None:
    """How well `path` matches (smaller is better); None when it does not."""
    low = path.lower()
    found = (pattern or _pattern(query)).search(low)
    if found is None:
        return None
    q = query.lower()
    name = low.rsplit("/", 1)[-1]
    gaps = found.end() - found.start() - len(q)
    return (0 if q in name else 1 if q in low else 2, gaps, len(path))


def rank(query: str, paths: Iterable[str], limit: int = LIMIT) -> list[str]:
    """The best `limit` paths for `query` (all of them, in order, for "")."""
    if not query:
        return list(paths)[:limit]
    pattern = _pattern(query)
    scored = [(s, p) for p in paths if (s := score(query, p, pattern)) is not None]
    return [p for _s, p in sorted(scored)[:limit]]


async def find(query: str, paths: tuple[str, ...], limit: int = LIMIT) -> list[str]:
    """`rank` in slices of SLICE paths, the loop served between them."""
    if not query:
        return list(paths[:limit])
    pattern = _pattern(query)
    best: list[tuple[tuple[int, ...], str]] = []
    for start in range(0, len(paths), SLICE):
        chunk = paths[start : start + SLICE]
        best += [(s, p) for p in chunk if (s := score(query, p, pattern)) is not None]
        best = sorted(best)[:limit]
        await asyncio.sleep(0)
    return [p for _s, p in best]


def mentioned(cwd: str, text: str) -> tuple[str, ...]:
    """The files under `cwd` the text mentions as "@path" (each once, in order); a
    mention of anything else (a missing file, a folder, a path outside) is only text."""
    if not cwd:
        return ()
    folder = Path(cwd).resolve()
    files: list[str] = []
    for found in _MENTION.finditer(text):
        name = found.group(1).rstrip(".,;:!?)\"'”")
        target = (folder / name).resolve()
        if name and target.is_relative_to(folder) and target.is_file() and name not in files:
            files.append(name)
    return tuple(files)


class FilesWork:
    """The Main role's "@": the shown session's folder listed at the first query, and
    listed again in the background at a new "@" (the query "") when the listing is older
    than `FRESH_S` (queries meanwhile are answered from the listing held: starting git
    costs the loop a few ms, never paid while letters are typed); each query answered as
    `FilesFound`, only the newest query's answer kept."""

    FRESH_S = 5.0

    def __init__(self, state: AppState, run: Runner) -> None:
        self._state = state
        self._run = run
        self._listed: dict[str, tuple[float, tuple[str, ...]]] = {}  # by folder
        self._asked = 0  # the newest query's number
        self._listing: dict[str, asyncio.Future[tuple[str, ...]]] = {}  # being listed

    def find(self, query: str) -> None:
        shown = self._state.shown
        if shown is None or not shown.cwd or shown.remote:
            return
        self._asked += 1
        self._run(self._find(shown.session_id, shown.cwd, query, self._asked), "find files")

    async def _find(self, session_id: str, cwd: str, query: str, asked: int) -> None:
        held = self._listed.get(cwd)
        if held is None:
            held = await self._list(cwd)
        elif not query and asyncio.get_running_loop().time() - held[0] > self.FRESH_S:
            self._run(self._list(cwd), "list the folder's files")
        if asked != self._asked:
            return  # a newer query is on its way
        paths = await find(query, held[1])
        if asked == self._asked:
            self._state.apply(ev.FilesFound(session_id, query, tuple(paths)))

    async def _list(self, cwd: str) -> tuple[float, tuple[str, ...]]:
        """The folder listed; a query that comes while it is being listed waits for the
        same listing."""
        pending = self._listing.get(cwd)
        if pending is None:
            pending = self._listing[cwd] = asyncio.ensure_future(list_files(Path(cwd)))
            pending.add_done_callback(lambda _done: self._listing.pop(cwd, None))
        listed = await asyncio.shield(pending)
        held = self._listed[cwd] = (asyncio.get_running_loop().time(), listed)
        return held
