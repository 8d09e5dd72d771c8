"""What a fresh Python running a script in the project prints: for the tests that look
at what a process imports or makes from its first line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def python_says(script: str) -> str:
    """The stripped standard output of `python -c script` run in the project's folder;
    its errors in the failure when it does not exit 0."""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()
