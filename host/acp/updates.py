"""An agent's `session/update`s as types: each update the host stores (text, thoughts, tool
calls, plans, a replayed user message, a compaction) is validated once, where it arrives, into these
models, and matched on its type after that.

They are the project's own rather than the ACP SDK's: the SDK's `session/update` union
reads a `plan` whose entries lack a `priority` as a plan of no entries (a checklist
silently emptied), and refuses a tool call whose content holds a part of a kind it does
not know. Here a field an agent may leave out has its default; a part, block or place of
a kind not understood is kept as `Unknown` (and left out where it is used); a field of
the wrong type refuses the update, which the caller tells once per turn. Plan entries
stay as sent: the checklist's own schema (`TodoWriteArgs`) reads them, so a plan that
cannot be the checklist is told with that schema's words."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter
from pydantic.alias_generators import to_camel


class Told(BaseModel):
    """What an agent sends: camelCase on the wire, fields not named here ignored."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="ignore", frozen=True
    )


class Unknown(Told):
    """A part or block of a kind not understood: named by its type, otherwise left out."""

    type: str = ""


class TextBlock(Told):
    type: Literal["text"]
    text: str


class ImageBlock(Told):
    type: Literal["image"]
    data: str = ""
    mime_type: str = ""
    uri: str | None = None


class NamedBlock(Told):
    """Content shown by its name only (audio, a resource or a link to one)."""

    type: Literal["audio", "resource", "resource_link"]
    uri: str | None = None


Block = Annotated[TextBlock | ImageBlock | NamedBlock | Unknown, Field(union_mode="left_to_right")]


class DiffPart(Told):
    type: Literal["diff"]
    path: str = ""
    old_text: str | None = None
    new_text: str


class ContentPart(Told):
    type: Literal["content"]
    content: Block


Part = Annotated[DiffPart | ContentPart | Unknown, Field(union_mode="left_to_right")]


def _line(value: object) -> int | None:
    """A place's line as the transcript can keep it; any other value is no line."""
    return value if type(value) is int and 0 <= value < 2**31 else None


class Place(Told):
    path: str
    line: Annotated[int | None, BeforeValidator(_line)] = None


def _places(value: object) -> object:
    """The places that name a path; others are left out, not refused."""
    if not isinstance(value, list):
        return value
    return [p for p in value if isinstance(p, dict) and isinstance(p.get("path"), str)]


ToolStatus = Literal["pending", "in_progress", "completed", "failed"]
# where agents mark a call as a sub-agent's, under the call that started it: (the `_meta`
# key, the key of the parent call's id in it); ACP has no field of its own for it yet
PARENT_MARKS = (("claudeCode", "parentToolUseId"),)


class ToolFields(Told):
    """A tool call as an update or a permission request tells it; each field replaces
    what was told of the call before, where given."""

    tool_call_id: str = ""
    title: str | None = None
    kind: str | None = None
    status: ToolStatus | None = None
    raw_input: Any = None
    raw_output: Any = None
    content: list[Part] | None = None
    locations: Annotated[list[Place] | None, BeforeValidator(_places)] = None
    meta: Any = Field(default=None, alias="_meta")

    @property
    def parent(self) -> str | None:
        """The call this one runs under, where the agent marks it: a sub-agent's calls
        (claude-agent-acp's `_meta.claudeCode.parentToolUseId`, its Task call's id)."""
        for vendor, key in PARENT_MARKS:
            mark = self.meta.get(vendor) if isinstance(self.meta, dict) else None
            told = mark.get(key) if isinstance(mark, dict) else None
            if isinstance(told, str) and 0 < len(told) <= 200:
                return told
        return None


class ToolUpdate(ToolFields):
    session_update: Literal["tool_call", "tool_call_update"]


class TextChunk(Told):
    session_update: Literal["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"]
    content: Block
    message_id: str | None = None

    @property
    def thought(self) -> bool:
        return self.session_update == "agent_thought_chunk"


class PlanSent(Told):
    """ACP's `plan`: the session's plan, entries as sent."""

    session_update: Literal["plan"]
    entries: list[Any]


class PlanItems(Told):
    type: Literal["items"]
    plan_id: str = ""
    entries: list[Any]


class PlanMarkdown(Told):
    type: Literal["markdown"]
    plan_id: str = ""
    content: str


class PlanFile(Told):
    type: Literal["file"]
    plan_id: str = ""
    uri: str


class OtherPlan(Told):
    type: str = ""
    plan_id: str = ""


class PlanUpdate(Told):
    """The draft's `plan_update`: a plan by its id, as steps, Markdown or a file."""

    session_update: Literal["plan_update"]
    plan: Annotated[
        PlanItems | PlanMarkdown | PlanFile | OtherPlan, Field(union_mode="left_to_right")
    ]


class PlanRemoved(Told):
    session_update: Literal["plan_removed"]
    plan_id: str = ""


class CompactionUpdate(Told):
    """ACP's `compaction_update` (clients opt in): the agent compacted its context, or
    began, failed or gave up doing so; `summary` what the compaction kept, for the user."""

    session_update: Literal["compaction_update"]
    compaction_id: str = ""
    status: Literal["in_progress", "completed", "failed", "cancelled"]
    summary: str | None = None


class CompactionChunk(Told):
    """ACP's `compaction_summary_chunk`: a piece of a compaction's summary, streamed."""

    session_update: Literal["compaction_summary_chunk"]
    compaction_id: str = ""
    content: Block


Update = Annotated[
    TextChunk
    | ToolUpdate
    | PlanSent
    | PlanUpdate
    | PlanRemoved
    | CompactionUpdate
    | CompactionChunk,
    Field(discriminator="session_update"),
]

STORED = frozenset(
    ("agent_message_chunk", "agent_thought_chunk", "user_message_chunk", "tool_call")
) | {"tool_call_update", "plan", "plan_update", "plan_removed"}
STORED |= {"compaction_update", "compaction_summary_chunk"}

_UPDATE: TypeAdapter[Update] = TypeAdapter(Update)
_TOOL: TypeAdapter[ToolFields] = TypeAdapter(ToolFields)


def read_update(update: dict[str, Any]) -> Update | None:
    """The update as its type; None for a kind the transcript does not keep (commands,
    modes, usage… are the controls'). A kind it keeps, sent malformed, is refused with
    pydantic's ValidationError."""
    if update.get("sessionUpdate") not in STORED:
        return None
    return _UPDATE.validate_python(update)


def read_tool_call(tool_call: dict[str, Any]) -> ToolFields:
    """A permission request's tool call as its type (ValidationError if malformed)."""
    return _TOOL.validate_python(tool_call)
