"""The contract's wire types (section 4) and the params and results of every method.
The checklist's, the transcript's and sections 13 and 15-17's types and the project's
settings have files of their own; every wire type is reached as `models.X`.

JSON field names are camelCase; Python attributes are snake_case. Every model refuses
unknown fields, so a misspelt parameter is an error rather than silently ignored.
"""

from typing import Annotated, Literal

from pydantic import (
    Field,
    StringConstraints,
    field_validator,
)

from host.protocol.agent_models import (
    AgentEntry as AgentEntry,
    AgentInfo as AgentInfo,
    AgentSessionInfo as AgentSessionInfo,
    AgentSessions as AgentSessions,
    AgentSessionsParams as AgentSessionsParams,
    AgentsList as AgentsList,
    AgentState as AgentState,
    ImportParams as ImportParams,
)
from host.protocol.ask_models import (
    AgentAnswered as AgentAnswered,
    AgentAsked as AgentAsked,
    AnswerParams as AnswerParams,
    AskField as AskField,
)
from host.protocol.attempt_models import (
    MAX_CHECK_OUTPUT as MAX_CHECK_OUTPUT,
    AgentRef as AgentRef,
    Argument as Argument,
    Attempt as Attempt,
    AttemptList as AttemptList,
    AttemptRef as AttemptRef,
    AttemptRun as AttemptRun,
    AttemptStartParams as AttemptStartParams,
    CheckResult as CheckResult,
    CheckState as CheckState,
    Compared as Compared,
    CompareParams as CompareParams,
    Progress as Progress,
)
from host.protocol.checkpoint_models import (
    Changes as Changes,
    ChangesGetParams as ChangesGetParams,
    ChangesStepParams as ChangesStepParams,
    ChangeStatus as ChangeStatus,
    Checkpoint as Checkpoint,
    CheckpointChanged as CheckpointChanged,
    CheckpointFailed as CheckpointFailed,
    CheckpointList as CheckpointList,
    CheckpointListParams as CheckpointListParams,
    CheckpointReason as CheckpointReason,
    FileChange as FileChange,
    RelativePath as RelativePath,
    Restored as Restored,
    RestoreParams as RestoreParams,
    RevertHunkParams as RevertHunkParams,
)
from host.protocol.control_models import (
    AgentControls as AgentControls,
    AuthenticateParams as AuthenticateParams,
    AuthInfo as AuthInfo,
    Choice as Choice,
    CommandInfo as CommandInfo,
    Cost as Cost,
    ModeInfo as ModeInfo,
    Modes as Modes,
    OptionInfo as OptionInfo,
    PromptKinds as PromptKinds,
    SessionUsage as SessionUsage,
    SetModeParams as SetModeParams,
    SetOptionParams as SetOptionParams,
    TerminalSignIn as TerminalSignIn,
    Usage as Usage,
)
from host.protocol.library_models import (
    Exported as Exported,
    ExportParams as ExportParams,
    RenameParams as RenameParams,
    SearchHit as SearchHit,
    SearchParams as SearchParams,
    SearchResults as SearchResults,
)
from host.protocol.remote import parse_endpoint
from host.protocol.settings_models import (
    Appearance as Appearance,
    DesktopChange as DesktopChange,
    DesktopSettings as DesktopSettings,
    ServerSwitch as ServerSwitch,
    SettingsSetParams as SettingsSetParams,
    SettingsView as SettingsView,
)
from host.protocol.todo_models import (
    StatusChange as StatusChange,
    TodoCommit as TodoCommit,
    TodoDiff as TodoDiff,
    TodoItem as TodoItem,
    TodoRevision as TodoRevision,
    TodoSnapshot as TodoSnapshot,
    TodoStatus as TodoStatus,
)
from host.protocol.tool_models import (
    MAX_APPROVAL_OPTIONS as MAX_APPROVAL_OPTIONS,
    OPTION_DECISION as OPTION_DECISION,
    ApprovalOption as ApprovalOption,
    ApprovalRequested as ApprovalRequested,
    ApprovalResolved as ApprovalResolved,
    ApprovalRespondParams as ApprovalRespondParams,
    Decision as Decision,
    OptionKind as OptionKind,
    OptionName as OptionName,
    PluginInfo as PluginInfo,
    ServerInfo as ServerInfo,
    ServerState as ServerState,
    Stale as Stale,
    ToolInfo as ToolInfo,
    ToolsList as ToolsList,
)
from host.protocol.transcript_models import (
    MAX_TOOL_IMAGE as MAX_TOOL_IMAGE,
    MAX_TOOL_IMAGES as MAX_TOOL_IMAGES,
    MAX_TOOL_TEXT as MAX_TOOL_TEXT,
    ImageType as ImageType,
    Message as Message,
    MessageKind as MessageKind,
    Role as Role,
    ToolActivity as ToolActivity,
    ToolCall as ToolCall,
    ToolDiff as ToolDiff,
    ToolImage as ToolImage,
    ToolLocation as ToolLocation,
    ToolStatus as ToolStatus,
)
from host.protocol.turn_models import (
    HOST_RESTARTED as HOST_RESTARTED,
    MAX_IMAGE_BYTES as MAX_IMAGE_BYTES,
    Attachment as Attachment,
    FileAttachment as FileAttachment,
    ImageAttachment as ImageAttachment,
    Turn as Turn,
    TurnState as TurnState,
    UserText as UserText,
)
from host.protocol.wire import (
    MAX_WIRE_INT as MAX_WIRE_INT,
    Empty as Empty,
    Id as Id,
    Position as Position,
    Switch as Switch,
    Wire as Wire,
)
from host.protocol.worktree_models import (
    DeleteParams as DeleteParams,
    GitName as GitName,
    KeepOrRemove as KeepOrRemove,
    Merged as Merged,
    MergeHow as MergeHow,
    MergeParams as MergeParams,
    RemovedWorktree as RemovedWorktree,
    RemoveWorktreeParams as RemoveWorktreeParams,
    RewindParams as RewindParams,
    Worktree as Worktree,
    WorktreeRequest as WorktreeRequest,
    WorktreeState as WorktreeState,
    WorktreeStatus as WorktreeStatus,
)

Mode = Literal["agent", "plan", "goal"]
Origin = Literal["local", "remote"]

NIB_AGENT = "nib"  # the host's own agent runtime (section 15); no configured agent has it
Title = Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)]


Endpoint = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]
RemoteId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
RemoteState = Literal["connected", "connecting", "unreachable"]


class RemoteInfo(Wire):
    """A remote session's place (section 4) and, as section 14 adds, how its host is
    reached now: `error` says why it is unreachable; `capabilities` are what its host
    said at the last handshake ("todos": the checklist is shared)."""

    endpoint: str
    remote_session_id: str
    state: RemoteState = "connecting"
    error: str | None = None
    capabilities: tuple[str, ...] = ()


class Session(Wire):
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
    # section 15: the host's own runtime ("nib") or a configured ACP agent, and the
    # folder an agent's session works in (absent from hosts that predate it)
    agent: str = NIB_AGENT
    cwd: str | None = None
    worktree: Worktree | None = None  # section 18
    attempt_id: str | None = None  # section 18: the attempt it is a run of


# --- params and results -------------------------------------------------------------


class ReadyLine(Wire):
    """The one line the host writes to stdout once it listens (contract section 1)."""

    ready: Literal[True] = True
    socket: str
    pid: int
    protocol_version: int
    schema_version: int


class HelloParams(Wire):
    token: str
    protocol_version: int
    client: Annotated[str, StringConstraints(max_length=200)]


class HelloResult(Wire):
    protocol_version: int
    host_version: str
    schema_version: int
    # contract section 14: what this host adds to RACP v1; "todos" is the additive
    # checklist snapshot (todos.get, todos.history, todos.changed for RACP clients)
    capabilities: tuple[str, ...] = ()


class OkResult(Wire):
    ok: Literal[True] = True


class RemoteTarget(Wire):
    """A remote session to attach (`remoteSessionId`) or to create on the remote host
    (without it); the endpoint must be one section 14 names."""

    endpoint: Endpoint
    remote_session_id: RemoteId | None = None

    @field_validator("endpoint")
    @classmethod
    def _known_endpoint(cls, value: str) -> str:
        parse_endpoint(value)
        return value


AgentName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Folder = Annotated[str, StringConstraints(min_length=1, max_length=4096)]


class CreateSessionParams(Wire):
    title: Title | None = None
    mode: Mode = "agent"
    remote: RemoteTarget | None = None
    agent: AgentName = NIB_AGENT  # section 15
    cwd: Folder | None = None
    worktree: WorktreeRequest | None = None  # section 18


class SessionList(Wire):
    sessions: tuple[Session, ...]


class SessionRef(Wire):
    session_id: Id


class ControlsParams(SessionRef):
    """`agents.controls`; the project's `open`: the agent started and its session opened
    now if it is not (in the background: the answer is as held, what the agent offers
    follows as `agents.controlsChanged`), as a window does when it shows the session."""

    open: bool = False


class FilesList(Wire):
    """The project's `files.list`: the files of a session's folder as "@" offers them,
    relative with "/" between parts; `truncated` when more were left out (at most
    200,000 names and 4 MiB of them)."""

    files: tuple[str, ...]
    truncated: bool = False


class ForkParams(Wire):
    session_id: Id
    title: Title | None = None


class Deleted(Wire):
    deleted: Literal[True] = True


class StartTurnParams(Wire):
    session_id: Id
    text: UserText = Field(description="the user's message; must not be blank")
    attachments: tuple[Attachment, ...] = Field(default=(), max_length=20)  # section 17


class TurnRef(Wire):
    session_id: Id
    turn_id: Id


class TodoHistoryParams(Wire):
    session_id: Id
    before_revision: Position | None = None
    limit: Annotated[int, Field(strict=True, ge=1, le=100)] = 50


class TodoHistory(Wire):
    revisions: tuple[TodoRevision, ...]
    has_more: bool


class TurnListParams(Wire):
    session_id: Id
    limit: Annotated[int, Field(strict=True, ge=1, le=100)] = 20


class TurnList(Wire):
    turns: tuple[Turn, ...]


class MessageListParams(Wire):
    """A page of a transcript: the newest `limit` messages before `beforeSeq` (all the
    newest when absent), in transcript order; a page also stops at about 4 MiB. With
    `turnId` (the project's): that turn's messages only, from its first (its request),
    the oldest `limit` of them."""

    session_id: Id
    before_seq: Position | None = None
    limit: Annotated[int, Field(strict=True, ge=1, le=1000)] = 1000
    turn_id: Id | None = None


class MessageList(Wire):
    messages: tuple[Message, ...]
    total: int = 0  # messages in the whole transcript
    has_more: bool = False  # older messages than this page's first exist


class CompactResult(Wire):
    summarised_messages: int


class SessionDeleted(Wire):
    session_id: str


class MessageAppended(Wire):
    session_id: str
    message: Message


class MessageDelta(Wire):
    """`messages.delta` (section 16): the new text of a message that is still arriving;
    the stored message (`messages.appended`) follows at its boundary and holds exactly
    the text its deltas carried."""

    session_id: str
    turn_id: str
    kind: Literal["text", "thought"]
    text: str


class ToolsRetryParams(Wire):
    """`tools.retry` (the project's): the MCP server to start again now."""

    name: str = Field(min_length=1, max_length=200)


class RemoteSessionsParams(Wire):
    endpoint: Endpoint

    @field_validator("endpoint")
    @classmethod
    def _known_endpoint(cls, value: str) -> str:
        parse_endpoint(value)
        return value


class FolderCheckParams(Wire):
    """The project's `folders.check`: a folder as typed for a new session, checked on the
    machine it would be used on (with `remote`, that host's)."""

    cwd: Annotated[str, StringConstraints(min_length=1, max_length=4096)]
    remote: RemoteSessionsParams | None = None


class FolderChecked(Wire):
    problem: str  # in words; "" when it can be used
    repository: bool  # it is in a git work tree (a new worktree can be made of it)


class AgentsListParams(Wire):
    """`agents.list`: this host's agents, or with `remote` (section 19) the agents of
    that remote host's own settings.json."""

    remote: RemoteSessionsParams | None = None


class AttemptStarted(Wire):
    attempt_id: str
    sessions: tuple[Session, ...]
