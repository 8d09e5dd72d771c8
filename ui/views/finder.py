"""What Ctrl+F finds in the shown transcript, as the transcript's view holds it: the
query, the rows of its occurrences, the one shown, the message a search hit asked to show
first, and the session the query is of. Plain Python; the view tells the QML."""

from __future__ import annotations

from nib_desktop.state import find
from nib_desktop.state.parts import Transcript


class Finder:
    def __init__(self) -> None:
        self.query = ""
        self.found: tuple[int, ...] = ()
        self.at = -1
        # the session and message whose occurrence `look_at` shows first, once loaded
        self.seq: tuple[str, int] = ("", 0)
        self.finding_in = ""  # the session the query is of

    def look(self, query: str, session_id: str = "", seq: int = 0) -> None:
        self.query, self.seq = query, (session_id, seq)

    def refind(self, held: Transcript, keep: bool) -> bool:
        """The occurrences anew; the one shown stays on its row where it can (`keep`),
        else the first in the message asked for once it is loaded, else the newest.
        True when that message is in an older page, which is to be read."""
        row = self.row() if keep else -1
        lines = held.lines
        self.found = find.occurrences(lines, self.query)
        sid, seq = self.seq
        here = bool(seq) and held.session_id == sid
        at_seq = [r for r in self.found if here and lines[r].seq == seq]
        if at_seq:
            self.at, self.seq = self.found.index(at_seq[0]), ("", 0)
            return False
        if here and held.loaded and held.has_more and held.oldest_seq > seq:
            return True
        self.at = self.found.index(row) if row >= 0 and row in self.found else len(self.found) - 1
        return False

    def ended_elsewhere(self, shown: str) -> bool:
        """Another session shown: what was being found was the other one's, and ends
        (unless a search hit asked to find its word in this one). True when it ended."""
        if shown == self.finding_in:
            return False
        self.finding_in = shown
        if not self.query or self.seq[0] == shown:
            return False
        self.query, self.found, self.at = "", (), -1
        return True

    def step(self, step: int) -> bool:
        """The next (1) or previous (-1) occurrence, wrapping around."""
        if not self.found:
            return False
        self.at = (self.at + step) % len(self.found)
        return True

    def row(self) -> int:
        """The row of the occurrence shown (-1: none)."""
        return self.found[self.at] if 0 <= self.at < len(self.found) else -1

    def count(self) -> str:
        return find.count_text(len(self.found), self.at) if self.query.strip() else ""
