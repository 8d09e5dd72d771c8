"""What a tool call did (a result's `activity`, contract section 16) as the transcript
tells it: one line that names it ("Edited app.py +3 -1"), and its detail: the unified
diff of each file it changed (difflib, the standard library's), else its output, else
the places it touched."""

from __future__ import annotations

import json

from host.protocol import plain_models as m
from host.protocol.text import shorten
from host.protocol.tool_text import (
    MAX_DIFF_LINES as MAX_DIFF_LINES,
    command_of as command_of,
    counts as counts,
    shown_path as shown_path,
    unfenced as unfenced,
    unified as unified,
)
from nib_desktop.state import rich


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


def place_text(place: m.ToolLocation, folder: str = "") -> str:
    """A place as the detail names it ("app.py:5"), the same words its link matches."""
    return rich.place_text((shown_path(place.path, folder), place.line))


def asked(activity: m.ToolActivity | None, arguments: str, folder: str = "") -> tuple[str, str]:
    """What an approval shows of the call it asks about, as plain text and its kind: the
    diff of each file it would change, else the command it would run ("$ ls -la") with
    what the agent says it is for, else its text; ("", "") when its input says it all.
    The input's JSON is never what is shown where it names a command."""
    if activity is not None and activity.diffs:
        return detail(activity, folder)
    plan = _plan_of(arguments)
    if plan:  # a plan to approve (Claude Code's leaving its plan mode): read as written
        return plan, "markdown"
    command = command_of(arguments)
    if command:
        said = _said_for(arguments)
        return (f"$ {command}" + (f"\n{said}" if said else ""), "output")
    if activity is not None and activity.output and not _is_json(activity.output):
        return detail(activity, folder)
    return "", ""


def _field(arguments: str, key: str) -> str:
    """The text an input's `key` holds (its JSON's), or ""."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return ""
    told = value.get(key) if isinstance(value, dict) else None
    return told if isinstance(told, str) else ""


def _plan_of(arguments: str) -> str:
    """The plan an input carries (`plan`, in Markdown), or ""."""
    return _field(arguments, "plan")


def _said_for(arguments: str) -> str:
    """What a command's input says it is for (Claude Code's `description`, Codex's
    `reason`), or ""."""
    return shorten(_field(arguments, "description") or _field(arguments, "reason"), 300)


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
