"""Storage errors, classified once.

An environment error (a full disk, a read-only file, a lock held elsewhere, a damaged
file, an I/O failure) gets one readable sentence for the user; anything else raised by
SQLite is a bug in the host, to be logged with its traceback and answered as an internal
error. Every layer that meets an apsw error asks `environment_problem`.
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
