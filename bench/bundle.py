"""The bundle's figures: build time, size on disk and compressed, and the --smoke-test
wall time of the bundle against the same run from source (the floor), as a ratio.

    python -m bench.bundle [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from harness.bundle import build_bundle

ROOT = Path(__file__).resolve().parent.parent


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def smoke(command: list[str]) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(proc.stdout + proc.stderr)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nib-bundle-") as folder:
        dist, work = Path(folder) / "dist", Path(folder) / "work"
        start = time.perf_counter()
        exe = str(build_bundle(dist, work))
        build = time.perf_counter() - start
        bundle = dist / "nib-desktop"
        archive = Path(folder) / "nib-desktop.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(bundle, arcname="nib-desktop")
        smoke([exe, "--smoke-test"])  # warm the file cache
        frozen = statistics.median(smoke([exe, "--smoke-test"]) for _ in range(args.runs))
        source = statistics.median(
            smoke([sys.executable, "-m", "nib_desktop", "--smoke-test"]) for _ in range(args.runs)
        )
        print(f"build (onedir, clean)         {build:6.1f} s")
        print(f"bundle on disk                {folder_size(bundle) / 2**20:6.1f} MiB")
        print(f"bundle as .tar.gz             {archive.stat().st_size / 2**20:6.1f} MiB")
        print(f"--smoke-test, from source     {source:6.2f} s (floor)")
        print(f"--smoke-test, bundle          {frozen:6.2f} s  {frozen / source:4.2f}x source")
    return 0


if __name__ == "__main__":
    sys.exit(main())
