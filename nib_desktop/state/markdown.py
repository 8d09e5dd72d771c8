"""An agent's message in Markdown as the restricted rich text the window draws, made by a
real parser (markdown-it-py, CommonMark with tables): raw HTML in the message is shown as
text (`html: False`), no image is ever loaded (the image rule is off: `![x](url)` reads as
a link), and a link keeps its target only for http, https and mailto, its address shown
after its words so the user sees where it goes before clicking. No Qt."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

SAFE_SCHEMES = ("http://", "https://", "mailto:")
_parser: MarkdownIt | None = None


# What a block (text between blank lines, outside code fences) may cost the parser, in
# characters, a "[" or "<" counting as many (measured: a "[" costs the parser about 50
# times a letter); a block over it is shown as plain text. Inputs made to be slow (20,000
# "[", "- - - …") cost it hundreds of milliseconds whole, at most about 30 ms at this size.
MAX_BLOCK_COST = 60_000
# ...and a whole message: past this, its remaining blocks are plain text
MAX_MESSAGE_COST = 150_000


def cost(block: str) -> int:
    marks = block.count("<") + block.count("*") + block.count("- ")  # "- - -": lists nested
    return len(block) + 50 * block.count("[") + 10 * marks


def preload() -> None:
    """The parser's modules imported on a thread of their own (about 90 ms of imports, a
    stall of the window if the first message shown paid for them); a message rendered
    before they are in waits for the import to finish."""
    import importlib
    import threading

    threading.Thread(target=importlib.import_module, args=("markdown_it",),
                     name="markdown import", daemon=True).start()  # fmt: skip


def to_html(text: str) -> str:
    """`text` rendered in runs of blocks the parser is given at once (a long message costs
    no more than its blocks); a block too costly to parse is plain text."""
    parts: list[str] = []
    run: list[str] = []  # blocks to render together
    spent = 0

    def flush() -> None:
        if run:
            parts.append(str(_markdown().render("\n\n".join(run), {"links": []})))
            run.clear()

    for block in blocks(text):
        code = block.lstrip().startswith(("```", "~~~"))  # literal: cheap at any size
        price = len(block) if code else cost(block)
        if (price > MAX_BLOCK_COST and not code) or spent + price > MAX_MESSAGE_COST:
            flush()
            parts.append("<p>" + html.escape(block).replace("\n", "<br>") + "</p>")
            continue
        spent += price
        run.append(block)
    flush()
    return "".join(parts)


def blocks(text: str) -> list[str]:
    """`text` cut at its blank lines, never inside a fenced code block."""
    found: list[str] = []
    current: list[str] = []
    fence = ""
    for line in text.split("\n"):
        marker = line.lstrip()[:3]
        if fence and marker == fence:
            fence = ""
        elif not fence and marker in ("```", "~~~"):
            fence = marker
        if not fence and not line.strip():
            if current:
                found.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        found.append("\n".join(current))
    return found


def safe_link(url: str) -> bool:
    return url.lower().startswith(SAFE_SCHEMES)


def _markdown() -> MarkdownIt:
    global _parser
    if _parser is None:
        from markdown_it import MarkdownIt  # on the first message shown, not at start

        parser = MarkdownIt("commonmark", {"html": False, "linkify": False})
        parser.enable("table").disable("image")
        parser.add_render_rule("link_open", _link_open)
        parser.add_render_rule("link_close", _link_close)
        _parser = parser
    return _parser


def _link_open(_self: Any, tokens: Any, idx: int, _options: Any, env: Any) -> str:
    href = str(tokens[idx].attrGet("href") or "")
    keep = safe_link(href)
    env["links"].append(href if keep else "")
    return f'<a href="{html.escape(href)}">' if keep else ""


def _link_close(_self: Any, _tokens: Any, _idx: int, _options: Any, env: Any) -> str:
    href = env["links"].pop() if env["links"] else ""
    return f"</a> <span>({html.escape(href)})</span>" if href else ""
