"""The Changes view's state (contract section 16): what a session's steps, its last turn
and the whole session changed in its folder, as the Main role loaded it, and what a
restore left to undo. Pure values and functions, no Qt."""

from __future__ import annotations

from typing import NamedTuple


class FileDiff(NamedTuple):
    path: str
    old_path: str  # "" unless renamed
    status: str  # added, modified, deleted, renamed
    additions: int
    deletions: int
    binary: bool
    diff: str
    truncated: bool


class Scope(NamedTuple):
    """One span of the session's work: its name, the checkpoint it starts from (a
    restore goes back to it) and the files changed since."""

    title: str
    from_id: str
    files: tuple[FileDiff, ...]
    running: bool = False  # it runs still: compared with the folder now
    to_id: str = ""  # the checkpoint it ends at ("": the folder now)


class Changes(NamedTuple):
    session_id: str | None = None  # open on this session, or closed
    scopes: tuple[Scope, ...] = ()
    note: str = ""  # why there is nothing to show, in words
    loading: bool = False
    undo_id: str = ""  # the checkpoint the last restore took first: "Undo" goes back to it
    undo_words: str = ""  # what that restore did


def counts(files: tuple[FileDiff, ...]) -> str:
    """ "3 files +12 -4" as the window writes it (binary files add no lines)."""
    if not files:
        return "no changes"
    added = sum(f.additions for f in files)
    removed = sum(f.deletions for f in files)
    noun = "file" if len(files) == 1 else "files"
    return f"{len(files)} {noun} +{added} −{removed}"


def file_line(change: FileDiff) -> str:
    """ "modified  app.py  +1 -1" as the window writes it, a rename with its old name."""
    name = f"{change.old_path} → {change.path}" if change.old_path else change.path
    lines = "binary" if change.binary else f"+{change.additions} −{change.deletions}"
    return f"{change.status}  {name}  {lines}"


def restore_words(scope: Scope, paths: tuple[str, ...] | None = None) -> str:
    """What a restore to before `scope` will change, said before it is done."""
    names = [f.path for f in scope.files] if paths is None else list(paths)
    for f in scope.files:  # a rename puts its old name back as well
        if f.old_path and f.path in names:
            names.append(f.old_path)
    if not names:
        return "Nothing to restore: the folder has no changes since then."
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8:,} more" if len(names) > 8 else "")
    where = "the folder" if paths is None else "this file"
    return f"Restore {where} to before “{scope.title}”? This changes {shown}. It can be undone."
