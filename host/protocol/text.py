"""Text conventions both processes share: how a list item is marked in a user's text,
how long text is shortened for one line of display, and how text from outside is made
valid Unicode."""

from __future__ import annotations

import re

# "1. step", "2) step", "- step", "* step", "• step", "+ step": the marker, then the item.
LIST_ITEM = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*•+])\s+(.*\S)\s*$")


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
