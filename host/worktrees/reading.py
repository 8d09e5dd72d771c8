"""A worktree read against its base (`worktrees.status`), writing nothing into the user's
repository: the worktree's files now are a tree in a scratch object directory (its index
copied there, so only changed files are read again), compared and trial-merged there."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from pathlib import Path

from host.checkpoints.diffs import PatchCut, file_changes
from host.protocol import errors, models as m
from host.worktrees import git
from host.worktrees.bases import Bases
from host.worktrees.git import GitFailed, Scratch

MAX_DIFF_CHARS = 256 * 1024  # one file's diff (section 16)
MAX_STATUS_CHARS = 4 * 1024 * 1024  # all diffs of one answer (section 18)
DIFF = ("diff-tree", "-r", "-M", "--no-ext-diff", "--no-textconv", "--no-color")


@dataclass(frozen=True)
class Reading:
    """What a worktree holds now, against its base."""

    head: str  # the branch's commit
    tree: str  # the worktree's files now (in the scratch objects)
    commit: str  # `head`, or a scratch commit of `tree` on it when the worktree is dirty
    base_head: str
    merge_base: str
    dirty: bool


def gone(path: Path) -> errors.InvalidParams:
    return errors.InvalidParams(
        f"the worktree's folder {path} no longer exists (removed by hand?): remove the "
        "worktree to forget it"
    )


def objects_of(common: Path) -> Path:
    return common / "objects"


async def common_of(path: Path) -> Path:
    return Path(await git.text(path, "rev-parse", "--path-format=absolute", "--git-common-dir"))


async def read(tree: m.Worktree, work: Scratch) -> Reading:
    """The worktree `tree` read into `work`; -32602 in words when its folder or its base
    is gone."""
    path = Path(tree.path)
    if not path.is_dir():
        raise gone(path)
    env = work.env
    # git's answers that do not wait on each other are asked at once (each is a process)
    head_found, base_found = await asyncio.gather(
        git.run(path, "rev-parse", "--verify", "HEAD^{commit}", check=False),
        git.run(path, "rev-parse", "--verify", "--quiet", f"{tree.base}^{{commit}}", check=False),
    )
    if head_found.code != 0:
        raise errors.InvalidParams(f"{path} is no longer a git worktree")
    if base_found.code != 0:
        raise errors.InvalidParams(f"the base {tree.base!r} no longer exists in the repository")
    head, base_head = head_found.out.decode().strip(), base_found.out.decode().strip()
    _added, head_tree, merge_base = await asyncio.gather(
        git.run(path, "add", "--all", env=env),  # into the scratch index and objects
        git.text(path, "rev-parse", f"{head}^{{tree}}"),
        git.run(path, "merge-base", base_head, head, check=False),
    )
    now = await git.text(path, "write-tree", env=env)
    dirty = now != head_tree
    commit = head
    if dirty:
        commit = await git.text(path, "commit-tree", now, "-p", head, "-m", "now", env=env)
    base = merge_base.out.decode().strip() if merge_base.code == 0 else base_head
    return Reading(head, now, commit, base_head, base, dirty)


async def index_of(path: Path) -> Path:
    found = await git.text(path, "rev-parse", "--path-format=absolute", "--git-path", "index")
    return Path(found)


async def trial(
    path: Path, base_head: str, commit: str, env: dict[str, str]
) -> tuple[str, list[str]]:
    """A merge of `commit` into `base_head` tried by git's own `merge-tree` (its trees
    written to the scratch objects): the merged tree, and the paths it would conflict on
    (then no tree: "")."""
    done = await git.run(
        path,
        "merge-tree",
        "--write-tree",
        "--name-only",
        "--no-messages",
        "-z",
        base_head,
        commit,
        env=env,
        check=False,
    )
    if done.code not in (0, 1):
        raise GitFailed(("merge-tree",), done.code, done.err)
    found = git.names(done.out)
    if done.code == 1:
        return "", sorted(set(found[1:]))
    return found[0], []


async def scratch_of(
    path: Path, bases: Bases | None = None
) -> contextlib.AbstractContextManager[Scratch]:
    """A scratch over the worktree's repository, its index a copy of the worktree's, or of
    its base in `bases` (the host's), and made in their folder (copied in a worker thread:
    a large repository's index is megabytes). A reading cancelled meanwhile leaves no
    scratch behind: it goes once the copy is done."""
    common, index = await asyncio.gather(common_of(path), index_of(path))
    within = None
    if bases is not None:
        index, within = await bases.trusted(path, index), bases.place()
    work = Scratch(objects_of(common), within)
    await git.in_thread(lambda: work.take(index), work.close)
    return contextlib.closing(work)


async def changed_files(
    path: Path,
    old: str,
    new: str,
    env: dict[str, str],
    whole: int = MAX_STATUS_CHARS,
    diffs: bool = True,
) -> list[m.FileChange]:
    """What differs from `old` to `new`, as section 16's FileChanges; without `diffs`,
    git's patch is not asked for (every `diff` "", none `truncated`)."""
    patch = PatchCut(MAX_DIFF_CHARS, whole)  # cut as it is read, never held whole
    listed = asyncio.gather(
        git.run(path, *DIFF, "-z", "--name-status", old, new, env=env),
        git.run(path, *DIFF, "-z", "--numstat", old, new, env=env),
    )
    if diffs:
        streamed = git.stream(
            path, patch.feed, *DIFF, "-p", "-U3", "--full-index", old, new, env=env
        )
        (named, counted), _ = await asyncio.gather(listed, streamed)
    else:
        named, counted = await listed
    return await asyncio.to_thread(
        file_changes, named.out, counted.out, patch, MAX_DIFF_CHARS, whole
    )


async def status(
    session_id: str, tree: m.Worktree, diffs: bool = True, bases: Bases | None = None
) -> tuple[m.WorktreeStatus, Reading]:
    """`worktrees.status` (without `diffs`, as `worktrees.changed` tells it: every diff ""
    and git's patch never read), and the reading it rests on; from the worktree's base in
    `bases` (the service's: see `bases`)."""
    path = Path(tree.path)
    if not path.is_dir():
        raise gone(path)
    with await scratch_of(path, bases) as work:
        now = await read(tree, work)
        counted, files, (_merged, clashes) = await asyncio.gather(
            git.text(path, "rev-list", "--left-right", "--count", f"{now.base_head}...{now.head}"),
            changed_files(path, now.merge_base, now.tree, work.env, diffs=diffs),
            trial(path, now.base_head, now.commit, work.env),
        )
        behind, ahead = (int(x) for x in counted.split())
    told = m.WorktreeStatus(
        session_id=session_id,
        branch=tree.branch,
        base=tree.base,
        base_commit=tree.base_commit,
        head=now.head,
        base_head=now.base_head,
        ahead=ahead,
        behind=behind,
        dirty=now.dirty,
        files=tuple(files),
        conflicts=tuple(clashes),
    )
    return told, now
