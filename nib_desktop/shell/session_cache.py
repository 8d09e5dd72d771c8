"""The sessions list as it was when the window last closed, drawn in the next first frame
while the host starts (marked as such, and not yet usable), so nothing jumps when the
host's own list arrives and replaces it.

    DIR/window-sessions.json: {"version": 1, "sessions": [{"id", "title", "mode",
                               "agent", "folder", "remote"}, ...]}

At most MAX_CACHED rows, newest first; a file that cannot be read is ignored (it is only
a picture of the last list), and writing it never fails the quit."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from host.protocol.settings_file import replace_file
from nib_desktop.state.types import Session

log = logging.getLogger(__name__)

FILENAME = "window-sessions.json"
VERSION = 1
MAX_CACHED = 200
MAX_BYTES = 1 << 20


def load(data_dir: Path) -> tuple[Session, ...]:
    path = data_dir / FILENAME
    try:
        if path.stat().st_size > MAX_BYTES:
            return ()
        held = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    if not isinstance(held, dict) or held.get("version") != VERSION:
        return ()
    rows = held.get("sessions")
    if not isinstance(rows, list):
        return ()
    sessions = []
    for row in rows[:MAX_CACHED]:
        if not isinstance(row, dict):
            continue
        values = [row.get(k) for k in ("id", "title", "mode", "agent", "folder")]
        if not all(isinstance(v, str) for v in values) or not values[0]:
            continue
        sid, title, mode, agent, folder = (str(v) for v in values)
        sessions.append(
            Session(sid, title, mode, remote=bool(row.get("remote")), agent=agent, folder=folder)
        )
    return tuple(sessions)


def save(data_dir: Path, sessions: tuple[Session, ...]) -> None:
    rows = [
        {
            "id": s.session_id,
            "title": s.title,
            "mode": s.mode,
            "agent": s.agent,
            "folder": s.folder,
            "remote": s.remote,
        }
        for s in sessions[:MAX_CACHED]
    ]
    text = json.dumps({"version": VERSION, "sessions": rows}, ensure_ascii=False)
    try:
        replace_file(data_dir / FILENAME, text)
    except OSError as exc:  # only a picture of the list: the quit goes on
        log.warning("could not keep the sessions list for the next start: %s", exc)
