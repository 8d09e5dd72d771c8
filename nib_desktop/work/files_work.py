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
import re
from collections.abc import Iterable
from pathlib import Path

from host.protocol import plain_methods as rpc, plain_models as m
from host.protocol.folder_files import MAX_FILES as MAX_FILES, list_files
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState

REMOTE = "remote:"  # a listing held for a remote session, by its id: its host listed it
SLICE = 1_000  # paths matched between two turns of the loop (a few ms)
LIMIT = 20  # suggestions shown
_MENTION = re.compile(r"(?:^|(?<=\s))@(\S+)")


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


def mentioned_of(text: str, known: frozenset[str]) -> tuple[str, ...]:
    """The files of `known` (a remote folder's, as its host listed them) that the text
    mentions as "@path", each once, in order."""
    files: list[str] = []
    for found in _MENTION.finditer(text):
        name = found.group(1).rstrip(".,;:!?)\"'”")
        if name in known and name not in files:
            files.append(name)
    return tuple(files)


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

    def __init__(self, state: AppState, run: Runner, host: HostLink | None = None) -> None:
        self._state = state
        self._run = run
        self._host = host  # a remote session's folder is listed by its host (`files.list`)
        # by folder; a remote session's by REMOTE and its id
        self._listed: dict[str, tuple[float, tuple[str, ...]]] = {}
        self._asked = 0  # the newest query's number
        self._listing: dict[str, asyncio.Future[tuple[str, ...]]] = {}  # being listed

    def held(self, session_id: str) -> tuple[str, ...]:
        """A remote session's files as last listed ("@" asked for them)."""
        return self._listed.get(REMOTE + session_id, (0.0, ()))[1]

    def find(self, query: str) -> None:
        shown = self._state.shown
        if shown is None or not shown.cwd:
            return
        if shown.remote and (self._host is None or not shown.reachable):
            return
        self._asked += 1
        key = REMOTE + shown.session_id if shown.remote else shown.cwd
        self._run(self._find(shown.session_id, key, query, self._asked), "find files")

    async def _find(self, session_id: str, key: str, query: str, asked: int) -> None:
        held = self._listed.get(key)
        if held is None:
            held = await self._list(key)
        elif not query and asyncio.get_running_loop().time() - held[0] > self.FRESH_S:
            self._run(self._list(key), "list the folder's files")
        if asked != self._asked:
            return  # a newer query is on its way
        paths = await find(query, held[1])
        if asked == self._asked:
            self._state.apply(ev.FilesFound(session_id, query, tuple(paths)))

    async def _list(self, key: str) -> tuple[float, tuple[str, ...]]:
        """The folder (`key`) listed, or a remote session's (`key` its id) by its host; a
        query that comes while it is being listed waits for the same listing."""
        pending = self._listing.get(key)
        if pending is None:
            remote = key.startswith(REMOTE)
            listing = self._remote(key[len(REMOTE) :]) if remote else list_files(Path(key))
            pending = self._listing[key] = asyncio.ensure_future(listing)
            pending.add_done_callback(lambda _done: self._listing.pop(key, None))
        listed = await asyncio.shield(pending)
        held = self._listed[key] = (asyncio.get_running_loop().time(), listed)
        return held

    async def _remote(self, session_id: str) -> tuple[str, ...]:
        assert self._host is not None
        told = await self._host.call(rpc.FILES_LIST, m.SessionRef(session_id=session_id))
        return told.files
