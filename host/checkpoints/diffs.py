"""git's diffs of two records read into the contract's FileChange: name-status, numstat and
the patch, split per file."""

from __future__ import annotations

from host.protocol.models import ChangeStatus, FileChange

_KINDS: dict[str, ChangeStatus] = {
    "A": "added", "M": "modified", "T": "modified", "D": "deleted", "R": "renamed", "C": "added",
}  # fmt: skip


def name_status(parts: list[bytes]) -> list[tuple[ChangeStatus, str, str | None]]:
    found: list[tuple[ChangeStatus, str, str | None]] = []
    i = 0
    while i < len(parts) and parts[i]:
        letter = parts[i].decode()[0]
        if letter in "RC":
            old, new = parts[i + 1], parts[i + 2]
            found.append((_KINDS[letter], _text(new), _text(old) if letter == "R" else None))
            i += 3
        else:
            found.append((_KINDS.get(letter, "modified"), _text(parts[i + 1]), None))
            i += 2
    return found


def numstat(parts: list[bytes]) -> list[tuple[int | None, int | None]]:
    found: list[tuple[int | None, int | None]] = []
    i = 0
    while i < len(parts) and parts[i]:
        added, deleted, rest = parts[i].split(b"\t", 2)
        binary = added == b"-"
        found.append((None, None) if binary else (int(added), int(deleted)))
        i += 3 if rest == b"" else 1  # a rename: its two paths follow
    return found


MARK = b"\ndiff --git "
HEAD_ROOM = 4096  # bytes of a file's patch kept past its limit, for git's header lines


class PatchCut:
    """git's `-p` output, fed as it is read, split per file and cut while it is read:
    each file's patch kept to `per_file` (plus its header lines), all of them to `whole`;
    `feed` answers False once `whole` is spent (git can stop: what follows is not kept)."""

    def __init__(self, per_file: int, whole: int) -> None:
        self.pieces: list[bytearray] = []
        self.cut: list[bool] = []  # each piece: whether some of it was not kept
        self.stopped = False  # the whole was spent before git's output ended
        self._per_file = per_file + HEAD_ROOM
        self._left = whole
        self._tail = b""  # bytes not yet placed: they may begin a file's mark
        self._begun = False

    def feed(self, chunk: bytes) -> bool:
        data = self._tail + chunk
        at = 0
        if not self._begun and len(data) >= len(MARK):
            self._begun = True
            if data.startswith(MARK[1:]):
                self._next()
        while (found := data.find(MARK, at)) >= 0:
            self._add(data[at : found + 1])
            self._next()
            at = found + 1
            if self._left <= 0:
                self.stopped = True
                return False
        keep = max(at, len(data) - len(MARK) + 1)
        self._add(data[at:keep])
        self._tail = data[keep:]
        return True

    def close(self) -> list[tuple[bytes, bool]]:
        if self.stopped and self.cut:  # the file begun when the whole was spent: not read
            self.cut[-1] = True
        if not self.stopped:
            if not self._begun and self._tail.startswith(MARK[1:]):
                self._next()
            self._add(self._tail)
        return [(bytes(piece), cut) for piece, cut in zip(self.pieces, self.cut, strict=True)]

    def _next(self) -> None:
        if self.pieces:
            self._left -= len(self.pieces[-1])
        self.pieces.append(bytearray())
        self.cut.append(False)

    def _add(self, part: bytes) -> None:
        if not self.pieces or not part:
            return
        piece = self.pieces[-1]
        room = self._per_file - len(piece)
        if len(part) > room:
            piece += part[: max(room, 0)]
            self.cut[-1] = True
        else:
            piece += part


def patch_body(piece: bytes) -> str:
    """A file's unified diff from its `---` line on (git's own header lines left out)."""
    for marker in (b"\n--- ", b"\n@@ "):
        at = piece.find(marker)
        if at >= 0:
            return piece[at + 1 :].decode("utf-8", "replace")
    return ""


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def file_changes(
    status: bytes, numbers: bytes, patch: PatchCut, per_file: int, whole: int
) -> list[FileChange]:
    """git's `diff-tree -z --name-status`, `-z --numstat` and `-p` (as `patch` kept it)
    of the same two trees as FileChanges in path order: each file's diff cut at
    `per_file` characters on a line's end, all of them together at `whole` (past it,
    `diff: ""` and `truncated`)."""
    entries = name_status(status.split(b"\0"))
    counts = numstat(numbers.split(b"\0"))
    patches = patch.close()
    budget = whole
    result: list[FileChange] = []
    for i, (kind, path, old_path) in enumerate(entries):
        added, deleted = counts[i] if i < len(counts) else (None, None)
        binary = added is None
        piece, cut_short = patches[i] if i < len(patches) else (b"", patch.stopped)
        text = "" if binary else patch_body(piece)
        truncated = cut_short and not binary
        if cut_short and "\n" in text:  # its last line may be cut in two: left out
            text = text[: text.rfind("\n") + 1]
        limit = min(per_file, max(budget, 0))
        if len(text) > limit:
            cut = text.rfind("\n", 0, limit)
            text, truncated = text[: cut + 1 if cut >= 0 else 0], True
        budget -= len(text)
        result.append(
            FileChange(
                path=path,
                old_path=old_path,
                status=kind,
                binary=binary,
                additions=added or 0,
                deletions=deleted or 0,
                diff=text,
                truncated=truncated,
            )
        )
    return result
