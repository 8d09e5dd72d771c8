"""Contract section 18's wire types, second half: one task tried by several agents, each
run in its own worktree from one base commit, compared, one kept. Reached as `models.X`,
like every wire type."""

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from host.protocol.checkpoint_models import FileChange
from host.protocol.control_models import Usage
from host.protocol.turn_models import Attachment, Turn, UserText
from host.protocol.wire import Id, Wire
from host.protocol.worktree_models import GitName

AgentRef = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Argument = Annotated[str, StringConstraints(max_length=4096)]
CheckState = Literal["pending", "running", "passed", "failed", "error"]
MAX_CHECK_OUTPUT = 8 * 1024  # the end of a check's output kept


class AttemptStartParams(Wire):
    cwd: Annotated[str, StringConstraints(min_length=1, max_length=4096)]
    text: UserText
    agents: tuple[AgentRef, ...] = Field(min_length=2, max_length=6)
    base: GitName | None = None
    check: tuple[Argument, ...] | None = Field(default=None, min_length=1, max_length=100)
    attachments: tuple[Attachment, ...] = Field(default=(), max_length=20)


class CheckResult(Wire):
    command: tuple[str, ...]
    state: CheckState
    exit_code: int | None
    output: str  # its last MAX_CHECK_OUTPUT bytes, as text


class Progress(Wire):
    completed: int
    total: int


class AttemptRun(Wire):
    session_id: str
    agent: str
    turn: Turn | None  # its latest
    todos: Progress
    files: int
    additions: int
    deletions: int
    usage: Usage | None
    duration_ms: int | None  # its turn's start to end
    check: CheckResult | None


class Attempt(Wire):
    attempt_id: str
    cwd: str
    text: str
    base: str
    base_commit: str
    created_at: str
    sessions: tuple[AttemptRun, ...]


class AttemptRef(Wire):
    attempt_id: Id


class AttemptList(Wire):
    attempts: tuple[Attempt, ...]


class CompareParams(Wire):
    attempt_id: Id
    a: Id
    b: Id


class Compared(Wire):
    files: tuple[FileChange, ...]
