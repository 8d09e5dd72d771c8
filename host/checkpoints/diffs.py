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


def split_patch(patch: bytes) -> list[bytes]:
    pieces: list[bytes] = []
    start = -1
    at = 0
    while True:
        line_start = at
        if patch.startswith(b"diff --git ", line_start):
            if start >= 0:
                pieces.append(patch[start:line_start])
            start = line_start
        nl = patch.find(b"\n", at)
        if nl < 0:
            break
        at = nl + 1
    if start >= 0:
        pieces.append(patch[start:])
    return pieces


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
    status: bytes, numbers: bytes, patch: bytes, per_file: int, whole: int
) -> list[FileChange]:
    """git's `diff-tree -z --name-status`, `-z --numstat` and `-p` of the same two trees as
    FileChanges in path order: each file's diff cut at `per_file` characters on a line's
    end, all of them together at `whole` (past it, `diff: ""` and `truncated`)."""
    entries = name_status(status.split(b"\0"))
    counts = numstat(numbers.split(b"\0"))
    patches = split_patch(patch)
    budget = whole
    result: list[FileChange] = []
    for i, (kind, path, old_path) in enumerate(entries):
        added, deleted = counts[i] if i < len(counts) else (None, None)
        binary = added is None
        text = "" if binary or i >= len(patches) else patch_body(patches[i])
        truncated = False
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
