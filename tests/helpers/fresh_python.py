"""A fresh Python running a script in the project: for the tests that look at what a
process imports, makes or prints from its first line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def without_nib_settings() -> dict[str, str]:
    """This environment without the `NIB_` variables a test run may have set."""
    return {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}


def run_python(
    script: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """`python -c script` run to its end in the project's folder, its output captured."""
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )


def python_says(script: str) -> str:
    """The stripped standard output of `python -c script`; its errors in the failure when
    it does not exit 0."""
    done = run_python(script)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()
