"""Text that arrives in pieces, told as it arrives (contract section 16, `messages.delta`):
each piece reaches clients at once (pieces within JOIN_S joined, so a flood of tiny chunks
is not a flood of notifications), and the whole is taken at the message's boundary to be
stored. What is stored is exactly what the deltas carried; a half of a surrogate pair at a
piece's end waits for its other half, so both hold the same valid text."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Literal

from host.protocol import models as m
from host.protocol.text import valid_text

JOIN_S = 0.016  # pieces arriving within this are one delta
# A message longer than this is stored in parts, each its own message (so any page of
# messages.list fits a frame); the deltas go on as one stream.
MAX_STORED_CHARS = 256 * 1024


class TextStream:
    """One message's text while it arrives."""

    def __init__(
        self,
        tell: Callable[[m.MessageDelta], None],
        session_id: str,
        turn_id: str,
        kind: Literal["text", "thought"],
    ) -> None:
        self._tell = tell
        self._session_id, self._turn_id, self.kind = session_id, turn_id, kind
        self._told: list[str] = []  # told, not yet taken
        self._pending: list[str] = []  # received, not yet told
        self.size = 0  # characters received since the last take
        self._timer: asyncio.TimerHandle | None = None

    def add(self, piece: str) -> None:
        if not piece:
            return
        self._pending.append(piece)
        self.size += len(piece)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(JOIN_S, self._send)

    def take(self) -> str:
        """The boundary: what is pending told now; the whole text since the last take."""
        self._send(final=True)
        text, self._told, self.size = "".join(self._told), [], 0
        return text

    def _send(self, final: bool = False) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        joined = "".join(self._pending)
        held = ""
        if not final and joined and "\ud800" <= joined[-1] <= "\udbff":
            joined, held = joined[:-1], joined[-1]  # its low half may be the next piece
        self._pending = [held] if held else []
        if not joined:
            return
        joined = valid_text(joined)
        self._told.append(joined)
        self._tell(
            m.MessageDelta(
                session_id=self._session_id, turn_id=self._turn_id, kind=self.kind, text=joined
            )
        )
