"""Contract section 16's wire types: checkpoints of a session's folder and what changed
between them. Reached as `models.X`, like every wire type."""

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from host.protocol.wire import Id, Wire

# --- section 16: checkpoints of a session's folder and what changed between them ---------

CheckpointReason = Literal["turn-start", "revision", "turn-end", "restore"]
ChangeStatus = Literal["added", "modified", "deleted", "renamed"]


class Checkpoint(Wire):
    id: str
    session_id: str
    reason: CheckpointReason
    revision: int
    turn_id: str | None
    created_at: str
    files: int
    partial: bool
    partial_reason: str | None


class FileChange(Wire):
    path: str
    old_path: str | None
    status: ChangeStatus
    binary: bool
    additions: int
    deletions: int
    diff: str
    truncated: bool


class CheckpointListParams(Wire):
    session_id: Id
    before_id: Id | None = None
    limit: Annotated[int, Field(strict=True, ge=1, le=200)] = 100


class CheckpointList(Wire):
    checkpoints: tuple[Checkpoint, ...]
    has_more: bool


class ChangesGetParams(Wire):
    session_id: Id
    from_: Id = Field(alias="from")
    to: Id | None = None


class Changes(Wire):
    from_: Checkpoint = Field(alias="from")
    to: Checkpoint | None
    files: tuple[FileChange, ...]


class ChangesStepParams(Wire):
    session_id: Id
    content: str = Field(min_length=1, max_length=10_000)


RelativePath = Annotated[str, StringConstraints(min_length=1, max_length=4096)]


class RestoreParams(Wire):
    session_id: Id
    checkpoint_id: Id
    paths: tuple[RelativePath, ...] | None = Field(default=None, max_length=20_000)


class RevertHunkParams(Wire):
    """`changes.revertHunk` (the project's): the `hunk`-th hunk (from 0) of `path`'s diff
    from `from` to `to` (or the folder now), undone in the file as it is now."""

    session_id: Id
    from_: Id = Field(alias="from")
    to: Id | None = None
    path: RelativePath
    hunk: int = Field(ge=0, le=100_000)


class Restored(Wire):
    """`restored`: the paths written, made or removed; `skipped`: files the checkpoint
    records that are on disk but could not be recorded first (over the size limit now,
    ignored now), left as they are so that an undo gives back everything."""

    checkpoint: Checkpoint
    restored: tuple[str, ...]
    skipped: tuple[str, ...] = ()


class CheckpointChanged(Wire):
    session_id: str
    checkpoint: Checkpoint


class CheckpointFailed(Wire):
    """The project's `checkpoints.failed`: a checkpoint the host could not take (the
    disk full, the folder unreadable), why in words; told, never stored (a full disk
    could not store it)."""

    session_id: str
    reason: CheckpointReason
    turn_id: str | None
    error: str
