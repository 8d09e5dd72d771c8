"""The contract's wire models without pydantic, for the window (see `host.protocol.plain`).

Written by `python -m host.protocol.plain_gen` from `host.protocol.models`:
not to be edited; a test checks that it is what they give."""

from typing import Literal

from host.protocol.plain import Plain as Plain

MAX_CHECK_OUTPUT = 8192
MAX_APPROVAL_OPTIONS = 16
OPTION_DECISION = {
    "allow_once": "allow_once",
    "allow_always": "allow_session",
    "reject_once": "deny",
    "reject_always": "deny",
}
MAX_TOOL_IMAGE = 262144
MAX_TOOL_IMAGES = 4
MAX_TOOL_TEXT = 262144
HOST_RESTARTED = "host restarted"
MAX_IMAGE_BYTES = 6291456
MAX_WIRE_INT = 4611686018427387904
NIB_AGENT = "nib"

AgentState = Literal["idle", "starting", "ready", "failed"]
CheckState = Literal["pending", "running", "passed", "failed", "error"]
ChangeStatus = Literal["added", "modified", "deleted", "renamed"]
CheckpointReason = Literal["turn-start", "revision", "turn-end", "restore"]
Appearance = Literal["system", "light", "dark"]
TodoStatus = Literal["pending", "in_progress", "completed", "cancelled"]
Decision = Literal["allow_once", "allow_session", "deny"]
OptionKind = Literal["allow_once", "allow_always", "reject_once", "reject_always"]
ServerState = Literal["starting", "ready", "failed", "disabled"]
ImageType = Literal["image/png", "image/jpeg", "image/gif", "image/webp"]
MessageKind = Literal["thought", "plan"]
Role = Literal["user", "assistant", "tool", "summary"]
ToolStatus = Literal["pending", "in_progress", "completed", "failed"]
TurnState = Literal["running", "completed", "failed", "cancelled"]
KeepOrRemove = Literal["keep", "remove"]
MergeHow = Literal["squash", "merge", "rebase"]
WorktreeState = Literal["active", "merged", "removed"]
Mode = Literal["agent", "plan", "goal"]
Origin = Literal["local", "remote"]
RemoteState = Literal["connected", "connecting", "unreachable"]


class AgentInfo(Plain):
    name: str
    version: str


class AgentEntry(Plain):
    name: str
    command: str
    state: AgentState
    error: str | None
    agent_info: AgentInfo | None


class AgentSessionInfo(Plain):
    agent_session_id: str
    title: str | None
    cwd: str
    updated_at: str | None
    imported: str | None


class AgentSessions(Plain):
    sessions: tuple[AgentSessionInfo, ...]
    next_cursor: str | None


class AgentSessionsParams(Plain):
    agent: str
    cwd: str | None = None
    cursor: str | None = None


class AgentsList(Plain):
    agents: tuple[AgentEntry, ...]


class ImportParams(Plain):
    agent: str
    agent_session_id: str
    cwd: str


class AgentAnswered(Plain):
    ask_id: str
    session_id: str
    action: Literal["accept", "decline", "cancel"]


class AskField(Plain):
    name: str
    title: str
    description: str = ""
    kind: Literal["text", "number", "integer", "boolean", "choice"]
    required: bool = False
    default: str | None = None
    choices: tuple[str, ...] = ()


class AgentAsked(Plain):
    ask_id: str
    session_id: str
    turn_id: str | None
    message: str
    url: str | None = None
    fields: tuple[AskField, ...] = ()


class AnswerParams(Plain):
    ask_id: str
    action: Literal["accept", "decline", "cancel"]
    values: dict[str, str | float | bool] = {}


class Turn(Plain):
    id: str
    session_id: str
    state: TurnState
    error: str | None
    started_at: str
    finished_at: str | None

    @property
    def interrupted(self) -> bool:
        """Ended because its host stopped under it (section 8), not by its own failure."""
        return self.state == "failed" and self.error == HOST_RESTARTED


class Progress(Plain):
    completed: int
    total: int


class Cost(Plain):
    amount: float
    currency: str


class Usage(Plain):
    used: int | None = None
    size: int | None = None
    cost: Cost | None = None


class CheckResult(Plain):
    command: tuple[str, ...]
    state: CheckState
    exit_code: int | None
    output: str


class AttemptRun(Plain):
    session_id: str
    agent: str
    turn: Turn | None
    todos: Progress
    files: int
    additions: int
    deletions: int
    usage: Usage | None
    duration_ms: int | None
    check: CheckResult | None


class Attempt(Plain):
    attempt_id: str
    cwd: str
    text: str
    base: str
    base_commit: str
    created_at: str
    sessions: tuple[AttemptRun, ...]


class AttemptList(Plain):
    attempts: tuple[Attempt, ...]


class AttemptRef(Plain):
    attempt_id: str


class FileAttachment(Plain):
    type: Literal["file"]
    path: str


class ImageAttachment(Plain):
    type: Literal["image"]
    mime_type: str
    data: str


class AttemptStartParams(Plain):
    cwd: str
    text: str
    agents: tuple[str, ...]
    base: str | None = None
    check: tuple[str, ...] | None = None
    attachments: tuple[FileAttachment | ImageAttachment, ...] = ()


class FileChange(Plain):
    path: str
    old_path: str | None
    status: ChangeStatus
    binary: bool
    additions: int
    deletions: int
    diff: str
    truncated: bool


class Compared(Plain):
    files: tuple[FileChange, ...]


class CompareParams(Plain):
    attempt_id: str
    a: str
    b: str


class Checkpoint(Plain):
    id: str
    session_id: str
    reason: CheckpointReason
    revision: int
    turn_id: str | None
    created_at: str
    files: int
    partial: bool
    partial_reason: str | None


class Changes(Plain):
    from_: Checkpoint
    to: Checkpoint | None
    files: tuple[FileChange, ...]


class ChangesGetParams(Plain):
    session_id: str
    from_: str
    to: str | None = None


class ChangesStepParams(Plain):
    session_id: str
    content: str


class CheckpointChanged(Plain):
    session_id: str
    checkpoint: Checkpoint


class CheckpointFailed(Plain):
    session_id: str
    reason: CheckpointReason
    turn_id: str | None
    error: str


class CheckpointList(Plain):
    checkpoints: tuple[Checkpoint, ...]
    has_more: bool


class CheckpointListParams(Plain):
    session_id: str
    before_id: str | None = None
    limit: int = 100


class Restored(Plain):
    checkpoint: Checkpoint
    restored: tuple[str, ...]
    skipped: tuple[str, ...] = ()


class RestoreParams(Plain):
    session_id: str
    checkpoint_id: str
    paths: tuple[str, ...] | None = None


class RevertHunkParams(Plain):
    session_id: str
    from_: str
    to: str | None = None
    path: str
    hunk: int


class ModeInfo(Plain):
    id: str
    name: str
    description: str = ""


class Modes(Plain):
    current: str
    available: tuple[ModeInfo, ...]


class Choice(Plain):
    value: str
    name: str
    description: str = ""


class OptionInfo(Plain):
    id: str
    name: str
    category: str | None = None
    type: Literal["select", "boolean"]
    current: str | bool
    choices: tuple[Choice, ...] = ()


class CommandInfo(Plain):
    name: str
    description: str = ""
    hint: str | None = None


class PromptKinds(Plain):
    image: bool = False
    audio: bool = False
    embedded_context: bool = False


class TerminalSignIn(Plain):
    command: tuple[str, ...]
    env: dict[str, str] = {}


class AuthInfo(Plain):
    id: str
    name: str
    description: str = ""
    terminal: TerminalSignIn | None = None


class AgentControls(Plain):
    session_id: str
    modes: Modes | None = None
    options: tuple[OptionInfo, ...] = ()
    commands: tuple[CommandInfo, ...] = ()
    prompt: PromptKinds = PromptKinds(image=False, audio=False, embedded_context=False)
    usage: Usage | None = None
    auth_methods: tuple[AuthInfo, ...] = ()


class AuthenticateParams(Plain):
    agent: str
    method_id: str


class SessionUsage(Plain):
    session_id: str
    used: int
    size: int


class SetModeParams(Plain):
    session_id: str
    mode_id: str


class SetOptionParams(Plain):
    session_id: str
    option_id: str
    value: str | bool


class Exported(Plain):
    path: str
    bytes: int


class ExportParams(Plain):
    session_id: str
    path: str
    replace: bool = False


class RenameParams(Plain):
    session_id: str
    title: str


class SearchHit(Plain):
    session_id: str
    title: str
    message_id: str | None
    seq: int | None
    role: Literal["user", "assistant", "summary"] | None
    created_at: str
    snippet: str
    marks: tuple[tuple[int, int], ...]


class SearchParams(Plain):
    query: str
    limit: int = 50


class SearchResults(Plain):
    hits: tuple[SearchHit, ...]


class DesktopChange(Plain):
    title_progress: bool | None = None
    badge: bool | None = None
    launcher_progress: bool | None = None
    notifications: bool | None = None
    attention: bool | None = None
    appearance: Appearance | None = None
    reduced_motion: bool | None = None


class DesktopSettings(Plain):
    title_progress: bool = True
    badge: bool = True
    launcher_progress: bool = True
    notifications: bool = True
    attention: bool = True
    appearance: Appearance = "system"
    reduced_motion: bool = False


class ServerSwitch(Plain):
    name: str
    disabled: bool


class SettingsSetParams(Plain):
    desktop: DesktopChange | None = None
    server: ServerSwitch | None = None


class SettingsView(Plain):
    desktop: DesktopSettings


class StatusChange(Plain):
    content: str
    from_: TodoStatus
    to: TodoStatus


class TodoDiff(Plain):
    added: tuple[str, ...] = ()
    completed_removed: tuple[str, ...] = ()
    dropped_unfinished: tuple[str, ...] = ()
    status_changed: tuple[StatusChange, ...] = ()
    reordered: bool = False


class TodoCommit(Plain):
    revision: int
    items: int
    diff: TodoDiff


class TodoItem(Plain):
    content: str
    status: TodoStatus
    active_form: str | None = None


class TodoRevision(Plain):
    session_id: str
    revision: int
    turn_id: str | None
    created_at: str
    items: tuple[TodoItem, ...]
    diff: TodoDiff


class TodoSnapshot(Plain):
    session_id: str
    revision: int
    updated_at: str | None
    items: tuple[TodoItem, ...]


class ApprovalOption(Plain):
    option_id: str
    name: str
    kind: OptionKind


class ToolDiff(Plain):
    path: str
    old_text: str | None = None
    new_text: str
    truncated: bool = False
    line: int | None = None


class ToolLocation(Plain):
    path: str
    line: int | None = None


class ToolImage(Plain):
    mime_type: ImageType
    data: str


class ToolActivity(Plain):
    kind: str | None = None
    status: ToolStatus = "completed"
    diffs: tuple[ToolDiff, ...] = ()
    output: str = ""
    truncated: bool = False
    locations: tuple[ToolLocation, ...] = ()
    images: tuple[ToolImage, ...] = ()


class ApprovalRequested(Plain):
    approval_id: str
    session_id: str
    turn_id: str
    tool: str
    arguments: str
    options: tuple[ApprovalOption, ...] = ()
    activity: ToolActivity | None = None


class ApprovalResolved(Plain):
    approval_id: str
    decision: Literal["allow_once", "allow_session", "deny", "cancelled"]


class ApprovalRespondParams(Plain):
    approval_id: str
    decision: Decision
    option_id: str | None = None


class ToolInfo(Plain):
    name: str
    description: str


class PluginInfo(Plain):
    name: str
    tools: tuple[ToolInfo, ...]
    error: str | None


class ServerInfo(Plain):
    name: str
    state: ServerState
    error: str | None
    tools: tuple[ToolInfo, ...]


class Stale(Plain):
    notification: str


class ToolsList(Plain):
    servers: tuple[ServerInfo, ...]
    plugins: tuple[PluginInfo, ...]


class ToolCall(Plain):
    id: str
    name: str
    arguments: str
    parent_id: str | None = None


class Message(Plain):
    id: str
    session_id: str
    turn_id: str | None
    seq: int
    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    is_error: bool = False
    created_at: str
    todo: TodoCommit | None = None
    kind: MessageKind | None = None
    activity: ToolActivity | None = None


class Empty(Plain):
    pass


class DeleteParams(Plain):
    session_id: str
    worktree: KeepOrRemove | None = None


class WorktreeStatus(Plain):
    session_id: str
    branch: str
    base: str
    base_commit: str
    head: str
    base_head: str
    ahead: int
    behind: int
    dirty: bool
    files: tuple[FileChange, ...]
    conflicts: tuple[str, ...]


class Merged(Plain):
    commit: str
    status: WorktreeStatus


class MergeParams(Plain):
    session_id: str
    how: MergeHow = "squash"
    message: str | None = None


class RemovedWorktree(Plain):
    removed: str


class RemoveWorktreeParams(Plain):
    session_id: str
    keep_branch: bool = False
    force: bool = False


class RewindParams(Plain):
    session_id: str
    message_id: str
    text: str | None = None
    files: bool = False


class Worktree(Plain):
    repo: str
    path: str
    branch: str
    base: str
    base_commit: str
    state: WorktreeState


class WorktreeRequest(Plain):
    base: str | None = None
    branch: str | None = None
    carry: bool = False


class RemoteInfo(Plain):
    endpoint: str
    remote_session_id: str
    state: RemoteState = "connecting"
    error: str | None = None
    capabilities: tuple[str, ...] = ()


class Session(Plain):
    id: str
    title: str
    mode: Mode
    origin: Origin
    remote: RemoteInfo | None
    parent_id: str | None
    created_at: str
    updated_at: str
    todo_revision: int
    todo_updated_at: str | None
    running_turn_id: str | None
    agent: str = "nib"
    cwd: str | None = None
    worktree: Worktree | None = None
    attempt_id: str | None = None


class ReadyLine(Plain):
    ready: Literal[True] = True
    socket: str
    pid: int
    protocol_version: int
    schema_version: int


class HelloParams(Plain):
    token: str
    protocol_version: int
    client: str


class HelloResult(Plain):
    protocol_version: int
    host_version: str
    schema_version: int
    capabilities: tuple[str, ...] = ()


class OkResult(Plain):
    ok: Literal[True] = True


class RemoteTarget(Plain):
    endpoint: str
    remote_session_id: str | None = None


class CreateSessionParams(Plain):
    title: str | None = None
    mode: Mode = "agent"
    remote: RemoteTarget | None = None
    agent: str = "nib"
    cwd: str | None = None
    worktree: WorktreeRequest | None = None


class SessionList(Plain):
    sessions: tuple[Session, ...]


class SessionRef(Plain):
    session_id: str


class ControlsParams(SessionRef):
    open: bool = False


class FilesList(Plain):
    files: tuple[str, ...]
    truncated: bool = False


class ForkParams(Plain):
    session_id: str
    title: str | None = None


class Deleted(Plain):
    deleted: Literal[True] = True


class StartTurnParams(Plain):
    session_id: str
    text: str
    attachments: tuple[FileAttachment | ImageAttachment, ...] = ()


class TurnRef(Plain):
    session_id: str
    turn_id: str


class TodoHistoryParams(Plain):
    session_id: str
    before_revision: int | None = None
    limit: int = 50


class TodoHistory(Plain):
    revisions: tuple[TodoRevision, ...]
    has_more: bool


class TurnListParams(Plain):
    session_id: str
    limit: int = 20


class TurnList(Plain):
    turns: tuple[Turn, ...]


class MessageListParams(Plain):
    session_id: str
    before_seq: int | None = None
    limit: int = 1000
    turn_id: str | None = None


class MessageList(Plain):
    messages: tuple[Message, ...]
    total: int = 0
    has_more: bool = False


class CompactResult(Plain):
    summarised_messages: int


class SessionDeleted(Plain):
    session_id: str


class MessageAppended(Plain):
    session_id: str
    message: Message


class MessageDelta(Plain):
    session_id: str
    turn_id: str
    kind: Literal["text", "thought"]
    text: str


class ToolsRetryParams(Plain):
    name: str


class RemoteSessionsParams(Plain):
    endpoint: str


class FolderCheckParams(Plain):
    cwd: str
    remote: RemoteSessionsParams | None = None


class FolderChecked(Plain):
    problem: str
    repository: bool


class AgentsListParams(Plain):
    remote: RemoteSessionsParams | None = None


class AttemptStarted(Plain):
    attempt_id: str
    sessions: tuple[Session, ...]


Attachment = FileAttachment | ImageAttachment
