"""What the user wrote and did not send yet, kept across quits and crashes, in the data
folder: each session's draft, its message queued for the running turn's end, and its asks
on the plan (and whether they were sent to go at that turn's end):

    DIR/window-drafts.json: {"version": 1, "drafts": {session id, or "": text},
                             "queued": {session id: text},
                             "asks": {session id: {"asks": [[kind, step, text, places]],
                                                   "queued": bool}}}

The draft of "" is what the input held with no session shown, as at the first launch
before any session exists. ("queued" and "asks" are additive: a file without them is read
as before.) Written as it changes: WRITE_AFTER_S after the last change, on a worker
thread (never a write on the GUI thread), and at once as the window closes; read before
the first frame. A file that cannot be read is ignored (nothing else is in it), and
writing it never fails the window.
"""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from nib_desktop.state import store
from nib_desktop.state.tuples import NamedTuple
from nib_desktop.state.types import AskKind, PlanAsk

if TYPE_CHECKING:
    import asyncio

    from nib_desktop.state import events as ev
    from nib_desktop.state.store import AppState, Change

log = logging.getLogger(__name__)

FILENAME = "window-drafts.json"
VERSION = 1
WRITE_AFTER_S = 0.5
MAX_BYTES = 8 << 20
KINDS = frozenset(get_args(AskKind))


class Unsent(NamedTuple):
    drafts: dict[str, str]
    queued: dict[str, str]
    asks: dict[str, tuple[PlanAsk, ...]]
    asks_queued: set[str]

    @classmethod
    def of(cls, state: AppState) -> Unsent:
        return cls(
            dict(state.drafts), dict(state.queued), dict(state.plan_asks), set(state.asks_queued)
        )

    def onto(self, state: AppState) -> None:
        """Onto a new state, before any view watches it."""
        state.drafts, state.queued = dict(self.drafts), dict(self.queued)
        state.plan_asks, state.asks_queued = dict(self.asks), set(self.asks_queued)


def nothing() -> Unsent:
    return Unsent({}, {}, {}, set())


def _texts(held: object, unshown: bool = False) -> dict[str, str]:
    """Each session's text; with `unshown`, also the input's with no session shown ("")."""
    if not isinstance(held, dict):
        return {}
    return {
        k: v
        for k, v in held.items()
        if isinstance(k, str) and (k or unshown) and isinstance(v, str)
    }


def _asks(held: object) -> tuple[dict[str, tuple[PlanAsk, ...]], set[str]]:
    asks: dict[str, tuple[PlanAsk, ...]] = {}
    queued: set[str] = set()
    for session_id, entry in (held if isinstance(held, dict) else {}).items():
        rows = entry.get("asks") if isinstance(entry, dict) else None
        kept = tuple(
            PlanAsk(row[0], row[1], row[2], row[3])
            for row in (rows if isinstance(rows, list) else [])
            if isinstance(row, list)
            and len(row) == 4
            and row[0] in KINDS
            and isinstance(row[1], str)
            and isinstance(row[2], str)
            and type(row[3]) is int
        )
        if isinstance(session_id, str) and session_id and kept:
            asks[session_id] = kept
            if entry.get("queued") is True:
                queued.add(session_id)
    return asks, queued


def load(data_dir: Path) -> Unsent:
    try:
        path = data_dir / FILENAME
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return nothing()  # a FIFO there would hold the window before its first frame
        held = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return nothing()
    if not isinstance(held, dict) or held.get("version") != VERSION:
        return nothing()
    asks, asks_queued = _asks(held.get("asks"))
    drafts = _texts(held.get("drafts"), unshown=True)
    return Unsent(drafts, _texts(held.get("queued")), asks, asks_queued)


def save(data_dir: Path, unsent: Unsent) -> None:
    from host.protocol.settings_file import replace_file

    asks: dict[str, Any] = {
        session_id: {"asks": [list(a) for a in held], "queued": session_id in unsent.asks_queued}
        for session_id, held in unsent.asks.items()
        if held
    }
    text = json.dumps(
        {"version": VERSION, "drafts": unsent.drafts, "queued": unsent.queued, "asks": asks},
        ensure_ascii=False,
    )
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        replace_file(data_dir / FILENAME, text)
    except OSError as exc:  # only what was written: the window goes on
        log.warning("the drafts could not be kept: %s", exc)


KEPT = (store.DRAFTS, store.QUEUED, store.FEEDBACK)  # the changes that are written


class DraftKeeper:
    """Writes what is unsent WRITE_AFTER_S after it last changed, off the GUI thread;
    `flush` writes it at once (the window closing)."""

    def __init__(self, state: AppState, data_dir: Path) -> None:
        self._state, self._data_dir = state, data_dir
        self._written = Unsent.of(state)
        self._timer: asyncio.TimerHandle | None = None
        self._writing: asyncio.Future[None] | None = None
        state.subscribe(self._heard)

    def _heard(self, _event: ev.Event, change: Change) -> None:
        if not any(part in change for part in KEPT):
            return
        import asyncio  # (not at the module's top: `load` is in the first frame, asyncio not)

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (the window closing): `flush` writes them
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_later(WRITE_AFTER_S, self._write_soon)

    def _write_soon(self) -> None:
        import asyncio

        self._timer = None
        unsent = Unsent.of(self._state)
        if unsent != self._written:
            self._written = unsent
            self._writing = asyncio.ensure_future(asyncio.to_thread(save, self._data_dir, unsent))

    def flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        unsent = Unsent.of(self._state)
        if unsent != self._written:
            self._written = unsent
            save(self._data_dir, unsent)
