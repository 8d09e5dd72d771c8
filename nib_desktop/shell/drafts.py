"""Each session's unsent text kept across quits and crashes, in the data folder:

    DIR/window-drafts.json: {"version": 1, "drafts": {session id: text}}

Written as it is typed: WRITE_AFTER_S after the last change, on a worker thread (never a
write on the GUI thread), and at once as the window closes; read before the first
frame. A file that cannot be read is ignored (nothing else is in it), and writing it
never fails the window."""

from __future__ import annotations

import asyncio
import json
import logging
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from nib_desktop.state import store

if TYPE_CHECKING:
    from nib_desktop.state import events as ev
    from nib_desktop.state.store import AppState, Change

log = logging.getLogger(__name__)

FILENAME = "window-drafts.json"
VERSION = 1
WRITE_AFTER_S = 0.5
MAX_BYTES = 8 << 20


def load(data_dir: Path) -> dict[str, str]:
    try:
        path = data_dir / FILENAME
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return {}  # a FIFO there would hold the window before its first frame
        held = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    drafts = held.get("drafts") if isinstance(held, dict) else None
    if not isinstance(drafts, dict) or held.get("version") != VERSION:
        return {}
    return {k: v for k, v in drafts.items() if isinstance(k, str) and k and isinstance(v, str)}


def save(data_dir: Path, drafts: dict[str, str]) -> None:
    from host.protocol.settings_file import replace_file

    text = json.dumps({"version": VERSION, "drafts": drafts}, ensure_ascii=False)
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        replace_file(data_dir / FILENAME, text)
    except OSError as exc:  # only what was typed: the window goes on
        log.warning("the drafts could not be kept: %s", exc)


class DraftKeeper:
    """Writes the state's drafts WRITE_AFTER_S after they last changed, off the GUI thread;
    `flush` writes them at once (the window closing)."""

    def __init__(self, state: AppState, data_dir: Path) -> None:
        self._state, self._data_dir = state, data_dir
        self._written = dict(state.drafts)
        self._timer: asyncio.TimerHandle | None = None
        self._writing: asyncio.Future[None] | None = None
        state.subscribe(self._heard)

    def _heard(self, _event: ev.Event, change: Change) -> None:
        if store.DRAFTS not in change:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (the window closing): `flush` writes them
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_later(WRITE_AFTER_S, self._write_soon)

    def _write_soon(self) -> None:
        self._timer = None
        drafts = dict(self._state.drafts)
        if drafts != self._written:
            self._written = drafts
            self._writing = asyncio.ensure_future(asyncio.to_thread(save, self._data_dir, drafts))

    def flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        drafts = dict(self._state.drafts)
        if drafts != self._written:
            self._written = drafts
            save(self._data_dir, drafts)
