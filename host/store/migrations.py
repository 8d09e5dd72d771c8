"""Ordered schema migrations keyed by PRAGMA user_version.

Each step runs in one transaction together with the user_version bump, so a step that
fails leaves the file exactly as it was. Steps before 21 are consolidated into one
baseline that ends at version 20; version 21 is ADR 0312's checklist, exactly as the
contract's section 9 gives it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import apsw
from pydantic import TypeAdapter

from host.protocol import models as m
from host.protocol.todo_diff import diff_items


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    apply: Callable[[apsw.Connection], None]


def _baseline(connection: apsw.Connection) -> None:
    connection.execute(
        """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('agent', 'plan', 'goal')),
            origin TEXT NOT NULL CHECK (origin IN ('local', 'remote')),
            remote_endpoint TEXT,
            remote_session_id TEXT,
            parent_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            CHECK ((origin = 'remote') = (remote_endpoint IS NOT NULL))
        );
        CREATE INDEX sessions_by_update ON sessions(updated_at DESC, created_at DESC);

        CREATE TABLE turns (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            state TEXT NOT NULL CHECK (state IN ('running', 'completed', 'failed', 'cancelled')),
            error TEXT,
            started_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE INDEX turns_by_session ON turns(session_id);
        CREATE UNIQUE INDEX one_running_turn ON turns(session_id) WHERE state = 'running';

        CREATE TABLE messages (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            turn_id TEXT REFERENCES turns(id) ON DELETE SET NULL,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
            content TEXT NOT NULL,
            tool_calls TEXT,
            tool_call_id TEXT,
            is_error INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            UNIQUE (session_id, seq)
        );
        """
    )


def _session_todo(connection: apsw.Connection) -> None:
    connection.execute(
        """
        CREATE TABLE session_todo (
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            content TEXT NOT NULL,
            active_form TEXT,
            status TEXT NOT NULL
                CHECK (status IN ('pending', 'in_progress', 'completed', 'cancelled')),
            PRIMARY KEY (session_id, position)
        );
        ALTER TABLE sessions ADD COLUMN todo_revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN todo_updated_at TEXT;
        """
    )


def _todo_history(connection: apsw.Connection) -> None:
    """Every committed revision, its items as the JSON of the wire's TodoItems. The
    history starts at each session's current snapshot."""
    connection.execute(
        """
        CREATE TABLE todo_revisions (
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            revision INTEGER NOT NULL,
            turn_id TEXT,
            created_at TEXT NOT NULL,
            items TEXT NOT NULL,
            PRIMARY KEY (session_id, revision)
        ) WITHOUT ROWID;
        INSERT INTO todo_revisions (session_id, revision, turn_id, created_at, items)
        SELECT s.id, s.todo_revision, NULL, COALESCE(s.todo_updated_at, s.updated_at),
               COALESCE((SELECT json_group_array(json_object(
                            'content', t.content, 'status', t.status,
                            'activeForm', t.active_form))
                         FROM (SELECT * FROM session_todo WHERE session_id = s.id
                               ORDER BY position) t), '[]')
        FROM sessions s WHERE s.todo_revision > 0 AND s.origin = 'local';
        """
    )


def _summaries(connection: apsw.Connection) -> None:
    """Compaction summaries (contract section 12) are messages with role 'summary': the
    table is rebuilt with that role allowed, every row and its order kept."""
    connection.execute(
        """
        CREATE TABLE messages_v23 (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            turn_id TEXT REFERENCES turns(id) ON DELETE SET NULL,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'summary')),
            content TEXT NOT NULL,
            tool_calls TEXT,
            tool_call_id TEXT,
            is_error INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            UNIQUE (session_id, seq)
        );
        INSERT INTO messages_v23 SELECT id, session_id, turn_id, seq, role, content,
            tool_calls, tool_call_id, is_error, created_at FROM messages;
        DROP TABLE messages;
        ALTER TABLE messages_v23 RENAME TO messages;
        """
    )


def _todo_commits(connection: apsw.Connection) -> None:
    """A checklist write's transcript entry carries what it committed (the revision, its
    size and its diff), so the transcript tells the commit, not the call's arguments."""
    connection.execute("ALTER TABLE messages ADD COLUMN todo TEXT")


def _agents(connection: apsw.Connection) -> None:
    """Section 15: a session's agent ("nib" or a configured ACP agent), its working
    folder and the agent-side session it continues; an agent's thought or plan entry
    in the transcript says which it is."""
    connection.execute(
        """
        ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT 'nib';
        ALTER TABLE sessions ADD COLUMN cwd TEXT;
        ALTER TABLE sessions ADD COLUMN agent_session_id TEXT;
        ALTER TABLE messages ADD COLUMN kind TEXT;
        """
    )


def _tool_activity(connection: apsw.Connection) -> None:
    """Section 16: a tool call's result carries what it did (its diffs, its output, the
    places it touched), as JSON."""
    connection.execute("ALTER TABLE messages ADD COLUMN activity TEXT")


def _checkpoints(connection: apsw.Connection) -> None:
    """Section 16: the records of a session's folder, in the order of their events. The
    files themselves are in the data folder's `checkpoints/<session id>` git store; `tree`
    names the record there."""
    connection.execute(
        """
        CREATE TABLE checkpoints (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            reason TEXT NOT NULL
                CHECK (reason IN ('turn-start', 'revision', 'turn-end', 'restore')),
            revision INTEGER NOT NULL,
            turn_id TEXT,
            created_at TEXT NOT NULL,
            files INTEGER NOT NULL,
            partial_reason TEXT,
            tree TEXT NOT NULL,
            UNIQUE (session_id, seq)
        );
        """
    )


def _revision_diffs(connection: apsw.Connection) -> None:
    """Each revision keeps the diff computed when it was written, so the history is
    read without diffing again. Existing revisions get the diff the history gave them
    (against the stored revision before, the oldest against the empty list)."""
    connection.execute("ALTER TABLE todo_revisions ADD COLUMN diff TEXT")
    lists = TypeAdapter(tuple[m.TodoItem, ...])
    diffs = TypeAdapter(m.TodoDiff)
    rows = connection.execute(
        "SELECT session_id, revision, items FROM todo_revisions ORDER BY session_id, revision"
    ).fetchall()
    updates: list[tuple[str, object, object]] = []
    session: object = None
    previous: tuple[m.TodoItem, ...] = ()
    for session_id, revision, items in rows:
        if session_id != session:
            session, previous = session_id, ()
        current = lists.validate_json(str(items))
        diff = diffs.dump_json(diff_items(previous, current), by_alias=True).decode()
        updates.append((diff, session_id, revision))
        previous = current
    connection.executemany(
        "UPDATE todo_revisions SET diff = ? WHERE session_id = ? AND revision = ?", updates
    )


# what the search finds (the project's `sessions.search`): what the user and the agents
# said; not tool output, plans or thoughts
SEARCHED = "{row}.role IN ('user', 'assistant', 'summary') AND COALESCE({row}.kind, '') = ''"


def _search(connection: apsw.Connection) -> None:
    """A full-text index of the transcripts (FTS5, over the messages table's own text):
    kept by triggers, so in the same transaction as each message; existing transcripts
    indexed here. No column sizes: results are newest first, never ranked by bm25."""
    new, old = SEARCHED.format(row="new"), SEARCHED.format(row="old")
    connection.execute(
        f"""
        CREATE VIRTUAL TABLE messages_fts USING fts5(
            content, content='messages', content_rowid='rowid',
            tokenize='unicode61 remove_diacritics 2', columnsize=0);
        CREATE TRIGGER messages_fts_add AFTER INSERT ON messages WHEN {new} BEGIN
            INSERT INTO messages_fts(rowid, content) VALUES (new.rowid, new.content);
        END;
        CREATE TRIGGER messages_fts_drop AFTER DELETE ON messages WHEN {old} BEGIN
            INSERT INTO messages_fts(messages_fts, rowid, content)
                VALUES ('delete', old.rowid, old.content);
        END;
        CREATE TRIGGER messages_fts_drop_changed AFTER UPDATE ON messages WHEN {old} BEGIN
            INSERT INTO messages_fts(messages_fts, rowid, content)
                VALUES ('delete', old.rowid, old.content);
        END;
        CREATE TRIGGER messages_fts_add_changed AFTER UPDATE ON messages WHEN {new} BEGIN
            INSERT INTO messages_fts(rowid, content) VALUES (new.rowid, new.content);
        END;
        INSERT INTO messages_fts(rowid, content)
            SELECT rowid, content FROM messages WHERE {SEARCHED.format(row="messages")};
        """
    )


def _worktrees(connection: apsw.Connection) -> None:
    """A session's own git worktree (section 18): the worktree, shared by the session's
    forks, and the session's link to it; an attempt (one task tried by several agents),
    its runs' sessions and their checks; whether a fork was made at a message (section
    20: its agent-side session is never the agent's own fork of the whole parent)."""
    connection.execute(
        """
        CREATE TABLE worktrees (
            id TEXT PRIMARY KEY,
            repo TEXT NOT NULL,
            path TEXT NOT NULL,
            branch TEXT NOT NULL,
            base TEXT NOT NULL,
            base_commit TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('active', 'merged', 'removed')),
            created_at TEXT NOT NULL
        );
        ALTER TABLE sessions ADD COLUMN worktree_id TEXT REFERENCES worktrees(id);
        CREATE TABLE attempts (
            id TEXT PRIMARY KEY,
            cwd TEXT NOT NULL,
            text TEXT NOT NULL,
            base TEXT NOT NULL,
            base_commit TEXT NOT NULL,
            check_command TEXT,
            created_at TEXT NOT NULL
        );
        ALTER TABLE sessions ADD COLUMN attempt_id TEXT REFERENCES attempts(id);
        ALTER TABLE sessions ADD COLUMN rewound INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE attempt_checks (
            session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
            state TEXT NOT NULL,
            exit_code INTEGER,
            output TEXT NOT NULL
        );
        """
    )


MIGRATIONS: tuple[Migration, ...] = (
    Migration(20, "baseline: sessions, turns, messages", _baseline),
    Migration(21, "ADR 0312: session_todo and the checklist revision", _session_todo),
    Migration(22, "checklist history: every committed revision", _todo_history),
    Migration(23, "compaction summaries: messages may have the role 'summary'", _summaries),
    Migration(24, "a checklist write's transcript entry carries its commit", _todo_commits),
    Migration(25, "sessions on external ACP agents: agent, cwd, agent-side session", _agents),
    Migration(26, "a tool call's result carries what it did", _tool_activity),
    Migration(27, "checkpoints of a session's folder", _checkpoints),
    Migration(28, "a checklist revision keeps its diff from the write", _revision_diffs),
    Migration(29, "a full-text index of what was said, for the search", _search),
    Migration(30, "a session's own git worktree, and attempts", _worktrees),
)


def read_user_version(connection: apsw.Connection) -> int:
    row = connection.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def migrate(connection: apsw.Connection, migrations: tuple[Migration, ...], target: int) -> int:
    """Apply every step above the file's version up to `target`; return the new version."""
    current = read_user_version(connection)
    for step in sorted(migrations, key=lambda s: s.version):
        if step.version <= current or step.version > target:
            continue
        connection.execute("BEGIN IMMEDIATE")
        try:
            step.apply(connection)
            connection.execute(f"PRAGMA user_version = {int(step.version)}")
        except BaseException:
            if connection.in_transaction:  # SQLite may have rolled back already
                connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
        current = step.version
    return current
