"""Whether a plugin may be installed (`host.tools.plugins`), asked without loading the
plugins' own module: a host without plugins, most of them, neither imports it nor
importlib.metadata."""

from __future__ import annotations

import os

from host.protocol.installed import metadata_folders

GROUP = "nib.tools"  # the entry points' group that names plugins


def may_have_plugins() -> bool:
    """Whether an installed distribution may declare a plugin: one whose
    `entry_points.txt` names the group, or any where the path holds more than folders
    (`installed.metadata_folders`). Where none may, importlib.metadata is not imported:
    it costs the host 15 ms of the way from its ready line to its first answer, every
    start, to find no plugin."""
    folders = metadata_folders()
    if folders is None:
        return True
    for folder in folders:
        try:
            with open(os.path.join(folder, "entry_points.txt"), "rb") as points:
                if GROUP.encode() in points.read():
                    return True
        except OSError:
            continue  # none (most distributions), or an egg-info file
    return False
