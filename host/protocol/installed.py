"""The installed distributions' metadata folders on the path, found without importing
importlib.metadata (15 ms, between the host's ready line and its first answer): for the
app's version and the host's plugins. Where the path holds what only importlib.metadata
reads (a zip or an egg file on it, a finder of distributions besides Python's own) there
is no answer here, and the caller asks importlib.metadata."""

from __future__ import annotations

import os
import sys


def metadata_folders() -> list[str] | None:
    """Every `*.dist-info` and `*.egg-info` on the path, in the path's order (where
    importlib.metadata looks first); None where that is not all it would read."""
    from importlib.machinery import PathFinder

    if any(hasattr(f, "find_distributions") and f is not PathFinder for f in sys.meta_path):
        return None
    found: list[str] = []
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return None  # a zip or an egg: importlib.metadata reads inside it
            continue
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        found += [os.path.join(folder, n) for n in names if n.endswith((".dist-info", ".egg-info"))]
    return found
