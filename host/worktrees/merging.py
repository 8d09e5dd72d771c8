"""A worktree merged back into its base branch (`worktrees.merge`), by git's own means.

First, in a scratch object directory, nothing written: the trial merge (git's
`merge-tree`), refused with its conflicts; the files the merge changes, refused where the
base's checked-out work tree has uncommitted changes in them. Then: the worktree's
uncommitted changes committed on its branch; the result made ("squash": one commit of the
merged tree on the base; "merge": git's fast-forward where the base is behind, else a
merge commit; "rebase": git's `rebase` in the session's own worktree, aborted on a
conflict); the base moved by compare-and-swap; its checkout brought along with
`read-tree -m -u`, which keeps the user's other uncommitted work."""

from __future__ import annotations

from pathlib import Path

from host.protocol import errors, models as m
from host.worktrees import git, reading
from host.worktrees.bases import Bases

QUIET = {"GIT_OPTIONAL_LOCKS": "0"}  # a status that never writes the user's index


async def merge(
    tree: m.Worktree, how: m.MergeHow, message: str, checkout: Path | None, bases: Bases
) -> str:
    """The base branch's new commit."""
    path = Path(tree.path)
    with await reading.scratch_of(path, bases) as work:
        now = await reading.read(tree, work)
        merged, clashes = await reading.trial(path, now.base_head, now.commit, work.env)
        if clashes:
            raise _conflicts(clashes, "a merge")
        changed = await git.run(
            path, "diff-tree", "-r", "--name-only", "-z", now.base_head, merged, env=work.env
        )
    if checkout is not None and checkout.is_dir():
        overlap = sorted(set(git.names(changed.out)) & await _dirty(checkout))
        if overlap:
            raise errors.InvalidParams(
                f"the checkout of {tree.base!r} at {checkout} has uncommitted changes in "
                f"{len(overlap)} file(s) the merge changes: commit or stash them first",
                {"files": overlap},
            )
    head, base_head = now.head, now.base_head
    if now.dirty:  # the worktree's uncommitted changes, committed on its branch
        await git.run(path, "add", "--all")
        files = await git.text(path, "write-tree")
        committed = await git.text(path, "commit-tree", files, "-p", head, "-m", message)
        await git.run(path, "update-ref", f"refs/heads/{tree.branch}", committed, head)
        head = committed
    new = await _result(path, how, message, head, base_head)
    if new != base_head:
        moved = await git.run(
            path, "update-ref", f"refs/heads/{tree.base}", new, base_head, check=False
        )
        if moved.code != 0:
            raise errors.InvalidParams(
                f"{tree.base!r} moved while merging (a commit of yours?): it was left as it "
                "is; merge again"
            )
        if checkout is not None and checkout.is_dir():
            await git.run(checkout, "read-tree", "-m", "-u", base_head, new)
    return new


async def _result(path: Path, how: m.MergeHow, message: str, head: str, base_head: str) -> str:
    if how == "rebase":
        done = await git.run(path, "rebase", base_head, check=False)
        if done.code != 0:
            stopped = await git.run(
                path, "diff", "--name-only", "--diff-filter=U", "-z", check=False
            )
            await git.run(path, "rebase", "--abort", check=False)
            raise _conflicts(git.names(stopped.out), "the rebase (aborted)")
        return await git.text(path, "rev-parse", "HEAD")
    if how == "merge" and await git.ok(path, "merge-base", "--is-ancestor", base_head, head):
        return head  # git's own fast-forward
    result = await git.run(
        path, "merge-tree", "--write-tree", "--no-messages", base_head, head, check=False
    )
    if result.code != 0:
        raise _conflicts(git.names(result.out.replace(b"\n", b"\0"))[1:], "a merge")
    merged = result.out.decode().split("\n", 1)[0].strip()
    if how == "squash":
        if merged == await git.text(path, "rev-parse", f"{base_head}^{{tree}}"):
            return base_head  # nothing to merge: no empty commit
        return await git.text(path, "commit-tree", merged, "-p", base_head, "-m", message)
    return await git.text(path, "commit-tree", merged, "-p", base_head, "-p", head, "-m", message)


async def _dirty(checkout: Path) -> set[str]:
    """The paths with uncommitted changes in `checkout` (staged, unstaged, untracked)."""
    done = await git.run(
        checkout, "status", "--porcelain=v1", "-z", "--untracked-files=all", env=QUIET
    )
    fields = done.out.decode("utf-8", "surrogateescape").split("\0")
    found: set[str] = set()
    i = 0
    while i < len(fields):
        field = fields[i]
        i += 1
        if len(field) < 4:
            continue
        found.add(field[3:])
        if field[0] in "RC" or field[1] in "RC":  # a rename: its old path follows
            if i < len(fields):
                found.add(fields[i])
            i += 1
    return found


def _conflicts(paths: list[str], what: str) -> errors.InvalidParams:
    return errors.InvalidParams(
        f"{what} into the base would conflict on {len(paths)} file(s): nothing was changed",
        {"conflicts": paths},
    )
