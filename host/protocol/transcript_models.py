"""The transcript's wire types (sections 4, 15 and 16): a message, the tool calls it makes
and what a call did (its diffs, output, places and images). Reached as `models.X`, like
every wire type."""

from typing import Annotated, Literal

from pydantic import (
    StringConstraints,
)

from host.protocol.text import MAX_TOOL_TEXT as MAX_TOOL_TEXT
from host.protocol.todo_models import (
    TodoCommit,
)
from host.protocol.wire import Wire

Role = Literal["user", "assistant", "tool", "summary"]


class ToolCall(Wire):
    """A call of a tool; `parentId` the call it ran under (a sub-agent's call: the id of
    the call that started the sub-agent, as Claude Code's Task), where the agent says."""

    id: str
    name: str
    arguments: str
    parent_id: str | None = None


MessageKind = Literal["thought", "plan"]


ToolStatus = Literal["pending", "in_progress", "completed", "failed"]


class ToolDiff(Wire):
    """A file a tool call changed (ACP's `diff` content): its path, the text before (None
    for a new file) and after; `truncated` when either was cut to MAX_TOOL_TEXT. `line`
    (the project's): where the new text starts in the file, 1-based, as the host found it
    on disk when the call completed (an edit sends only the part it changed); None when
    not known."""

    path: str
    old_text: str | None = None
    new_text: str
    truncated: bool = False
    line: int | None = None


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
