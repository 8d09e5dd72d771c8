"""Text arriving in pieces (an agent's streamed message), held as the pieces came."""

from __future__ import annotations


class Pieces:
    """Streamed text as its pieces: a value that never changes once made. Adding a piece
    is O(1): the new value shares the list of pieces, which only ever grows, and `count`
    says how many of them this value holds. Nothing on the way joins the whole text
    (`text` does, when read whole), and a view tells what was added by `since`, without
    comparing strings."""

    __slots__ = ("_parts", "count")

    def __init__(self, parts: list[str] | None = None, count: int = 0) -> None:
        self._parts: list[str] = parts if parts is not None else []
        self.count = count

    def plus(self, piece: str) -> Pieces:
        parts = self._parts
        if len(parts) != self.count or not self.count:
            parts = parts[: self.count]  # an older value grows apart (or the first piece)
        parts.append(piece)
        return Pieces(parts, self.count + 1)

    def since(self, older: Pieces) -> str | None:
        """The text added since `older`, if this value grew from it (else None)."""
        if not older.count:
            return self.text
        if older._parts is not self._parts or older.count > self.count:
            return None
        return "".join(self._parts[older.count : self.count])

    @property
    def text(self) -> str:
        return "".join(self._parts[: self.count])

    def newest_line(self, limit: int) -> str:
        """The end (at most `limit` characters) of the last line that says something,
        read from the text's end only."""
        tail = ""
        for at in range(self.count - 1, -1, -1):
            tail = self._parts[at] + tail
            lines = tail.rstrip("\n")
            if "\n" in lines:
                return lines.rsplit("\n", 1)[-1][-limit:]
            if len(lines) > limit:
                break
        return tail.rstrip("\n")[-limit:]

    def __bool__(self) -> bool:
        return self.count > 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pieces):
            return NotImplemented
        return self.count == other.count and (
            self._parts is other._parts or self.text == other.text
        )

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Pieces({self.text!r})"


NO_PIECES = Pieces()
