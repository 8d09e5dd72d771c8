"""A session as one Markdown document (the project's `sessions.export`): its title and
facts, the checklist as it stands, the transcript in order, then the checklist's history.
The user's and the agents' words are kept as they were written (they are Markdown); tool
calls and their output go in code fences long enough never to be closed by what is in
them."""

from __future__ import annotations

import re
from collections.abc import Iterable

from host.protocol import models as m

MARKS = {"completed": "x", "cancelled": "-", "in_progress": "~", "pending": " "}
MAX_OUTPUT = 20_000  # characters of one tool output kept in the document
_TICKS = re.compile(r"`{3,}")


def fenced(text: str, info: str = "") -> str:
    longest = max((len(run) for run in _TICKS.findall(text)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}{info}\n{text.rstrip()}\n{fence}"


def checklist(items: Iterable[m.TodoItem]) -> str:
    return "\n".join(f"- [{MARKS[i.status]}] {one_line(i.content)}" for i in items)


def one_line(text: str) -> str:
    return " ".join(text.split())


def diff_text(diff: m.TodoDiff) -> str:
    parts = [
        f"added {', '.join(diff.added)}" if diff.added else "",
        f"finished and removed {', '.join(diff.completed_removed)}"
        if diff.completed_removed
        else "",
        f"dropped unfinished {', '.join(diff.dropped_unfinished)}"
        if diff.dropped_unfinished
        else "",
        "; ".join(f"{c.content}: {c.from_} → {c.to}" for c in diff.status_changed),
        "reordered" if diff.reordered else "",
    ]
    return one_line("; ".join(p for p in parts if p)) or "no change"


def message_text(message: m.Message) -> str:
    if message.role == "user":
        return f"### You\n\n{message.content.strip()}"
    if message.role == "summary":
        return f"### Summary of the earlier conversation\n\n{message.content.strip()}"
    if message.role == "assistant":
        head = "### Agent (thinking)" if message.kind == "thought" else "### Agent"
        parts = [head]
        if message.content.strip():
            parts.append(message.content.strip())
        parts += [
            f"Calls `{one_line(c.name)}`:\n\n{fenced(c.arguments, 'json')}"
            for c in message.tool_calls
        ]
        return "\n\n".join(parts)
    if message.kind == "plan" or message.todo is not None:
        return f"*The checklist: {one_line(message.content)[:500]}*"
    output = message.content
    if len(output) > MAX_OUTPUT:
        more = len(message.content) - MAX_OUTPUT
        output = output[:MAX_OUTPUT] + f"\n… ({more:,} more characters)"
    label = "Tool error" if message.is_error else "Tool output"
    return f"{label}:\n\n{fenced(output)}"


def markdown_of(
    session: m.Session,
    messages: Iterable[m.Message],
    snapshot: m.TodoSnapshot,
    revisions: Iterable[m.TodoRevision],
) -> str:
    facts = [
        f"- Agent: {session.agent}",
        f"- Started: {session.created_at}",
        f"- Last used: {session.updated_at}",
    ]
    if session.cwd:
        facts.insert(1, f"- Folder: `{session.cwd}`")
    parts = [f"# {one_line(session.title)}", "\n".join(facts), "## Checklist"]
    if snapshot.items:
        parts.append(f"Revision {snapshot.revision}:\n\n{checklist(snapshot.items)}")
    else:
        parts.append("No checklist.")
    parts.append("## Transcript")
    parts.extend(message_text(message) for message in messages)
    history = list(revisions)
    if history:
        parts.append("## Checklist history")
        parts.extend(
            f"### Revision {r.revision} ({r.created_at})\n\n{diff_text(r.diff)}\n\n"
            f"{checklist(r.items) or '(empty)'}"
            for r in history
        )
    return "\n\n".join(parts) + "\n"
