"""What goes wrong with a session's folder or its store, in words."""

from __future__ import annotations

from host.protocol.checkpoint_models import CheckpointFailed, CheckpointReason
from host.store.errors import StorageFailure


class FolderError(Exception):
    """The folder or its store cannot be read or written; the message says why."""


class FolderGone(FolderError):
    """The folder no longer exists."""


def failure(
    session_id: str, reason: CheckpointReason, turn_id: str | None, exc: Exception
) -> CheckpointFailed:
    """A checkpoint not taken, as `checkpoints.failed` tells it: why, in words."""
    why = exc.reason if isinstance(exc, StorageFailure) and exc.reason else str(exc)
    return CheckpointFailed(session_id=session_id, reason=reason, turn_id=turn_id, error=why[:1000])
