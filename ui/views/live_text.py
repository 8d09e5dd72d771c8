"""The text still arriving as the transcript's QML holds it: what to tell it of each new
value of `Transcript.live` (nib_desktop/state/pieces.py), the pieces added or the whole."""

from __future__ import annotations

from nib_desktop.state.pieces import NO_PIECES, Pieces


class LiveTold:
    """The value last told, the newlines at its end not shown yet (they wait for the text
    after them, as `liveText`, stripped, shows it), whether it shows any text and whether
    it is a thought (shown whole each time: its newest line)."""

    def __init__(self) -> None:
        self._pieces = NO_PIECES
        self._waiting = ""
        self._shown_any = False
        self._thought = False

    def told(self, live: Pieces, thought: bool) -> str | None:
        """What to append for `live` ("" nothing), or None: read it whole."""
        before, self._pieces = self._pieces, live
        grown = self._shown_any and not thought and thought == self._thought
        added = live.since(before) if grown else None
        if added is None:
            whole = live.text
            self._waiting = whole[len(whole.rstrip("\n")) :]
            self._shown_any = bool(whole.strip("\n")) and not thought
            self._thought = thought
            return None
        text = self._waiting + added
        shown = text.rstrip("\n")
        self._waiting = text[len(shown) :]
        return shown
