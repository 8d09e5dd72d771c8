"""The Changes view's state (contract section 16): what a session's steps, its last turn
and the whole session changed in its folder, as the Main role loaded it, and what a
restore left to undo. Pure values and functions, no Qt."""

from nib_desktop.state.tuples import NamedTuple


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


class RestoreQuestion(NamedTuple):
    """A restore asked about: where it goes back to, and what it will do, in words; or one
    part of a file's change to revert (`hunk` from 0, the change ending at `to_id`)."""

    checkpoint_id: str
    paths: tuple[str, ...] | None
    words: str
    hunk: int = -1
    to_id: str = ""


class Changes(NamedTuple):
    session_id: str | None = None  # open on this session, or closed
    scopes: tuple[Scope, ...] = ()
    note: str = ""  # why there is nothing to show, in words
    loading: bool = False
    undo_id: str = ""  # the checkpoint the last restore took first: "Undo" goes back to it
    undo_words: str = ""  # what that restore did
    question: RestoreQuestion | None = None  # a restore asked about, waiting for a yes
    # shown first and kept when the view loads again: two runs of an attempt compared
    pinned: tuple[Scope, ...] = ()


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


SHOWN_NAMES = 10  # names said of each kind; past them, how many more


def _names(kind: str, names: list[str]) -> str:
    noun = "file" if len(names) == 1 else "files"
    shown = ", ".join(names[:SHOWN_NAMES])
    more = f" and {len(names) - SHOWN_NAMES:,} more" if len(names) > SHOWN_NAMES else ""
    return f"{kind} {len(names):,} {noun}: {shown}{more}"


def restore_question(title: str, since: tuple[FileDiff, ...], paths: tuple[str, ...] | None) -> str:
    """What a restore to before `title` will do, whole: `since` is what differs from that
    checkpoint to the folder now (`changes.get` without `to`), so every file the restore
    writes back, makes again or removes is named ("" when it would change nothing)."""
    writes: list[str] = []
    makes: list[str] = []
    removes: list[str] = []
    for f in since:
        if paths is not None and f.path not in paths and f.old_path not in paths:
            continue
        if f.status == "added":
            removes.append(f.path)
        elif f.status == "deleted":
            makes.append(f.path)
        elif f.status == "renamed":
            removes.append(f.path)
            makes.append(f.old_path)
        else:
            writes.append(f.path)
    parts = [
        _names(kind, names)
        for kind, names in (("writes back", writes), ("makes again", makes), ("removes", removes))
        if names
    ]
    if not parts:
        return ""
    where = "the folder" if paths is None else "this file"
    return f"Restore {where} to before “{title}”? It {'; it '.join(parts)}. It can be undone."
