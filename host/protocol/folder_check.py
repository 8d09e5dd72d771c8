"""A folder as a user types it for a session ("~/src/app"), checked where it would be
used: what is wrong with it in words, and whether it is in a git work tree; a host
checks one of its machine for `folders.check` (a remote host's, on its machine: section
19). The window checks a folder of its own machine with the same words
(`ui.views.sessions`: the window's views import nothing of the host)."""

from __future__ import annotations

from pathlib import Path


def folder_problem(typed: str) -> str:
    """What is wrong with `typed` as a session's folder, in words ("" for nothing; a
    blank folder is the home folder)."""
    if not typed.strip():
        return ""
    where = Path(typed.strip()).expanduser()
    if not where.is_absolute():
        return "Give the whole path: from / or ~"
    if not where.exists():
        return f"There is no folder {typed.strip()}"
    return "" if where.is_dir() else f"{typed.strip()} is a file, not a folder"


def in_repository(typed: str) -> bool:
    """The folder as typed is inside a git work tree (a `.git` in it or above it)."""
    where = Path(typed.strip()).expanduser() if typed.strip() else None
    if where is None or not where.is_absolute() or not where.is_dir():
        return False
    return any((folder / ".git").exists() for folder in (where, *where.parents))
