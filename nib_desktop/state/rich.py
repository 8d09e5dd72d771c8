"""A tool's detail (a diff, an output) as the restricted rich text the window draws: made
here from plain text, every character escaped, so nothing the agent wrote is markup; a
diff's added, removed and hunk lines coloured. No Qt."""

from __future__ import annotations

import html

DETAIL_LINES = 12  # a detail longer than this is folded to its first lines until clicked
# readable on the light and the dark palette alike
_COLOURS = {"+": "#2f9e44", "-": "#e03131", "@": "#7950f2"}


def detail_html(text: str, kind: str, lines: int | None = None) -> str:
    """`text` as rich text, its first `lines` lines only (then how many more) when given."""
    rows = text.split("\n")
    shown = rows if lines is None else rows[:lines]
    out = []
    for row in shown:
        escaped = html.escape(row, quote=False)
        colour = _COLOURS.get(row[:1]) if kind == "diff" and not row.startswith(
            ("+++ ", "--- ")) else None  # fmt: skip
        out.append(f'<span style="color:{colour}">{escaped}</span>' if colour else escaped)
    more = len(rows) - len(shown)
    if more:
        out.append(f"… {more:,} more lines ▸")
    return "<pre>" + "\n".join(out) + "</pre>"


def detail_preview_html(text: str, kind: str) -> str:
    """The folded form, or "" when the detail is short enough to show whole."""
    if not text or text.count("\n") < DETAIL_LINES:
        return ""
    return detail_html(text, kind, DETAIL_LINES)
