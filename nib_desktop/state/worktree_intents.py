"""What the user asks of the shown session's own worktree (contract section 18): its
state read again, merged into its base, removed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadWorktree:
    pass


@dataclass(frozen=True)
class MergeWorktree:
    how: str = "squash"  # "squash", "merge" or "rebase"
    message: str = ""  # "": the session's title and its checklist


@dataclass(frozen=True)
class RemoveWorktree:
    force: bool = False  # unmerged work goes too


WorktreeIntent = ReadWorktree | MergeWorktree | RemoveWorktree
