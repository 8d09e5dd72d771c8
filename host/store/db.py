"""Opening the database (pragmas on every connection, typed storage errors) and using it:
`Database` is the only way the rest of the host reaches SQLite, and every apsw error it
meets leaves it as a `StorageFailure`."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import apsw

from host.protocol import SCHEMA_VERSION
from host.store.errors import StorageFailure, environment_problem
from host.store.migrations import MIGRATIONS, Migration, migrate, read_user_version

DB_FILENAME = "nib.sqlite3"
BUSY_TIMEOUT_MS = 5_000


class StorageError(Exception):
    """The environment keeps the database from being used (a file that is not a database,
    a folder that cannot be written, a full disk). The message is one readable line."""


class SchemaTooNew(StorageError):
    """The file was written by a newer host; it is left untouched."""


Bindings = Sequence[Any] | Mapping[str, Any]


class Rows:
    """A statement's rows, read as they are asked for (a page can stop early)."""

    def __init__(self, cursor: apsw.Cursor) -> None:
        self._cursor = cursor

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        try:
            return next(self._cursor)
        except apsw.Error as exc:
            raise StorageFailure(exc) from exc

    def fetchone(self) -> Any:
        return next(self, None)

    def fetchall(self) -> list[Any]:
        return list(self)


class Database:
    """One connection as the services use it."""

    def __init__(self, connection: apsw.Connection) -> None:
        self._connection = connection

    def execute(self, sql: str, bindings: Bindings = ()) -> Rows:
        try:
            return Rows(self._connection.execute(sql, bindings))
        except apsw.Error as exc:
            raise StorageFailure(exc) from exc

    def executemany(self, sql: str, rows: Iterable[Bindings]) -> None:
        try:
            for _ in self._connection.executemany(sql, rows):
                pass
        except apsw.Error as exc:
            raise StorageFailure(exc) from exc

    def changes(self) -> int:
        return int(self._connection.changes())

    @property
    def in_transaction(self) -> bool:
        return bool(self._connection.in_transaction)

    def close(self) -> None:
        self._connection.close()


def connect(path: Path) -> apsw.Connection:
    """A connection with the project's pragmas; the file must already be migrated or new."""
    connection = apsw.Connection(str(path))
    connection.set_busy_timeout(BUSY_TIMEOUT_MS)
    connection.execute("PRAGMA foreign_keys = ON")
    _own(connection)
    connection.execute("PRAGMA journal_mode = WAL")
    # Every acknowledged checklist revision must survive power loss: in WAL mode FULL
    # syncs the log on each commit (NORMAL could lose the last commits).
    connection.execute("PRAGMA synchronous = FULL")
    return connection


def _own(connection: apsw.Connection) -> None:
    """The host is the file's only user (one host per folder, `host.lock`), so it holds
    the file exclusively from its first read. In WAL mode that keeps the WAL index in the
    host's own memory: SQLite then never maps a `-shm` file, and nobody can make a mapped
    write kill the host (SIGBUS) by making that file immutable or truncating it while the
    host runs. Set before anything reads the file, as SQLite requires."""
    connection.execute("PRAGMA locking_mode = EXCLUSIVE")


def open_database(
    data_dir: Path,
    migrations: tuple[Migration, ...] = MIGRATIONS,
    target: int = SCHEMA_VERSION,
) -> Database:
    """Open (creating if needed) and migrate the database in `data_dir`.

    Raises SchemaTooNew for a file newer than `target` before anything is written to it,
    and StorageError for anything else in the way.
    """
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create data directory {data_dir}: {exc.strerror}") from None
    if not os.access(data_dir, os.W_OK | os.X_OK):
        raise StorageError(f"data directory {data_dir} is not writable")
    path = data_dir / DB_FILENAME
    _check_side_files(path)
    try:
        probe = apsw.Connection(
            str(path), flags=apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
        )
        try:
            _own(probe)
            version = read_user_version(probe)
        finally:
            probe.close()
        if version > target:
            raise SchemaTooNew(
                f"database {path} has schema version {version}, newer than this host's {target}; "
                "it was left untouched"
            )
        connection = connect(path)
        check_integrity(connection, path)
        migrate(connection, migrations, target)
        return Database(connection)
    except apsw.Error as exc:
        reason = environment_problem(exc)
        if reason is None:
            raise
        raise StorageError(f"cannot use {path}: {reason}") from None


def _check_side_files(path: Path) -> None:
    """The WAL must be writable: one that is not (immutable, on a read-only mount) is
    refused here, in words, instead of at the first write. A `-shm` file is never used
    (see `_own`), whatever its state."""
    for suffix in ("-wal",):
        side = path.with_name(path.name + suffix)
        if not os.path.lexists(side):
            continue
        try:
            fd = os.open(side, os.O_RDWR)
        except OSError as exc:
            raise StorageError(
                f"cannot use {path}: its file {side.name} cannot be written ({exc.strerror})"
            ) from None
        os.close(fd)


def check_integrity(connection: apsw.Connection, path: Path) -> None:
    """`PRAGMA quick_check` at start: a damaged file is refused before anything is
    written to it (StorageError with SQLite's first finding)."""
    rows = connection.execute("PRAGMA quick_check(1)").fetchall()
    finding = " ".join(str(rows[0][0]).split()) if rows else "no answer"
    if finding != "ok":
        connection.close()
        raise StorageError(f"cannot use {path}: the database file is damaged ({finding})")


def running_turn(sessions_alias: str) -> str:
    """SQL for the id of the running turn (or NULL) of the row `sessions_alias`."""
    return (
        f"(SELECT t.id FROM turns t WHERE t.session_id = {sessions_alias}.id"
        " AND t.state = 'running')"
    )


@contextlib.contextmanager
def immediate(connection: Database) -> Iterator[None]:
    """One write transaction (BEGIN IMMEDIATE): committed on success, rolled back on any
    exception, which is then re-raised."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
        connection.execute("COMMIT")
    except BaseException:
        # SQLite rolls back by itself on some errors (a full disk, I/O): a ROLLBACK then
        # would fail and hide the error that matters. A failed COMMIT is rolled back here.
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
