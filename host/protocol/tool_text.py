"""A tool call's file changes and output as text both processes write the same way: the
unified diff of a change at its place in the file (difflib, the standard library's), its
counts, a path relative to the session's folder, and output without the one code fence
some agents wrap it in. The window's transcript (`nib_desktop.inbound.activity`) and the
host's Markdown export (`host.sessions.export`) use them, so a diff reads alike in both."""

from __future__ import annotations

import json
import re
import shlex
from typing import Protocol

from host.protocol.text import MAX_TOOL_TEXT

# Past this many lines a side, a diff is not computed (on the GUI thread): its size is said.
MAX_DIFF_LINES = 20_000


class ToolDiff(Protocol):
    """A tool call's change as either side holds it (the host's model, the window's plain
    twin): what these functions read of it."""

    @property
    def path(self) -> str: ...
    @property
    def old_text(self) -> str | None: ...
    @property
    def new_text(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    @property
    def truncated(self) -> bool: ...


def shown_path(path: str, folder: str) -> str:
    """A path as the transcript names it: relative to the session's folder where it is
    under it, else as given."""
    if folder and path.startswith(folder.rstrip("/") + "/"):
        return path[len(folder.rstrip("/")) + 1 :]
    return path


def unfenced(output: str) -> str:
    """A tool's output without the one Markdown code fence some agents wrap it in
    ("```console … ```"): its text as printed."""
    text = output.strip("\n")
    lines = text.split("\n")
    if (
        len(lines) >= 2
        and lines[0].startswith("```")
        and lines[-1].strip() == "```"
        and not any(line.startswith("```") for line in lines[1:-1])
    ):
        return "\n".join(lines[1:-1])
    return output


HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _at_line(header: str, offset: int) -> str:
    """A hunk's "@@ -a,b +c,d @@" moved `offset` lines down the file."""
    found = HUNK.match(header)
    if found is None or not offset:
        return header
    old, new = int(found[1]) + offset, int(found[3]) + offset
    moved = f"@@ -{old}{found[2] or ''} +{new}{found[4] or ''} @@"
    return moved + header[found.end() :]


def unified(diff: ToolDiff, folder: str = "") -> str:
    """The change as a unified diff (3 lines of context) at its place in the file where
    the host found it (`line`), lines compared without their ends (as `counts` counts:
    a last line that gained its newline is no change)."""
    old = (diff.old_text or "").splitlines()
    new = diff.new_text.splitlines()
    path = shown_path(diff.path, folder)
    head = (
        f"--- {path}\n+++ {path}\n"
        if diff.old_text is not None
        else (f"--- /dev/null\n+++ {path}\n")
    )
    if len(old) > MAX_DIFF_LINES or len(new) > MAX_DIFF_LINES:
        return head + f"@@ {len(old):,} lines before, {len(new):,} after: too long to show @@"
    import difflib  # (a tool call's diff: not on the window's way to "connected")

    offset = diff.line - 1 if diff.line is not None and diff.old_text is not None else 0
    body = "".join(
        (_at_line(line, offset) if line.startswith("@@") else line) + "\n"
        for line in list(difflib.unified_diff(old, new, n=3, lineterm=""))[2:]
    )
    cut = f"… (cut at {MAX_TOOL_TEXT // 1024} KiB)\n" if diff.truncated else ""
    return (head + body + cut).rstrip("\n")


def counts(diff: ToolDiff) -> tuple[int, int]:
    """Lines added and removed."""
    old = (diff.old_text or "").splitlines()
    new = diff.new_text.splitlines()
    if len(old) > MAX_DIFF_LINES or len(new) > MAX_DIFF_LINES:
        return len(new), len(old)
    import difflib

    added = removed = 0
    for line in difflib.unified_diff(old, new, n=0, lineterm=""):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed


def command_of(arguments: str) -> str:
    """The command a call's input asks to run, where it names one (`{"command": "ls"}`,
    or a program and its arguments, a shell's `-c` script shown as the script); "" when
    it names none."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return ""
    command = value.get("command", value.get("cmd")) if isinstance(value, dict) else None
    if isinstance(command, str):
        return command
    if not isinstance(command, list) or not command or not all(isinstance(c, str) for c in command):
        return ""
    if len(command) >= 3 and command[-2] in ("-c", "-lc"):
        return str(command[-1])
    return shlex.join(command)


# An agent's own bookkeeping in a call's input, never what the call does (Codex's ids,
# its parse of the command and the answers it takes, which the approval offers by name).
BOOKKEEPING = frozenset(
    {
        "call_id",
        "turn_id",
        "started_at_ms",
        "parsed_cmd",
        "available_decisions",
        "proposed_execpolicy_amendment",
    }
)
MAX_INPUT_VALUE = 2_000  # characters of one field of an input shown


def input_text(arguments: str) -> str:
    """A call's input as a person reads it: the command it runs as "$ command", then each
    other field on its own line ("path: app.py", a value's own lines indented), long
    values cut; an input that is not a JSON object as given."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return arguments
    if not isinstance(value, dict):
        return arguments
    command = command_of(arguments)
    lines = [f"$ {command}"] if command else []
    for key, field in value.items():
        if key in BOOKKEEPING or (command and key in ("command", "cmd")):
            continue
        text = field if isinstance(field, str) else json.dumps(field, ensure_ascii=False)
        if len(text) > MAX_INPUT_VALUE:
            text = f"{text[:MAX_INPUT_VALUE]}… ({len(text):,} characters)"
        lines.append(f"{key}: " + text.replace("\n", "\n    "))
    return "\n".join(lines)
