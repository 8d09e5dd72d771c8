"""A worktree read against its base (`worktrees.status`), writing nothing into the user's
repository: the worktree's files now are a tree in a scratch object directory (its index
copied there, so only changed files are read again), compared and trial-merged there."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import NamedTuple

from host.checkpoints.diffs import PatchCut, file_changes
from host.protocol import errors, models as m
from host.worktrees import git
from host.worktrees.bases import Bases, located
from host.worktrees.git import GitFailed, Scratch

MAX_DIFF_CHARS = 256 * 1024  # one file's diff (section 16)
MAX_STATUS_CHARS = 4 * 1024 * 1024  # all diffs of one answer (section 18)
DIFF = ("diff-tree", "-r", "-M", "--no-ext-diff", "--no-textconv", "--no-color")


class Reading(NamedTuple):
    """What a worktree holds now, against its base."""

    head: str  # the branch's commit
    tree: str  # the worktree's files now (in the scratch objects)
    commit: str  # `head`, or a scratch commit of `tree` on it when the worktree is dirty
    base_head: str
    merge_base: str
    dirty: bool
    forward: bool = False  # the base is where the branch left it: a merge fast-forwards


def gone(path: Path) -> errors.InvalidParams:
    return errors.InvalidParams(
        f"the worktree's folder {path} no longer exists (removed by hand?): remove the "
        "worktree to forget it"
    )


async def read(tree: m.Worktree, work: Scratch) -> Reading:
    """The worktree `tree` read into `work`; -32602 in words when its folder or its base
    is gone."""
    now, _counted = await uncommitted(tree, work)
    return await committed(now, Path(tree.path), work.env)


async def uncommitted(tree: m.Worktree, work: Scratch, count: bool = False) -> tuple[Reading, str]:
    """`read`, but a dirty worktree's files not yet made a commit (its `commit` ""), and
    with `count` git's `rev-list --left-right --count` of the base and the branch (else
    ""). git's `add` (a pass over the worktree, the longest) does not wait for the commits'
    reading: the processes that do not wait on each other run at once."""
    path = Path(tree.path)
    if not path.is_dir():
        raise gone(path)
    _added, heads = await git.both(
        git.run(path, "add", "--all", env=work.env),  # into the scratch index and objects
        _heads(path, tree.base, count),
    )
    now = await git.text(path, "write-tree", env=work.env)
    dirty = now != heads.head_tree
    commit = "" if dirty else heads.head
    forward = heads.merge_base == heads.base_head and heads.related
    found = Reading(heads.head, now, commit, heads.base_head, heads.merge_base, dirty, forward)
    return found, heads.counted


class _Heads(NamedTuple):
    head: str
    head_tree: str
    base_head: str
    merge_base: str  # (the base's head when they have none)
    related: bool  # (whether they have one)
    counted: str  # git's "behind ahead", when asked


async def _heads(path: Path, base: str, count: bool) -> _Heads:
    """The branch's commit and tree (read from one look at HEAD), the base's commit, their
    merge base and, with `count`, how far each is from the other."""
    head_found, base_found = await git.both(
        git.run(path, "rev-list", "--no-walk", "--format=%T", "HEAD^{commit}", check=False),
        git.run(path, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}", check=False),
    )
    if head_found.code != 0:
        raise errors.InvalidParams(f"{path} is no longer a git worktree")
    if base_found.code != 0:
        raise errors.InvalidParams(f"the base {base!r} no longer exists in the repository")
    head, head_tree = head_found.out.decode().split()[-2:]  # "commit <sha>", "<tree>"
    base_head = base_found.out.decode().strip()
    counting = ("rev-list", "--left-right", "--count", f"{base_head}...{head}")
    merge_base, counted = await git.both(
        git.run(path, "merge-base", base_head, head, check=False),
        git.text(path, *counting) if count else _nothing(),
    )
    found = merge_base.out.decode().strip() if merge_base.code == 0 else base_head
    return _Heads(head, head_tree, base_head, found, merge_base.code == 0, counted)


async def committed(now: Reading, path: Path, env: dict[str, str]) -> Reading:
    """`now` with its commit: a dirty worktree's files made a scratch commit on its head."""
    if now.commit:
        return now
    commit = await git.text(path, "commit-tree", now.tree, "-p", now.head, "-m", "now", env=env)
    return now._replace(commit=commit)


async def _nothing() -> str:
    return ""


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
    common, index = await (bases.located(path) if bases is not None else located(path))
    within = also = None
    if bases is not None:
        (index, also), within = await bases.trusted(path, index), bases.place()
    work = Scratch(common / "objects", within, also)
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
    # names and counts from one git (its renames found once), the patch from another
    listed = git.run(path, *DIFF, "-z", "--raw", "--numstat", old, new, env=env)
    if diffs:
        streamed = git.stream(
            path, patch.feed, *DIFF, "-p", "-U3", "--full-index", old, new, env=env
        )
        both_said, _ = await git.both(listed, streamed)
    else:
        both_said = await listed
    named, counted = raw_split(both_said.out)
    return await asyncio.to_thread(file_changes, named, counted, patch, MAX_DIFF_CHARS, whole)


def raw_split(out: bytes) -> tuple[bytes, bytes]:
    """git's `--raw --numstat -z` as `--name-status -z` and `--numstat -z` would say it:
    each raw record (":modes shas STATUS", then its path, or two for a rename or copy)
    comes first, then the counts."""
    fields = out.split(b"\0")
    named: list[bytes] = []
    at = 0
    while at < len(fields) and fields[at].startswith(b":"):
        said = fields[at].rsplit(b" ", 1)[-1]
        paths = 2 if said[:1] in (b"R", b"C") else 1
        named += [said, *fields[at + 1 : at + 1 + paths]]
        at += 1 + paths
    return b"".join(f + b"\0" for f in named), b"\0".join(fields[at:])


async def status(
    session_id: str, tree: m.Worktree, diffs: bool = True, bases: Bases | None = None
) -> m.WorktreeStatus:
    """`worktrees.status` (without `diffs`, as `worktrees.changed` tells it: every diff ""
    and git's patch never read), from the worktree's base in `bases` (the service's: see
    `bases`)."""
    path = Path(tree.path)
    if not path.is_dir():
        raise gone(path)
    with await scratch_of(path, bases) as work:
        now, counted = await uncommitted(tree, work, count=True)
        compared = _compared(now, path, work.env, diffs)
        if bases is None:
            found, clashes = await compared
        else:  # its paths read beside, for `Bases.keep`
            listing = git.run(path, "ls-files", "-z", env=work.env)
            (found, clashes), listed = await git.both(compared, listing)
            bases.keep(path, work, listed.out)
        behind, ahead = (int(x) for x in counted.split())
    return m.WorktreeStatus(
        session_id=session_id,
        branch=tree.branch,
        base=tree.base,
        base_commit=tree.base_commit,
        head=now.head,
        base_head=now.base_head,
        ahead=ahead,
        behind=behind,
        dirty=now.dirty,
        files=tuple(found),
        conflicts=tuple(clashes),
    )


async def _compared(
    now: Reading, path: Path, env: dict[str, str], diffs: bool
) -> tuple[list[m.FileChange], list[str]]:
    """The files changed since the merge base, and the paths a merge would conflict on."""
    files = changed_files(path, now.merge_base, now.tree, env, diffs=diffs)
    if now.forward:  # nothing a merge could conflict on
        return await files, []
    # the trial merge's commit is made while the diffs are read
    return await git.both(files, _clashes(now, path, env))


async def _clashes(now: Reading, path: Path, env: dict[str, str]) -> list[str]:
    done = await committed(now, path, env)
    return (await trial(path, done.base_head, done.commit, env))[1]
