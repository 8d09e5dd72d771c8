"""Code in an agent's message coloured by its language: Pygments' lexers, the window's own
mid-tone colours (readable on the light and the dark palette alike), escaped text only.
No Qt."""

from __future__ import annotations

from typing import Any

from nib_desktop.state.rich import escape

MUTED = "#868e96"  # readable on the light and the dark palette alike
# Past this many characters a code block is shown uncoloured: a lexer is pure Python (a
# few milliseconds for this much), and it runs on the GUI thread.
MAX_HIGHLIGHT = 12_000


def highlight(code: str, language: str) -> str:
    """`code` escaped, coloured by Pygments' lexer for `language` where it has one (by
    name or alias, e.g. "py", "ts", "sh"), in colours readable on both palettes: the
    lexer's tokens only become spans with a colour; nothing of the text is markup."""
    escaped = escape(code.rstrip("\n"), quote=False)
    if not language or len(code) > MAX_HIGHLIGHT:
        return escaped
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return escaped
    out: list[str] = []
    for kind, value in lexer.get_tokens(code.rstrip("\n")):
        shown = escape(value, quote=False)
        colour = _colour(kind)
        out.append(f'<span style="color:{colour}">{shown}</span>' if colour and shown else shown)
    return "".join(out)


def _colour(kind: Any) -> str:
    """A token kind's colour (its nearest kind that has one), "" for plain text."""
    while kind is not None:
        colour = _COLOURS.get(str(kind))
        if colour is not None:
            return colour
        kind = kind.parent
    return ""


# mid-tone colours, readable on the light and the dark palette alike
_COLOURS = {
    "Token.Keyword": "#7950f2",
    "Token.Name.Builtin": "#1c7ed6",
    "Token.Name.Function": "#1c7ed6",
    "Token.Name.Class": "#1c7ed6",
    "Token.Name.Decorator": "#e8590c",
    "Token.Literal.String": "#2f9e44",
    "Token.Literal.Number": "#e8590c",
    "Token.Comment": MUTED,
    "Token.Operator.Word": "#7950f2",
    "Token.Generic.Inserted": "#2f9e44",
    "Token.Generic.Deleted": "#e03131",
    "Token.Generic.Heading": "#7950f2",
    "Token.Generic.Subheading": "#7950f2",
    "Token": "",
}
