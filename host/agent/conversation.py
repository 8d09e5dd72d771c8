"""The conversation as the model reads it: the stored transcript as chat messages (a tool
call without its result closed), the checklist said where the model needs it (after a
compaction, on a resumed list), what the host's own tools did as the transcript's
activity, and the files a message names as attachments."""

from __future__ import annotations

from host.agent import prompts
from host.agent.compaction import (
    summary_message,
)
from host.agent.providers.base import (
    AssistantMessage,
    ChatMessage,
    SystemMessage,
    ToolCallRequest,
    ToolMessage,
    UserMessage,
)
from host.protocol import models as m
from host.tools.registry import ToolResult


def checklist_context(snapshot: m.TodoSnapshot, always: bool = False) -> str | None:
    """The committed checklist as the model is given it: at the start of a turn only when
    it has an unfinished item (a finished or empty list is not repeated); right after a
    compaction (`always`) whenever it has items."""
    unfinished = any(item.status in ("pending", "in_progress") for item in snapshot.items)
    if not snapshot.items or not (unfinished or always):
        return None
    lines = [f"{i}. [{item.status}] {item.content}" for i, item in enumerate(snapshot.items, 1)]
    return (
        f"{prompts.CHECKLIST_HEADING} (revision {snapshot.revision}). Completed "
        "steps are done: do not redo them. Continue from the first unfinished step and keep "
        "the list current with TodoWrite.\n" + "\n".join(lines)
    )


def inject_checklist(history: list[ChatMessage], snapshot: m.TodoSnapshot) -> None:
    """Give the model the newest committed checklist, read by the host from its own
    database, right before the user's new request, when it has unfinished items: a stale
    plan from earlier in the conversation cannot come back."""
    text = checklist_context(snapshot)
    if text is None:
        return
    last_user = max(
        (i for i, msg in enumerate(history) if isinstance(msg, UserMessage)), default=-1
    )
    history.insert(last_user if last_user >= 0 else len(history), SystemMessage(text))


def chat_history(messages: tuple[m.Message, ...]) -> list[ChatMessage]:
    """The stored transcript as the model's conversation. A turn cut short can leave tool
    calls without results, which models refuse: those are answered as interrupted."""
    history: list[ChatMessage] = []
    pending: list[str] = []
    requests: dict[str, UserMessage] = {}  # each turn's request, by turn

    def close_pending() -> None:
        history.extend(ToolMessage(cid, "interrupted", is_error=True) for cid in pending)
        pending.clear()

    for message in messages:
        if message.role == "summary":  # it stands for everything before it
            history.clear()
            pending.clear()
            history.append(summary_message(message.content))
            if message.turn_id in requests:  # but the request of its turn, kept whole
                history.append(requests[message.turn_id])
            continue
        if message.role == "tool":
            if message.tool_call_id in pending:
                pending.remove(message.tool_call_id)
                history.append(ToolMessage(message.tool_call_id, message.content, message.is_error))
            continue
        close_pending()
        if message.role == "user":
            history.append(UserMessage(message.content))
            if message.turn_id is not None:
                requests[message.turn_id] = UserMessage(message.content)
        else:
            calls = tuple(ToolCallRequest(c.id, c.name, c.arguments) for c in message.tool_calls)
            history.append(AssistantMessage(message.content, calls))
            pending.extend(c.id for c in calls)
    close_pending()
    return history


def own_activity(result: ToolResult) -> m.ToolActivity:
    """What one of the host's own tools did, for the transcript (section 16): its result
    as its output, cut at MAX_TOOL_TEXT, as an ACP agent's call keeps it."""
    content = result.content
    return m.ToolActivity(
        status="failed" if result.is_error else "completed",
        output=content[: m.MAX_TOOL_TEXT],
        truncated=len(content) > m.MAX_TOOL_TEXT,
    )


def attached_to(
    attachments: tuple[m.FileAttachment | m.ImageAttachment, ...],
) -> m.ToolActivity | None:
    """What went with a message, kept with it (the project's): its files as places, its
    images in words ("2 images (PNG, 14 KB)"); None when nothing did."""
    if not attachments:
        return None
    files = tuple(
        m.ToolLocation(path=a.path) for a in attachments if isinstance(a, m.FileAttachment)
    )
    images = [a for a in attachments if isinstance(a, m.ImageAttachment)]
    size = sum(len(a.data) * 3 // 4 for a in images)
    kinds = ", ".join(sorted({a.mime_type.removeprefix("image/").upper() for a in images}))
    told = f"{len(images)} image{'s' if len(images) != 1 else ''} ({kinds}, {size // 1024:,} KB)"
    return m.ToolActivity(kind="attached", locations=files, output=told if images else "")
