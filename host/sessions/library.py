"""The library of sessions as a whole (the project's methods): a session renamed, every
session searched by what was said in it (the FTS5 index of schema 29), a session written
out as Markdown."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from host.events import Publisher
from host.protocol import errors, methods as rpc, models as m
from host.protocol.settings_file import replace_file
from host.sessions.export import markdown_of
from host.sessions.service import SessionService
from host.store.db import Database, immediate

MARK_START, MARK_END = "\ue000", "\ue001"  # around a matched word in FTS5's snippet
SNIPPET_WORDS = 16  # about this many words of context around a match
_WORD = re.compile(r"\w", re.UNICODE)


def fts_query(text: str) -> str | None:
    """The user's words as an FTS5 query: each a quoted phrase (so nothing typed is
    syntax), all required, the last one a prefix (it may be half typed); None when no
    word has a letter or digit."""
    words = [w.replace('"', "") for w in text.split()]
    words = [w for w in words if _WORD.search(w)]
    if not words:
        return None
    return " ".join(f'"{w}"' for w in words) + "*"


def marked(snippet: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """FTS5's snippet on one line, its marks taken out as offsets."""
    out: list[str] = []
    marks: list[tuple[int, int]] = []
    start = 0
    length = 0
    for piece in re.split(f"([{MARK_START}{MARK_END}])", " ".join(snippet.split())):
        if piece == MARK_START:
            start = length
        elif piece == MARK_END:
            marks.append((start, length))
        else:
            out.append(piece)
            length += len(piece)
    return "".join(out), tuple(marks)


class Library:
    def __init__(
        self,
        db: Database,
        publisher: Publisher,
        sessions: SessionService,
        checklist: Callable[[str], m.TodoSnapshot],
        history: Callable[[m.TodoHistoryParams], m.TodoHistory],
    ) -> None:
        self._db = db
        self._publisher = publisher
        self._sessions = sessions
        self._checklist = checklist
        self._history = history

    def rename(self, params: m.RenameParams) -> m.Session:
        """A local session's new title, told by `sessions.changed`. A remote session is
        named by its host: -32011."""
        with immediate(self._db):
            self._sessions.require_local(params.session_id)
            self._db.execute(
                "UPDATE sessions SET title = ? WHERE id = ?", (params.title, params.session_id)
            )
            session = self._sessions.get(params.session_id)
        self._publisher.publish(rpc.SESSIONS_CHANGED, session)
        return session

    def search(self, params: m.SearchParams) -> m.SearchResults:
        """Sessions whose title holds every word first (newest used first), then the
        messages that do, newest first; at most `limit` in all. A control character (a NUL)
        separates words, as a space does: the index's tokenizer takes none."""
        params = params.model_copy(
            update={"query": "".join(" " if ord(c) < 32 else c for c in params.query)}
        )
        query = fts_query(params.query)
        if query is None:
            return m.SearchResults(hits=())
        # a title holds every word typed, as the index takes words: punctuation apart
        words = re.findall(r"\w+", params.query.casefold())
        hits: list[m.SearchHit] = []
        for sid, title, updated_at in self._db.execute(
            "SELECT id, title, updated_at FROM sessions ORDER BY updated_at DESC"
        ):
            folded = str(title).casefold()
            if all(w in folded for w in words):
                marks = tuple((i, i + len(w)) for w in words if (i := folded.find(w)) >= 0)
                hits.append(
                    m.SearchHit(
                        session_id=sid,
                        title=title,
                        message_id=None,
                        seq=None,
                        role=None,
                        created_at=updated_at,
                        snippet=title,
                        marks=tuple(sorted(marks)),
                    )
                )
                if len(hits) >= params.limit:
                    return m.SearchResults(hits=tuple(hits))
        rows = self._db.execute(
            "SELECT x.id, x.seq, x.session_id, x.role, x.created_at, s.title, snippet(messages_fts,"
            " 0, ?, ?, '…', ?) FROM messages_fts JOIN messages x ON x.rowid = messages_fts.rowid"
            " JOIN sessions s ON s.id = x.session_id WHERE messages_fts MATCH ?"
            " ORDER BY messages_fts.rowid DESC LIMIT ?",
            (MARK_START, MARK_END, SNIPPET_WORDS, query, params.limit - len(hits)),
        ).fetchall()
        for mid, seq, sid, role, created_at, title, snippet in rows:
            text, marks = marked(str(snippet))
            hits.append(
                m.SearchHit(
                    session_id=sid,
                    title=title,
                    message_id=mid,
                    seq=seq,
                    role=role,
                    created_at=created_at,
                    snippet=text,
                    marks=marks,
                )
            )
        return m.SearchResults(hits=tuple(hits))

    def export(self, params: m.ExportParams) -> m.Exported:
        """The session as Markdown, written whole or not at all: to a file beside the
        target, then renamed over it (through a link to its target, the mode of a file
        replaced kept). A file already there is kept unless `replace`."""
        target = export_target(params)
        session = self._sessions.require_local(params.session_id)
        return write_export(
            target,
            session,
            self._sessions.transcript.all(session.id),
            self._checklist(session.id),
            self._revisions(session.id),
        )

    def _revisions(self, session_id: str) -> list[m.TodoRevision]:
        """Every kept revision of the checklist, oldest first."""
        revisions: list[m.TodoRevision] = []
        before: int | None = None
        while True:
            asked = m.TodoHistoryParams(session_id=session_id, before_revision=before, limit=100)
            page = self._history(asked)
            revisions.extend(page.revisions)
            if not page.has_more or not page.revisions:
                return revisions[::-1]
            before = page.revisions[-1].revision


def export_target(params: m.ExportParams) -> Path:
    """Where `sessions.export` writes, on this host's machine; -32602 in words where it
    cannot (checked before anything is read, for a remote session before its host is
    asked)."""
    target = Path(params.path)
    if not target.is_absolute():
        raise errors.InvalidParams(f"{params.path} is not an absolute path")
    if target.is_dir():
        raise errors.InvalidParams(f"{params.path} is a folder: name a file in it")
    if not target.parent.is_dir():
        raise errors.InvalidParams(f"the folder {target.parent} does not exist")
    if target.exists() and not params.replace:
        raise errors.InvalidParams(f"{params.path} already exists")
    return target


def write_export(
    target: Path,
    session: m.Session,
    messages: Sequence[m.Message],
    checklist: m.TodoSnapshot,
    revisions: Sequence[m.TodoRevision],
) -> m.Exported:
    text = markdown_of(session, messages, checklist, revisions).encode()
    try:  # a link stays a link, a file replaced keeps its mode
        replace_file(target, text, 0o644)
    except OSError as exc:
        raise errors.InvalidParams(f"{target} could not be written: {exc}") from None
    return m.Exported(path=str(target), bytes=len(text))
