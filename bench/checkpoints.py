"""Checkpoints of a session's folder (contract section 16): what one costs in time, in
the event loop's stalls and on disk.

    python -m bench.checkpoints [--runs 7] [--sizes 1000,20000] [--storage 100]

For a folder of N files (1 KiB each, in 100 folders), each run changes 3 files and takes a
checkpoint as the host does (`FolderStore.record`, its store's index kept between runs);
the floor in the same run is `git add -A && git write-tree` into a fresh index file, the
folder's own ignore rules the same. Meanwhile a 1 ms ticker on the same event loop gives
the loop's longest stall. Storage: `--storage` checkpoints of the largest folder with 3
files (of 8 KiB of random bytes each) changed before each, against those files' size.
Notification: the scripted ACP agent's `--steps` plan updates (bench.acp's plan latency),
in a session whose folder has the largest size of files, against the same in an empty
folder. Targets (issue 33): p50 <= 1.5x the floor, stall <= 20 ms, storage <= 2x, the
`todos.changed` p99 within 1.1x of the empty folder's.
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
from host.checkpoints.folder import FolderStore


def make_folder(root: Path, files: int) -> Path:
    root.mkdir(parents=True)
    (root / ".gitignore").write_text("*.log\n")
    for i in range(files - 1):
        sub = root / f"d{i % 100:02}"
        sub.mkdir(exist_ok=True)
        (sub / f"f{i:05}.txt").write_bytes(os.urandom(512).hex().encode())
    return root


def change(root: Path, run: int, size: int = 64) -> int:
    written = 0
    for k in range(3):
        data = os.urandom(size).hex().encode()
        (root / f"d{k:02}" / f"changed{run % 2}-{k}.txt").write_bytes(data)
        written += len(data)
    return written


def floor(root: Path, scratch: Path) -> float:
    index = scratch / "fresh-index"
    index.unlink(missing_ok=True)
    env = {
        **os.environ,
        "GIT_DIR": str(scratch / "floor.git"),
        "GIT_WORK_TREE": str(root),
        "GIT_INDEX_FILE": str(index),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    if not (scratch / "floor.git").exists():
        subprocess.run(["git", "init", "-q", "--bare", str(scratch / "floor.git")], check=True)
    started = time.perf_counter()
    subprocess.run(
        ["git", "-c", f"core.excludesFile={os.devnull}", "add", "-A"], cwd=root, env=env, check=True
    )
    subprocess.run(["git", "write-tree"], cwd=root, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


async def timed(store: FolderStore, root: Path) -> tuple[float, float]:
    """One record's time and the loop's longest stall meanwhile."""
    stall = 0.0
    done = False

    async def tick() -> None:
        nonlocal stall
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            stall = max(stall, now - last)
            last = now

    ticker = asyncio.ensure_future(tick())
    started = time.perf_counter()
    await store.record(root)
    await store.tidy()
    took = time.perf_counter() - started
    done = True
    await ticker
    return took, stall


def du(path: Path) -> int:
    return sum(p.stat().st_blocks * 512 for p in path.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="1000,20000")
    parser.add_argument("--storage", type=int, default=100)
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="nib-bench-checkpoints-") as tmp:
        for files in sizes:
            root = make_folder(Path(tmp) / f"folder{files}", files)
            scratch = Path(tmp) / f"scratch{files}"
            scratch.mkdir()
            store = FolderStore(scratch / "store")
            asyncio.run(store.record(root))  # the first record reads every file
            asyncio.run(store.tidy())
            ours: list[float] = []
            base: list[float] = []
            stalls: list[float] = []
            for run in range(args.runs):
                change(root, run)
                took, stall = asyncio.run(timed(store, root))
                ours.append(took)
                stalls.append(stall)
                base.append(floor(root, scratch))
            o50, b50 = percentile(ours, 50) * 1e3, percentile(base, 50) * 1e3
            worst = max(stalls) * 1e3
            print(
                f"{files:>6} files, 3 changed: checkpoint p50 {o50:.1f} ms; floor (git add -A"
                f" && git write-tree, fresh index) p50 {b50:.1f} ms; ratio {o50 / b50:.2f}x"
                f" (target <= 1.5x: {'met' if o50 <= 1.5 * b50 else 'missed'})"
            )
            print(
                f"{'':>6} event loop's longest stall meanwhile {worst:.1f} ms"
                f" (target <= 20 ms: {'met' if worst <= 20 else 'missed'})"
            )
        files = max(sizes)
        root = Path(tmp) / f"folder{files}"
        store = FolderStore(Path(tmp) / "storage")
        asyncio.run(store.record(root))
        asyncio.run(store.tidy())  # the first record, packed
        before = du(store.root)
        changed = 0
        for run in range(args.storage):
            changed += change(root, run + 10, size=4096)
            asyncio.run(store.record(root))
            asyncio.run(store.tidy())
        grown = du(store.root) - before
        verdict = "met" if grown <= 2 * changed else "missed"
        print(
            f"storage: {args.storage} checkpoints of {files} files, 3 changed each:"
            f" {grown / 1024:.0f} KiB for {changed / 1024:.0f} KiB changed; ratio"
            f" {grown / changed:.2f}x (target <= 2x: {verdict})"
        )
        empty = Path(tmp) / "empty"
        empty.mkdir()
        late = {"empty": [], "large": []}  # type: dict[str, list[float]]
        for n in range(3):  # alternated, so both see the machine alike
            late["empty"] += acp_run(Path(tmp) / f"host-empty{n}", args.steps, empty)
            late["large"] += acp_run(Path(tmp) / f"host-large{n}", args.steps, root)
        e99, l99 = percentile(late["empty"], 99) * 1e3, percentile(late["large"], 99) * 1e3
        e50, l50 = percentile(late["empty"], 50) * 1e3, percentile(late["large"], 50) * 1e3
        verdict = "met" if l99 <= 1.1 * e99 else "missed"
        print(
            f"todos.changed from the agent's plan: {files} files p50 {l50:.2f} ms p99"
            f" {l99:.2f} ms; empty folder p50 {e50:.2f} ms p99 {e99:.2f} ms; p99 ratio"
            f" {l99 / e99:.2f}x (target <= 1.1x: {verdict})"
        )


if __name__ == "__main__":
    main()
