"""A session as one Markdown document (the project's `sessions.export`): its title and
facts, the checklist as it stands, the transcript in order, then the checklist's history.
It reads as a document (issue 47, point 5):
- the user's and the agents' words are kept as they were written (they are Markdown),
  their headings moved below the document's own (a "## Summary" of the agent's is a
  "#### Summary" under "### Agent"), never inside a code block;
- a tool's output goes in a code fence, line by line as it printed it (without the one
  fence an agent wrapped it in); a file a call changed, as its unified diff (`diff`
  fence), the same diff the window shows;
- a call says what it runs (`$ command`) or, when its result shows the change, only its
  name; other calls keep their arguments as JSON;
- what Nib itself noted (a refusal, a setup's output, an agent's quirk) is labelled as
  Nib's, never as the user's.
Every fence is longer than any run of backticks in what it holds."""

from __future__ import annotations

import re
from collections.abc import Iterable

from host.protocol import models as m
from host.protocol.tool_text import command_of, unfenced, unified

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


_HEADING = re.compile(r"^(#{1,6})(\s)", re.MULTILINE)
_FENCE_LINE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def demoted(text: str, by: int = 3) -> str:
    """Markdown with its ATX headings `by` levels lower (at most ######), outside code
    fences: a message's own headings stay under the export's."""
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        opened = _FENCE_LINE.match(line)
        if opened and (not fence or opened.group(1)[0] == fence[0]):
            fence = "" if fence else opened.group(1)
        elif not fence:
            found = _HEADING.match(line)
            if found:
                level = min(len(found.group(1)) + by, 6)
                line = "#" * level + line[len(found.group(1)) :]
        out.append(line)
    return "\n".join(out)


class Results:
    """Each call's result, by call id: a call whose result shows a diff is named only."""

    def __init__(self, messages: list[m.Message]) -> None:
        self.changed = {
            message.tool_call_id
            for message in messages
            if message.tool_call_id and message.activity is not None and message.activity.diffs
        }


def call_text(call: m.ToolCall, results: Results) -> str:
    name = one_line(call.name)
    command = command_of(call.arguments)
    if command:
        return f"Runs `{name}`:\n\n{fenced(f'$ {command}', 'console')}"
    if call.id in results.changed:
        return f"Calls `{name}` (its change is below)."
    return f"Calls `{name}`:\n\n{fenced(call.arguments, 'json')}"


def result_text(message: m.Message, folder: str) -> str:
    activity = message.activity
    label = "Tool error" if message.is_error else "Tool output"
    parts: list[str] = []
    if activity is not None and activity.diffs:
        label = "Tool error" if message.is_error else "Changed"
        parts += [fenced(unified(diff, folder), "diff") for diff in activity.diffs]
    output = unfenced(activity.output if activity is not None and activity.output else "")
    if not parts and not output:
        output = unfenced(message.content)
    if output.strip():
        if len(output) > MAX_OUTPUT:
            more = len(output) - MAX_OUTPUT
            output = output[:MAX_OUTPUT] + f"\n… ({more:,} more characters)"
        parts.append(fenced(output))
    title = one_line(message.content)[:200] if activity is not None else ""
    head = f"{label}: {title}" if title and parts else f"{label}:"
    return "\n\n".join([head, *parts]) if parts else f"{label}: {title or '(nothing)'}"


def message_text(message: m.Message, results: Results | None = None, folder: str = "") -> str:
    results = results or Results([])
    if message.role == "user":
        return f"### You\n\n{demoted(message.content.strip())}"
    if message.role == "summary":
        return f"### Summary of the earlier conversation\n\n{demoted(message.content.strip())}"
    if message.role == "assistant":
        head = "### Agent (thinking)" if message.kind == "thought" else "### Agent"
        parts = [head]
        if message.content.strip():
            parts.append(demoted(message.content.strip()))
        parts += [call_text(c, results) for c in message.tool_calls]
        return "\n\n".join(parts)
    if message.kind == "plan" or message.todo is not None:
        return f"*The checklist: {one_line(message.content)[:500]}*"
    if message.tool_call_id is None and message.activity is None:
        # Nib's own note in the transcript (a refusal, a setup's output, a quirk)
        kind = "Nib (error)" if message.is_error else "Nib"
        return f"*{kind}:*\n\n{fenced(unfenced(message.content))}"
    return result_text(message, folder)


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
    listed = list(messages)
    results = Results(listed)
    parts.extend(message_text(message, results, session.cwd or "") for message in listed)
    history = list(revisions)
    if history:
        parts.append("## Checklist history")
        parts.extend(
            f"### Revision {r.revision} ({r.created_at})\n\n{diff_text(r.diff)}\n\n"
            f"{checklist(r.items) or '(empty)'}"
            for r in history
        )
    return "\n\n".join(parts) + "\n"
