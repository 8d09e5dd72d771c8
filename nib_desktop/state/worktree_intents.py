"""What the user asks of the shown session's own worktree (contract section 18): its
state read again, merged into its base, removed; and a task tried by several agents."""

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


@dataclass(frozen=True)
class StartAttempt:
    """One task tried by several agents at once, each in a worktree of its own from one
    base (section 18's attempts); `check` a command run in each after its turn."""

    folder: str
    text: str
    agents: tuple[str, ...]
    base: str = ""
    check: str = ""
    # the session whose composer the task came from: the images held there go with each
    # run, and its draft, when it is the task, is taken (cleared) once the runs start
    from_session: str = ""


@dataclass(frozen=True)
class RecallCheck:
    """The check command last given to an attempt on the repository of `folder` (as
    typed), offered again in the dialog."""

    folder: str


@dataclass(frozen=True)
class ReadAttempt:
    """An attempt's runs read again (its view opens)."""

    attempt_id: str


@dataclass(frozen=True)
class CompareRuns:
    """What differs from run `a`'s worktree to run `b`'s, in the Changes view, above the
    steps of `a`."""

    attempt_id: str
    a: str  # session ids
    b: str


@dataclass(frozen=True)
class RemoveRuns:
    """Every run of the attempt but `keep` removed: their worktrees and branches, with
    whatever they did not merge (the user was told what that is)."""

    attempt_id: str
    keep: str  # a session id


@dataclass(frozen=True)
class StopRuns:
    """Every running run of the attempt stopped (each its own turn, as Stop does)."""

    attempt_id: str


WorktreeIntent = (
    ReadWorktree
    | MergeWorktree
    | RemoveWorktree
    | StartAttempt
    | RecallCheck
    | ReadAttempt
    | CompareRuns
    | RemoveRuns
    | StopRuns
)
