"""A committed checklist revision as the transcript's one line: a new list as a new
list, else what changed against the list before it in the same task."""

from __future__ import annotations

from host.protocol import plain_models as m
from host.protocol.text import shorten
from nib_desktop.state.facts import STATUS_GLYPHS
from nib_desktop.state.transcript_lines import Line

UNCHANGED = "Checklist written again, unchanged"


def todo_line(diff: m.TodoDiff, items: int, new_task: bool = False) -> Line:
    """A committed checklist revision of `items` items in one line: a whole new list, or
    what changed against the one before. `new_task`: the list replaces the last task's
    (the first written in a turn, which adds steps and removes the old ones), so it is
    told as a new list, never matched step by step with the old one; only the unfinished
    steps it dropped are said."""
    fresh = len(diff.added) == items and not diff.completed_removed
    # every step new: a list in place of another (its finished steps are not "removed"
    # work; its unfinished ones are said), never matched step by step with it
    replaced = bool(items) and len(diff.added) == items
    if items and (new_task or (replaced and not fresh)):
        dropped = ", ".join(f"“{shorten(c, 60)}”" for c in diff.dropped_unfinished)
        more = f" · dropped unfinished: {dropped}" if dropped else ""
        return Line("todo", f"New checklist: {_steps(items)}{more}", warning=bool(dropped))
    if items and fresh and not diff.dropped_unfinished:
        return Line("todo", f"Checklist: {_steps(items)}")
    text, warning = diff_line(diff)
    if not items and text == UNCHANGED:
        text = "Checklist empty"
    return Line("todo", text, warning=warning)


def diff_line(diff: m.TodoDiff) -> tuple[str, bool]:
    """One line telling a revision's changes ("✓ Write the tests · +2 steps"), and whether
    it dropped items unfinished (said in words too, not only flagged)."""
    parts = [f"{STATUS_GLYPHS[c.to]} {shorten(c.content, 80)}" for c in diff.status_changed]
    if diff.added:
        parts.append(f"+{_steps(len(diff.added))}")
    if diff.completed_removed:
        parts.append(f"{_steps(len(diff.completed_removed))} finished and removed")
    if diff.dropped_unfinished:
        dropped = ", ".join(f"“{shorten(c, 60)}”" for c in diff.dropped_unfinished)
        parts.append(f"dropped unfinished: {dropped}")
    if diff.reordered:
        parts.append("reordered")
    return " · ".join(parts) or UNCHANGED, bool(diff.dropped_unfinished)


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"
