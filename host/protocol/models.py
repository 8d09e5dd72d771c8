"""The contract's wire types (section 4) and the params and results of every method.

JSON field names are camelCase; Python attributes are snake_case. Every model refuses
unknown fields, so a misspelt parameter is an error rather than silently ignored.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    Field,
    StringConstraints,
    field_validator,
)

# sections 16, 17 and the project's settings have their own files; every wire type is
# reached as models.X
from host.protocol.checkpoint_models import (
    Changes as Changes,
    ChangesGetParams as ChangesGetParams,
    ChangesStepParams as ChangesStepParams,
    ChangeStatus as ChangeStatus,
    Checkpoint as Checkpoint,
    CheckpointChanged as CheckpointChanged,
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
from host.protocol.wire import (
    MAX_WIRE_INT as MAX_WIRE_INT,
    Empty as Empty,
    Id as Id,
    Position as Position,
    Switch as Switch,
    Wire as Wire,
)

Mode = Literal["agent", "plan", "goal"]
Origin = Literal["local", "remote"]
TodoStatus = Literal["pending", "in_progress", "completed", "cancelled"]
TurnState = Literal["running", "completed", "failed", "cancelled"]
Role = Literal["user", "assistant", "tool", "summary"]

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


class TodoItem(Wire):
    content: str
    status: TodoStatus
    active_form: str | None = None


class TodoSnapshot(Wire):
    session_id: str
    revision: int
    updated_at: str | None
    items: tuple[TodoItem, ...]


class StatusChange(Wire):
    content: str
    from_: TodoStatus = Field(alias="from")
    to: TodoStatus


class TodoDiff(Wire):
    """A revision against the one before it (items matched by exact content)."""

    added: tuple[str, ...] = ()
    completed_removed: tuple[str, ...] = ()
    dropped_unfinished: tuple[str, ...] = ()
    status_changed: tuple[StatusChange, ...] = ()
    reordered: bool = False


class TodoRevision(Wire):
    session_id: str
    revision: int
    turn_id: str | None
    created_at: str
    items: tuple[TodoItem, ...]
    diff: TodoDiff


class Turn(Wire):
    id: str
    session_id: str
    state: TurnState
    error: str | None
    started_at: str
    finished_at: str | None


class ToolCall(Wire):
    id: str
    name: str
    arguments: str


class TodoCommit(Wire):
    """What a checklist write committed, carried on its transcript entry (the TodoWrite
    call's result): the revision, its item count and its diff against the one before.
    A client tells the write from this, never from the call's arguments."""

    revision: int
    items: int
    diff: TodoDiff


MessageKind = Literal["thought", "plan"]
ToolStatus = Literal["pending", "in_progress", "completed", "failed"]


class ToolDiff(Wire):
    """A file a tool call changed (ACP's `diff` content): its path, the text before (None
    for a new file) and after; `truncated` when either was cut to MAX_TOOL_TEXT."""

    path: str
    old_text: str | None = None
    new_text: str
    truncated: bool = False


class ToolLocation(Wire):
    path: str
    line: int | None = None


ImageType = Literal["image/png", "image/jpeg", "image/gif", "image/webp"]
MAX_TOOL_IMAGE = 256 * 1024  # bytes of one image a tool call keeps (base64 decoded)
MAX_TOOL_IMAGES = 4  # images one tool call keeps


class ToolImage(Wire):
    """An image a tool call showed (ACP's image content), kept to be drawn small."""

    mime_type: ImageType
    data: Annotated[str, StringConstraints(max_length=MAX_TOOL_IMAGE * 4 // 3 + 4)]  # base64


class ToolActivity(Wire):
    """What a tool call did (section 16; the project's shape), on its result message:
    ACP's tool kind ("read", "edit", "execute", …), its end status, the files it changed,
    its text or terminal output, the places it touched and the images it showed (at most
    MAX_TOOL_IMAGES of at most MAX_TOOL_IMAGE bytes). Text over MAX_TOOL_TEXT is cut and
    `truncated` says so."""

    kind: str | None = None
    status: ToolStatus = "completed"
    diffs: tuple[ToolDiff, ...] = ()
    output: str = ""
    truncated: bool = False
    locations: tuple[ToolLocation, ...] = ()
    images: tuple[ToolImage, ...] = ()


MAX_TOOL_TEXT = 256 * 1024  # characters of one diff side or of a tool's output kept


class Message(Wire):
    """One transcript entry. `toolCalls` is set on assistant messages that call tools;
    `toolCallId` and `isError` on tool results; `todo` on the result of a committed
    checklist write. `kind` (the project's, section 15) marks an external agent's
    thought ("thought", an assistant message shown folded) and a plan it sent ("plan",
    a tool-role entry: with `todo` when it was stored, else why it was not)."""

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


class SessionList(Wire):
    sessions: tuple[Session, ...]


class SessionRef(Wire):
    session_id: Id


class ForkParams(Wire):
    session_id: Id
    title: Title | None = None


class Deleted(Wire):
    deleted: Literal[True] = True


MAX_IMAGE_BYTES = 6 * 1024 * 1024  # an image attachment, decoded (section 17)


class FileAttachment(Wire):
    """A file under the session's folder, for an external agent (section 17)."""

    type: Literal["file"]
    path: Annotated[str, StringConstraints(min_length=1, max_length=4096)]


class ImageAttachment(Wire):
    """An image in the prompt, for an agent that takes images (section 17)."""

    type: Literal["image"]
    mime_type: Annotated[str, StringConstraints(pattern=r"^image/[A-Za-z0-9.+-]{1,60}$")]
    data: Annotated[str, StringConstraints(min_length=1, max_length=MAX_IMAGE_BYTES * 4 // 3 + 4)]

    @field_validator("data")
    @classmethod
    def _base64(cls, value: str) -> str:
        import base64
        import binascii

        try:
            decoded = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("data must be base64") from None
        if len(decoded) > MAX_IMAGE_BYTES:
            raise ValueError(f"the image is {len(decoded)} bytes decoded (at most 6 MiB)")
        return value


Attachment = Annotated[FileAttachment | ImageAttachment, Field(discriminator="type")]


class StartTurnParams(Wire):
    session_id: Id
    text: Annotated[str, StringConstraints(min_length=1, max_length=100_000)] = Field(
        description="the user's message; must not be blank"
    )
    attachments: tuple[Attachment, ...] = Field(default=(), max_length=20)  # section 17

    @field_validator("text")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text must not be blank")
        return value


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


# --- section 13: tools beyond the builtins, and approvals ------------------------------

ServerState = Literal["starting", "ready", "failed", "disabled"]
Decision = Literal["allow_once", "allow_session", "deny"]


class ToolInfo(Wire):
    name: str
    description: str


class ServerInfo(Wire):
    name: str
    state: ServerState
    error: str | None
    tools: tuple[ToolInfo, ...]


class PluginInfo(Wire):
    name: str
    tools: tuple[ToolInfo, ...]
    error: str | None


class ToolsList(Wire):
    servers: tuple[ServerInfo, ...]
    plugins: tuple[PluginInfo, ...]


OptionKind = Literal["allow_once", "allow_always", "reject_once", "reject_always"]
# the decision an agent's option carries on the wire (section 15's mapping, refined)
OPTION_DECISION: dict[str, Decision] = {
    "allow_once": "allow_once", "allow_always": "allow_session",
    "reject_once": "deny", "reject_always": "deny",
}  # fmt: skip
MAX_APPROVAL_OPTIONS = 16
OptionName = Annotated[str, StringConstraints(max_length=200)]


class ApprovalOption(Wire):
    """One answer an ACP agent offers for its permission request, under its own name:
    the window shows these, never a label of Nib's (the project's, refining section 15)."""

    option_id: str
    name: OptionName
    kind: OptionKind


class ApprovalRespondParams(Wire):
    """`optionId` (the project's) picks one of the agent's options exactly; `decision`
    must then be the one that option carries (OPTION_DECISION)."""

    approval_id: Id
    decision: Decision
    option_id: Id | None = None


class ApprovalRequested(Wire):
    approval_id: str
    session_id: str
    turn_id: str
    tool: str
    arguments: str  # as the model wrote them: shown as plain text
    # an ACP agent's own answers (empty for MCP and plugin tools: Nib's three decisions)
    options: tuple[ApprovalOption, ...] = ()
    # what an ACP agent's request asks to do (the project's): its diffs, a command's
    # text, the places it touches, as a finished call's result carries them
    activity: ToolActivity | None = None


class Stale(Wire):
    """The project's `host.stale`: a notification that would have outgrown the frame
    limit was not sent; what it told changed, and is fetched again."""

    notification: str


class ApprovalResolved(Wire):
    approval_id: str
    decision: Literal["allow_once", "allow_session", "deny", "cancelled"]


# --- section 15: external ACP agents -------------------------------------------------

AgentState = Literal["idle", "starting", "ready", "failed"]


class AgentInfo(Wire):
    """What the agent said of itself in its `initialize` answer."""

    name: str
    version: str


class AgentEntry(Wire):
    name: str
    command: str
    state: AgentState
    error: str | None
    agent_info: AgentInfo | None


class AgentsList(Wire):
    agents: tuple[AgentEntry, ...]
