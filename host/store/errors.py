"""Storage errors, classified once.

An environment error (a full disk, a read-only file, a lock held elsewhere, a damaged
file, an I/O failure) gets one readable sentence for the user; anything else raised by
SQLite is a bug in the host, to be logged with its traceback and answered as an internal
error. Nothing above the store sees apsw: the store's `Database` raises `StorageFailure`,
which carries that classification.
"""

from __future__ import annotations

import apsw

_ENVIRONMENT: tuple[tuple[type[apsw.Error], str], ...] = (
    (apsw.FullError, "the disk is full"),
    (apsw.ReadOnlyError, "the database is read-only"),
    (apsw.BusyError, "the database is locked by another program"),
    (apsw.LockedError, "the database is locked by another program"),
    (apsw.NotADBError, "the database file is not an SQLite database"),
    (apsw.CorruptError, "the database file is damaged"),
    (apsw.PermissionsError, "the database file may not be read or written"),
    (apsw.CantOpenError, "the database file cannot be opened"),
    (apsw.IOError, "the disk reported an input/output error"),
)


def environment_problem(exc: BaseException) -> str | None:
    """The readable reason if `exc` comes from the environment; None if it is a bug."""
    for kind, reason in _ENVIRONMENT:
        if isinstance(exc, kind):
            return reason
    return None


class StorageFailure(Exception):
    """SQLite failed while the host used the database (the transaction, if any, rolled
    back). `reason`: one readable sentence when the environment is at fault, None when it
    is a bug, whose traceback (chained) belongs in the log; `kind`: SQLite's error class."""

    def __init__(self, exc: apsw.Error) -> None:
        self.reason = environment_problem(exc)
        self.kind = type(exc).__name__
        super().__init__(self.reason or f"{self.kind}: {exc}")
