"""The host holds its database exclusively while it runs (see `host.store.db._own`), so a
test that looks into the file of a running host reads a copy of it: the database and its
WAL, copied together; SQLite rebuilds the WAL index of the copy when it opens it."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import apsw

from host.store.db import DB_FILENAME


@contextmanager
def database_copy(data_dir: Path) -> Iterator[apsw.Connection]:
    with tempfile.TemporaryDirectory(prefix="nib-db-copy-") as folder:
        for suffix in ("", "-wal"):
            source = data_dir / (DB_FILENAME + suffix)
            if source.exists():
                shutil.copyfile(source, Path(folder) / source.name)
        connection = apsw.Connection(str(Path(folder) / DB_FILENAME))
        try:
            yield connection
        finally:
            connection.close()
