"""Text conventions both processes share: how a list item is marked in a user's text,
how long text is shortened for one line of display, how text from outside is made
valid Unicode, how much of a tool's text is kept, and how an attempt's runs are named."""

from __future__ import annotations

import re
import unicodedata

# "1. step", "2) step", "- step", "* step", "• step", "+ step": the marker, then the item.
LIST_ITEM = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*•+])\s+(.*\S)\s*$")
MAX_TOOL_TEXT = 256 * 1024  # characters of one diff side or of a tool's output kept


def run_names(agents: list[str] | tuple[str, ...]) -> list[str]:
    """An attempt's runs by their agents, one agent tried again told apart: "nib", then
    "nib #2" (the host titles their sessions so, and the runs' view names them so)."""
    seen: dict[str, int] = {}
    names = []
    for agent in agents:
        seen[agent] = seen.get(agent, 0) + 1
        names.append(agent + (f" #{seen[agent]}" if seen[agent] > 1 else ""))
    return names


def shorten(text: str, limit: int) -> str:
    """White space folded to single spaces; cut to `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def valid_text(text: str) -> str:
    """`text` as valid Unicode: surrogate pairs that arrived as two halves (an emoji split
    across two stream chunks) joined, lone surrogates replaced by U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


# Characters that reorder what follows them on screen ("exe.txt" shown as "txt.exe").
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
MAX_MARKS = 3  # combining marks kept on one character; more would draw over other lines
_INVISIBLE = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"})
# A cheap first look before the character-by-character pass: a bidirectional control, or
# two characters in a row from the blocks combining marks come from (the Latin, Greek,
# Cyrillic, Hebrew, Arabic, Indic and symbol combining blocks). Marks from other blocks
# are not counted; stacking attacks use these.
_SUSPECT = re.compile(
    "[" + "".join(sorted(BIDI_CONTROLS)) + "]"
    "|[\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f"
    "\u0900-\u0dff\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]{2,}"
)


def shown_text(text: str) -> str:
    """Outside text as the window shows it: bidirectional controls written out visibly
    (⟨U+202E⟩) instead of reordering the line, and runs of combining marks beyond
    MAX_MARKS counted (⟨+497 marks⟩) instead of drawn over neighbouring rows."""
    if text.isascii() or not _SUSPECT.search(text):
        return text  # the common case, on the GUI thread for every transcript row
    out: list[str] = []
    marks = hidden = 0
    for char in text:
        if char in BIDI_CONTROLS:
            out.append(f"⟨U+{ord(char):04X}⟩")
            marks = 0
            continue
        if unicodedata.category(char) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                hidden += 1
                continue
        else:
            if hidden:
                out.append(f"⟨+{hidden} marks⟩")
                hidden = 0
            marks = 0
        out.append(char)
    if hidden:
        out.append(f"⟨+{hidden} marks⟩")
    return "".join(out)


_ASCII_UNSEEN = "".join(map(chr, [*range(0x21), 0x7F]))  # controls, space, DEL


def has_visible(text: str) -> bool:
    """Whether `text` has a character that draws something (not only spaces, controls,
    zero-width characters or marks)."""
    if "!" <= text[:1] <= "~":  # a printable first character: most text, at once
        return True
    if text.isascii():  # drawn unless only controls and spaces
        return bool(text.lstrip(_ASCII_UNSEEN))
    return any(unicodedata.category(char) not in _INVISIBLE for char in text)
