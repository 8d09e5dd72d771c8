"""Still motion asked for by the environment; kept apart so start-up imports nothing more
for it."""

from __future__ import annotations

import os


def reduced_motion_default() -> bool:
    """NIB_REDUCED_MOTION=1 asks for still motion whatever the settings say."""
    return os.environ.get("NIB_REDUCED_MOTION", "") not in ("", "0", "false")


def still_motion(chosen: bool) -> bool:
    """Whether the window keeps still: the user chose it, or the environment asks."""
    return chosen or reduced_motion_default()
