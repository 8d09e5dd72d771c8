"""The words of single transcript lines: a compaction's line, a tool's name as a person
reads it, and any line bounded to what the window lays out at once, made safe to show."""

from __future__ import annotations

from host.protocol import plain_models as m
from host.protocol.text import shown_text


def summary_text(message: m.Message, agents: bool = False) -> str:
    """A compaction's line: how many messages it stands for, the same count whether the
    line came live or from a page read later (messages are numbered from 1 in a session,
    and a summary stands for every message before it), then the summary itself, shown
    when the line is unfolded. In an external agent's session (`agents`) the agent
    compacted its own context, which Nib cannot count."""
    count = max(0, message.seq - 1)
    head = f"Context compacted: {count} earlier message{'s' if count != 1 else ''} summarised"
    if agents:
        head = "The agent compacted its context"
    return f"{head}\n\n{message.content}" if message.content.strip() else head


MAX_LINE = 50_000  # characters of one transcript line the window lays out


def bounded(text: str) -> str:
    """A line the window can lay out at once, made safe to show (`shown_text`): a message
    of megabytes (a remote's, a tool's) keeps its first MAX_LINE characters and says how
    long it is."""
    if len(text) <= MAX_LINE:
        return shown_text(text)
    shown = shown_text(text[:MAX_LINE])
    return f"{shown}\n… ({len(text):,} characters in all; the rest is not shown)"


def tool_name(name: str) -> str:
    """An offered tool name as a person reads it: "get_current_time (time)"."""
    if name.startswith("mcp__") and name.count("__") >= 2:
        server, _, tool = name[len("mcp__") :].partition("__")
        return f"{tool} ({server})"
    return name
