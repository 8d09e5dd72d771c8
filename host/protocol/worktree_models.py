"""Contract section 18's wire types, first half: a session's own git worktree, its state
against its base, and merging it back or removing it. Reached as `models.X`, like every
wire type."""

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from host.protocol.checkpoint_models import FileChange
from host.protocol.wire import Id, Switch, Wire

GitName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=250)]
WorktreeState = Literal["active", "merged", "removed"]
MergeHow = Literal["squash", "merge", "rebase"]
KeepOrRemove = Literal["keep", "remove"]


class WorktreeRequest(Wire):
    """`sessions.create`'s `worktree`: a new worktree and branch for the session, made
    from `base` (default: the branch checked out in `cwd`, else its HEAD commit)."""

    base: GitName | None = None
    branch: GitName | None = None
    carry: Switch = False


class Worktree(Wire):
    repo: str  # the main work tree's folder
    path: str
    branch: str
    base: str
    base_commit: str  # the commit it was made from
    state: WorktreeState


class WorktreeStatus(Wire):
    session_id: str
    branch: str
    base: str
    base_commit: str
    head: str  # the branch's commit
    base_head: str  # the base's commit now
    ahead: int
    behind: int
    dirty: bool  # uncommitted changes in the worktree
    files: tuple[FileChange, ...]  # the base's merge base -> the worktree's files now
    conflicts: tuple[str, ...]  # paths a merge into the base now would conflict on


class MergeParams(Wire):
    session_id: Id
    how: MergeHow = "squash"
    message: Annotated[str, StringConstraints(max_length=100_000)] | None = None


class Merged(Wire):
    commit: str  # the base branch's new commit
    status: WorktreeStatus


class RemoveWorktreeParams(Wire):
    session_id: Id
    keep_branch: Switch = False
    force: Switch = False


class RemovedWorktree(Wire):
    removed: str  # the folder


class DeleteParams(Wire):
    """`sessions.delete`: of a session whose worktree is active, `worktree` says whether
    the worktree goes with it ("remove") or is left to git ("keep")."""

    session_id: Id
    worktree: KeepOrRemove | None = Field(default=None)


class RewindParams(Wire):
    """`sessions.rewind` (section 20): a fork of the session up to before one of the
    user's messages; with `files` the folder restored to that turn's start; with `text`
    a turn started in the fork with it."""

    session_id: Id
    message_id: Id
    text: Annotated[str, StringConstraints(min_length=1, max_length=100_000)] | None = None
    files: Switch = False
