"""What a tool call did (a result's `activity`, contract section 16) as the transcript
tells it: one line that names it ("Edited app.py +3 -1"), and its detail: the unified
diff of each file it changed (difflib, the standard library's), else its output, else
the places it touched."""

from __future__ import annotations

import difflib
import json
import re
import shlex

from host.protocol import models as m
from host.protocol.text import shorten
from nib_desktop.state import rich

# Past this many lines a side, a diff is not computed on the GUI thread: its size is said.
MAX_DIFF_LINES = 20_000


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


def summary(activity: m.ToolActivity, folder: str = "") -> str:
    """The result's line: the files changed with their counts, else the output's first
    line, else the places, else the status word."""
    if activity.diffs:
        parts = []
        for diff in activity.diffs:
            added, removed = counts(diff)
            verb = "Wrote" if diff.old_text is None else "Edited"
            parts.append(f"{verb} {shown_path(diff.path, folder)} +{added} −{removed}")
        return "; ".join(parts)
    first = next((ln for ln in unfenced(activity.output).splitlines() if ln.strip()), "")
    if first:
        return shorten(first, 160)
    if activity.locations:
        return ", ".join(place_text(p, folder) for p in activity.locations[:5])
    return activity.status


def detail(activity: m.ToolActivity, folder: str = "") -> tuple[str, str]:
    """The detail shown under the line, as plain text, and its kind: "diff" (unified,
    3 lines of context) or "output"; ("", "") when the line says it all."""
    if activity.diffs:
        return "\n".join(unified(d, folder) for d in activity.diffs), "diff"
    text = unfenced(activity.output).rstrip("\n")
    if activity.truncated:
        text += f"\n… (cut at {m.MAX_TOOL_TEXT // 1024} KiB)"
    if text.count("\n") == 0 and len(text) <= 160 and not activity.locations:
        return "", ""  # the line holds it whole
    places = "\n".join(place_text(p, folder) for p in activity.locations)
    return "\n".join(x for x in (text, places) if x), "output"


HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _at_line(header: str, offset: int) -> str:
    """A hunk's "@@ -a,b +c,d @@" moved `offset` lines down the file."""
    found = HUNK.match(header)
    if found is None or not offset:
        return header
    old, new = int(found[1]) + offset, int(found[3]) + offset
    moved = f"@@ -{old}{found[2] or ''} +{new}{found[4] or ''} @@"
    return moved + header[found.end() :]


def unified(diff: m.ToolDiff, folder: str = "") -> str:
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
    offset = diff.line - 1 if diff.line is not None and diff.old_text is not None else 0
    body = "".join(
        (_at_line(line, offset) if line.startswith("@@") else line) + "\n"
        for line in list(difflib.unified_diff(old, new, n=3, lineterm=""))[2:]
    )
    cut = f"… (cut at {m.MAX_TOOL_TEXT // 1024} KiB)\n" if diff.truncated else ""
    return (head + body + cut).rstrip("\n")


def counts(diff: m.ToolDiff) -> tuple[int, int]:
    """Lines added and removed."""
    old = (diff.old_text or "").splitlines()
    new = diff.new_text.splitlines()
    if len(old) > MAX_DIFF_LINES or len(new) > MAX_DIFF_LINES:
        return len(new), len(old)
    added = removed = 0
    for line in difflib.unified_diff(old, new, n=0, lineterm=""):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed


def place_text(place: m.ToolLocation, folder: str = "") -> str:
    """A place as the detail names it ("app.py:5"), the same words its link matches."""
    return rich.place_text((shown_path(place.path, folder), place.line))


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


def asked(activity: m.ToolActivity | None, arguments: str) -> tuple[str, str]:
    """What an approval shows of the call it asks about, as plain text and its kind: the
    diff of each file it would change, else the command it would run ("$ ls -la") with
    what the agent says it is for, else its text; ("", "") when its input says it all.
    The input's JSON is never what is shown where it names a command."""
    if activity is not None and activity.diffs:
        return detail(activity)
    command = command_of(arguments)
    if command:
        said = _said_for(arguments)
        return (f"$ {command}" + (f"\n{said}" if said else ""), "output")
    if activity is not None and activity.output and not _is_json(activity.output):
        return detail(activity)
    return "", ""


def _said_for(arguments: str) -> str:
    """What a command's input says it is for (Claude Code's `description`), or ""."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return ""
    said = value.get("description") if isinstance(value, dict) else None
    return shorten(said, 300) if isinstance(said, str) else ""


def _is_json(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict | list)
    except ValueError:
        return False


def places(activity: m.ToolActivity, folder: str = "") -> tuple[tuple[str, int | None], ...]:
    """The files a call touched, each with its line, as its detail names them: a diff's
    files (at the first changed line), else its locations."""
    if activity.diffs:
        return tuple((shown_path(d.path, folder), _first_change(d)) for d in activity.diffs)
    return tuple((shown_path(p.path, folder), p.line) for p in activity.locations)


def _first_change(diff: m.ToolDiff) -> int | None:
    """The first line of the new text that differs from the old (1-based)."""
    old = (diff.old_text or "").splitlines()
    new = diff.new_text.splitlines()
    if len(old) > MAX_DIFF_LINES or len(new) > MAX_DIFF_LINES:
        return None
    at = (diff.line or 1) - 1 if diff.old_text is not None else 0  # where the part starts
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return number + at
    return min(len(old), len(new)) + 1 + at if len(old) != len(new) else None


def attached(activity: m.ToolActivity, folder: str = "") -> str:
    """What went with a user's message, under it: "Attached:" then each file (a link
    that opens it) and the images in words."""
    parts = [place_text(p, folder) for p in activity.locations]
    if activity.output:
        parts.append(activity.output)
    return "Attached:\n" + "\n".join(parts) if parts else ""
