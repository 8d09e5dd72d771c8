"""A session's own git worktree as the window knows it (contract section 18): its branch
against its base, told by `worktrees.changed`. Plain values, no Qt, nothing of the host."""

from __future__ import annotations

from typing import NamedTuple


class WorktreeView(NamedTuple):
    session_id: str
    branch: str
    base: str
    ahead: int
    behind: int
    dirty: bool  # uncommitted changes in the worktree
    files: int  # files the branch changed against its base
    conflicts: tuple[str, ...]  # files a merge into the base would conflict on now


class WorktreeTold(NamedTuple):
    """The host told a worktree's state (`worktrees.changed`)."""

    worktree: WorktreeView
