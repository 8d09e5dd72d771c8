"""Finding text in the transcript: every place a query occurs in the lines held, their
folded parts, a tool's output or diff and its input included, in order. No Qt."""

from __future__ import annotations

from nib_desktop.state.transcript_lines import Line

MAX_MATCHES = 10_000  # counted and visited; past this the count says "10,000+"


def occurrences(lines: tuple[Line, ...], query: str) -> tuple[int, ...]:
    """The row of each occurrence of `query` (case folded) in `lines`, top to bottom, at
    most MAX_MATCHES; () for an empty query."""
    wanted = query.casefold()
    if not wanted.strip():
        return ()
    rows: list[int] = []
    for row, line in enumerate(lines):
        for part in (line.text, line.detail, line.call_input):
            if part:
                found = part.casefold().count(wanted)
                rows.extend([row] * min(found, MAX_MATCHES - len(rows)))
        if len(rows) >= MAX_MATCHES:
            break
    return tuple(rows)


def count_text(found: int, current: int) -> str:
    """The find bar's count: "3 of 12", "No matches", "1 of 10,000+"."""
    if not found:
        return "No matches"
    total = f"{found:,}+" if found >= MAX_MATCHES else f"{found:,}"
    return f"{current + 1:,} of {total}"
