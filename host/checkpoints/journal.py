"""A restore under way, written down in the session's store (`nib-restoring.json`) before
its first write into the folder and removed after its last: a restore that a kill stopped
part-way is carried out again, whole, when the host starts next
(`restoring.recover`), and the session's transcript says so. The files a restore writes
go through temporary files beside them (`writer.write_back`); those a kill left behind
are removed then too. A finishing's journal is removed last, after it is said: a kill
before that finishes and says it again."""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

JOURNAL = "nib-restoring.json"
# a temporary file of the writer's: ".<name>.<8 hex digits>.nib-restore"
LEFTOVER = re.compile(r"^\..+\.[0-9a-f]{8}\.nib-restore$")


@dataclass(frozen=True)
class Underway:
    cwd: str  # the folder restored
    now: str  # the record taken just before (the restore's "restore" checkpoint)
    then: str  # the record the folder is made as
    paths: list[str] | None  # only these (None: every file)


def begin(root: Path, underway: Underway) -> None:
    """Written whole and synced before the restore's first write."""
    temporary = root / f"{JOURNAL}.tmp"
    body = json.dumps(underway.__dict__, ensure_ascii=False).encode("utf-8", "surrogateescape")
    with temporary.open("wb") as handle:
        handle.write(body)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, root / JOURNAL)


def end(root: Path) -> None:
    (root / JOURNAL).unlink(missing_ok=True)


def underway(root: Path) -> Underway | None:
    """The restore a kill stopped, if any (a journal that cannot be read is dropped: it
    was being written, so no write of that restore had begun)."""
    try:
        told = json.loads((root / JOURNAL).read_bytes().decode("utf-8", "surrogateescape"))
        paths = told["paths"]
        return Underway(str(told["cwd"]), str(told["now"]), str(told["then"]), paths)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        end(root)
        return None


def sweep(cwd: Path, names: list[str]) -> None:
    """The writer's temporary files left beside `names` (each folder read once)."""
    real = cwd.resolve()
    for folder in sorted({(cwd / name).parent for name in names}):
        if not folder.resolve().is_relative_to(real):  # a link out of the folder
            continue
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                if LEFTOVER.match(entry.name) and entry.is_file(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
