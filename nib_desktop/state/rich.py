"""A tool's detail (a diff, an output) as the restricted rich text the window draws: made
here from plain text, every character escaped, so nothing the agent wrote is markup; a
diff's added, removed and hunk lines coloured. No Qt."""

from __future__ import annotations

DETAIL_LINES = 12  # a detail longer than this is folded to its first lines until clicked
# readable on the light and the dark palette alike
_COLOURS = {"+": "#2f9e44", "-": "#e03131", "@": "#7950f2"}
LINK = "#4a8fe0"  # a link's words (Qt's own link blue is unreadable on the dark palette)


def escape(text: str, quote: bool = True) -> str:
    """`text` with its &, < and > (and with `quote` its quotes) as entities, as
    `html.escape` writes them: the `html` module's import reads its table of entities,
    1.5 ms before the window's first frame, for none of them."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if quote:
        text = text.replace('"', "&quot;").replace("'", "&#x27;")
    return text


def link(href: str, words: str) -> str:
    """A link of the window's own making: `href` and `words` already escaped."""
    return f'<a href="{href}"><span style="color:{LINK}">{words}</span></a>'


Place = tuple[str, "int | None"]  # a file a tool touched, and the line (None: the file)


def place_text(place: Place) -> str:
    return f"{place[0]}:{place[1]}" if place[1] is not None else place[0]


def detail_html(
    text: str,
    kind: str,
    lines: int | None = None,
    places: tuple[Place, ...] = (),
    hunks: bool = False,
) -> str:
    """`text` as rich text, its first `lines` lines only (then how many more) when given.
    A row that names one of `places` (an output's "path:line", a diff's "+++ path") is a
    link "place:N" that opens it; with `hunks`, each hunk of a diff ends its "@@" row with
    a link "hunk:N" that reverts it."""
    rows = text.split("\n")
    shown = rows if lines is None else rows[:lines]
    named = (
        {place_text(p): n for n, p in enumerate(places)}
        if kind in ("output", "calls")
        else {f"+++ {p[0]}": n for n, p in enumerate(places)}
    )
    out = []
    hunk = 0
    for row in shown:
        escaped = escape(row, quote=False)
        if hunks and row.startswith("@@ "):
            out.append(
                f'<span style="color:{_COLOURS["@"]}">{escaped}</span> '
                + link(f"hunk:{hunk}", "↶ revert this part")
            )
            hunk += 1
            continue
        if row in named:
            out.append(link(f"place:{named[row]}", escaped))
            continue
        colour = (
            _COLOURS.get(row[:1])
            if kind == "diff" and not row.startswith(("+++ ", "--- "))
            else None
        )
        out.append(f'<span style="color:{colour}">{escaped}</span>' if colour else escaped)
    more = len(rows) - len(shown)
    if more:
        out.append(f"… {more:,} more line{'s' if more != 1 else ''} ▸")
    return "<pre>" + "\n".join(out) + "</pre>"


def detail_preview_html(text: str, kind: str, places: tuple[Place, ...] = ()) -> str:
    """The folded form, or "" when the detail is short enough to show whole. A
    sub-agent's calls ("calls") are folded to their first line, which counts them."""
    if kind == "calls" and "\n" in text:
        return detail_html(text, kind, 1, places)
    if not text or text.count("\n") < DETAIL_LINES:
        return ""
    return detail_html(text, kind, DETAIL_LINES, places)
