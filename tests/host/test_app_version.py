"""The version the host says in host.hello is the package metadata's, read without
importing importlib.metadata (15 ms of the host's way to its first answer)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_the_metadatas_without_importlib_metadata() -> None:
    script = (
        "import sys\n"
        "from host.protocol.appinfo import app_version\n"
        "print(app_version(), 'importlib.metadata' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [version("nib-desktop"), "False"]
