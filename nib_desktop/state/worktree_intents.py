"""What the user asks of the shown session's own worktree (contract section 18): its
state read again, merged into its base, removed; and a task tried by several agents."""

from __future__ import annotations

from nib_desktop.state.record import Record


class ReadWorktree(Record):
    pass


class MergeWorktree(Record):
    how: str = "squash"  # "squash", "merge" or "rebase"
    message: str = ""  # "": the session's title and its checklist


class RemoveWorktree(Record):
    force: bool = False  # unmerged work goes too


class StartAttempt(Record):
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


class RecallCheck(Record):
    """The check command last given to an attempt on the repository of `folder` (as
    typed), offered again in the dialog."""

    folder: str


class ReadAttempt(Record):
    """An attempt's runs read again (its view opens)."""

    attempt_id: str


class CompareRuns(Record):
    """What differs from run `a`'s worktree to run `b`'s, in the Changes view, above the
    steps of `a`."""

    attempt_id: str
    a: str  # session ids
    b: str


class RemoveRuns(Record):
    """Every run of the attempt but `keep` removed: their worktrees and branches, with
    whatever they did not merge (the user was told what that is)."""

    attempt_id: str
    keep: str  # a session id


class StopRuns(Record):
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
