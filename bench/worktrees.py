"""A worktree per session (contract section 18): what making one and reading it cost,
against git alone in the same run.

    python -m bench.worktrees [--files 20000] [--runs 7] [--steps 40]

A repository of N files (512 bytes each, in 100 folders), one commit. Making: the host's
own path (`git worktree add` under the data folder, then the worktree's first checkpoint,
as its first turn takes it) against `git worktree add` alone (the floor). Reading: with 3
files changed in the worktree, `worktrees.status` as the host computes it (a scratch
index copied from the worktree's base and an object directory, the diff from the merge
base, the trial merge) against `git status --porcelain` and `git merge-tree --write-tree`
alone, read again and again (the host's from its last reading's index, `Bases.keep`), then
each right after a fourth file changed (not a target). Telling: the agent's plan as
`todos.changed` in a worktree session against a session without one (see `told`).
Targets (issue 49): making <= 1.5x the floor, the host's loop never held over 20 ms
meanwhile; status p99 <= 100 ms and <= 2x its floor; `todos.changed` p99 <= 1.1x.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import tempfile
import time
from pathlib import Path

from bench.acp import acp_run
from bench.stats import percentile
from harness.git_env import git_env
from host.checkpoints.folder import FolderStore
from host.protocol import models as m
from host.worktrees import making, reading
from host.worktrees.bases import Bases

ENV = git_env()
READINGS = 100  # of status, each kind: at 20, p99 was the one slowest (the first reading,
# which makes the worktree's base, against a floor's slowest, the disk's noise)
CHANGED_READINGS = 30  # of status right after a change, each kind
HOSTS, TURNS = 16, 8  # of each kind, for `told`: its p99 is of HOSTS x TURNS x steps
# revisions. At 800 (20 hosts of one turn), two kinds of the same code differed by 16%, more
# than the target leaves; `--same` measures that resolution in the run.


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], env=ENV, check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


def repository(root: Path, files: int) -> Path:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    for i in range(files):
        sub = root / f"d{i % 100:02}"
        sub.mkdir(exist_ok=True)
        (sub / f"f{i:05}.txt").write_bytes(os.urandom(256).hex().encode())
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def timed(work: object) -> float:
    started = time.perf_counter()
    if asyncio.iscoroutine(work):
        asyncio.run(work)
    return (time.perf_counter() - started) * 1000


async def nib_make(
    repo: Path, path: Path, branch: str, data: Path, ticking: bool = False
) -> tuple[float, float]:
    """The host's making: its own part (ms, all but `git worktree add`), and with
    `ticking` the event loop's longest stall meanwhile (ms, from a 1 ms ticker on the
    same loop; its own wake-ups slow the making, so it is timed in runs of its own)."""
    stall = 0.0

    async def ticker() -> None:
        nonlocal stall
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            stall, last = max(stall, now - last - 0.001), now

    ticks = asyncio.ensure_future(ticker()) if ticking else None
    started = time.perf_counter()
    found = await making.repo_of(repo)
    _base, commit = await making.base_of(found, None)
    adding = time.perf_counter()
    await making.make(found, path, branch, commit, carry=False)
    added = time.perf_counter()
    await FolderStore(data / "store" / branch.replace("/", "-")).record(path)
    own = (adding - started + time.perf_counter() - added) * 1000
    if ticks is not None:
        ticks.cancel()
    return own, stall * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--steps", type=int, default=40, help="plan updates in a turn")
    parser.add_argument("--same", action="store_true", help="`told` of two kinds without one")
    parser.add_argument("--told-only", action="store_true", help="`told` only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        repo = repository(root / "repo", args.files)
        if not args.told_only:
            make(root, repo, args.files, args.runs)
            read(root, repo, args.runs)
        told(root, repo, args.steps, args.same)


def make(root: Path, repo: Path, files: int, runs: int) -> None:
    """Making a worktree, as the host does and as git alone does."""
    floors, nibs, own, stalls = [], [], [], []
    for run in range(runs):
        os.sync()  # each starts with the last one's files on disk: the same for both
        started = time.perf_counter()
        git(repo, "worktree", "add", "-q", "-b", f"floor/{run}", str(root / f"floor{run}"))
        floors.append((time.perf_counter() - started) * 1000)
        os.sync()
        started = time.perf_counter()
        making_one = nib_make(repo, root / "data" / f"wt{run}", f"nib/{run}", root)
        part, _stall = asyncio.run(making_one)
        nibs.append((time.perf_counter() - started) * 1000)
        own.append(part)
    for run in range(3):  # the loop's stalls, in runs of their own
        os.sync()
        making_one = nib_make(repo, root / "data" / f"st{run}", f"st/{run}", root, True)
        stalls.append(asyncio.run(making_one)[1])
    print(f"making a worktree of {files:,} files ({runs} runs):")
    print(f"  git worktree add alone:           p50 {percentile(floors, 50):8.1f} ms")
    print(
        f"  the host's (first checkpoint in): p50 {percentile(nibs, 50):8.1f} ms"
        f"  ratio {percentile(nibs, 50) / percentile(floors, 50):.2f}x (target <= 1.5x)"
    )
    print(  # git's add varies with the disk's writeback; the host's own part does not
        f"  the host's own part (all but git's add): p50 {percentile(own, 50):6.1f} ms"
        f" = {percentile(own, 50) / percentile(floors, 50):.2f}x the floor"
    )
    print(f"  the event loop's longest stall meanwhile: {max(stalls):.1f} ms (target <= 20 ms)")


def read(root: Path, repo: Path, runs: int) -> None:
    """`worktrees.status` of the first one made, with 3 files changed, against git alone."""
    path = root / "data" / "wt0"
    for k in range(3):
        (path / f"d{k:02}" / f"f{k:05}.txt").write_text(f"changed {k}\n")
    head = git(path, "rev-parse", "HEAD")
    tree = making.new_worktree(
        making.Repo(repo, repo, repo / ".git", ""), path, "nib/0", "main", head
    )
    os.sync()  # the worktrees made just now written out first: the same disk for both
    floor_status, nib_status = [], []
    bases = Bases(root / "scratch")  # as the host reads: from the worktree's base
    for _run in range(max(runs, READINGS)):
        started = time.perf_counter()
        git(path, "status", "--porcelain")
        git(path, "merge-tree", "--write-tree", "main", "HEAD")
        floor_status.append((time.perf_counter() - started) * 1000)
        nib_status.append(timed(reading.status("s", tree, True, bases)))
    p99, floor99 = percentile(nib_status, 99), percentile(floor_status, 99)
    print("worktrees.status with 3 files changed:")
    print(
        f"  git status + merge-tree alone: p50 {percentile(floor_status, 50):7.1f} ms"
        f"  p99 {floor99:7.1f} ms"
    )
    print(
        f"  the host's:                    p50 {percentile(nib_status, 50):7.1f} ms"
        f"  p99 {p99:7.1f} ms (target <= 100 ms)  ratio p50"
        f" {percentile(nib_status, 50) / percentile(floor_status, 50):.2f}x,"
        f" p99 {p99 / floor99:.2f}x (target <= 2x)"
    )
    after_a_change(path, tree, bases)
    bases.close()


def after_a_change(path: Path, tree: m.Worktree, bases: Bases) -> None:
    """The same, each reading right after a fourth file changed (not a target: the host's
    reading then writes its scratch index twice, where one of unchanged files writes none)."""
    changed = path / "d03" / "f00003.txt"
    floor_status, nib_status = [], []
    for run in range(CHANGED_READINGS):
        changed.write_text(f"changed again {run}\n")
        started = time.perf_counter()
        git(path, "status", "--porcelain")
        git(path, "merge-tree", "--write-tree", "main", "HEAD")
        floor_status.append((time.perf_counter() - started) * 1000)
        changed.write_text(f"changed again {run}, for the host\n")
        nib_status.append(timed(reading.status("s", tree, True, bases)))
    floor50, nib50 = percentile(floor_status, 50), percentile(nib_status, 50)
    print(
        f"  each right after a file changed: git alone p50 {floor50:5.1f} ms, the host's"
        f" {nib50:5.1f} ms, ratio {nib50 / floor50:.2f}x (not a target)"
    )


def told(root: Path, repo: Path, steps: int, same: bool) -> None:
    """`todos.changed` of the scripted agent's plan updates (bench.acp's plan latency) in
    a session with a worktree of the repository, whose every revision and turn end makes
    the host read the worktree's status (`worktrees.changed`, at most once a second),
    against a session in the repository's checkout without one: the same folder, the
    same checkpoints, no worktree. Each host's session runs a first turn unmeasured (its
    first checkpoint, which in a fresh worktree reads again every file git wrote in its
    last second, and its agent's start), then TURNS measured turns, each started as the
    last ends, while that end's status is read. Hosts of the two kinds alternate, so both
    see the machine alike. With `same`, both kinds are without a worktree: the ratio the
    benchmark itself measures between equals."""
    late: dict[bool, list[float]] = {False: [], True: []}
    for n in range(HOSTS):
        for worktree in (False, True):
            kind = "wt" if worktree else "plain"
            made = worktree and not same
            late[worktree] += acp_run(root / f"host-{kind}{n}", steps, repo, made, True, TURNS)
    p50 = {k: percentile(v, 50) * 1e3 for k, v in late.items()}
    p99 = {k: percentile(v, 99) * 1e3 for k, v in late.items()}
    count = len(late[False])
    print(f"todos.changed of the agent's plan ({steps} updates a turn, {count} of each kind):")
    print(f"  without a worktree: p50 {p50[False]:6.2f} ms  p99 {p99[False]:6.2f} ms")
    other = "without one again" if same else "in a worktree:     "
    print(
        f"  {other} p50 {p50[True]:6.2f} ms  p99 {p99[True]:6.2f} ms  p99 ratio"
        f" {p99[True] / p99[False]:.2f}x (target <= 1.1x)"
    )


if __name__ == "__main__":
    main()
