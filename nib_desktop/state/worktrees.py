"""A session's own git worktree as the window knows it (contract section 18): its branch
against its base, told by `worktrees.changed`. Plain values, no Qt, nothing of the host."""

from nib_desktop.state.tuples import NamedTuple


class WorktreeView(NamedTuple):
    session_id: str
    branch: str
    base: str
    ahead: int
    behind: int
    dirty: bool  # uncommitted changes in the worktree
    files: int  # files the branch changed against its base
    conflicts: tuple[str, ...]  # files a merge into the base would conflict on now


class WorktreeTold(NamedTuple):
    """The host told a worktree's state (`worktrees.changed`)."""

    worktree: WorktreeView


_REFUSED = set(" ~^:?*[\\\x7f")


def branch_problem(name: str) -> str:
    """What git refuses in a branch name as typed, in words ("" for nothing, or for an
    empty name: the host's own default then), by git's `check-ref-format` rules."""
    name = name.strip()
    if not name:
        return ""
    if name.startswith(("-", "/")) or name.endswith(("/", ".", ".lock")) or name == "@":
        return "A branch name cannot start with - or /, nor end with /, . or .lock"
    if any(c in _REFUSED or ord(c) < 32 for c in name):
        return "A branch name has no spaces, nor any of ~ ^ : ? * [ \\"
    if ".." in name or "@{" in name or "//" in name:
        return "A branch name has no .., @{ or //"
    if any(part.startswith(".") for part in name.split("/")):
        return "No part of a branch name starts with a dot"
    return ""
