"""An agent's message in Markdown as the restricted rich text the window draws, made by a
real parser (markdown-it-py, CommonMark with tables): raw HTML in the message is shown as
text (`html: False`), no image is ever loaded (the image rule is off: `![x](url)` reads as
a link), and a link keeps its target only for http, https and mailto, its address shown
after its words so the user sees where it goes before clicking. No Qt."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nib_desktop.state.code_colours import MUTED, highlight
from nib_desktop.state.rich import LINK, escape, link

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

    threading.Thread(
        target=importlib.import_module, args=("markdown_it",), name="markdown import", daemon=True
    ).start()


def to_html(text: str) -> str:
    """`text` rendered (see `render`)."""
    return render(text)[0]


def code_blocks(text: str) -> list[str]:
    """The code blocks of `text` as the agent wrote them, in the order `render` numbers
    their Copy links."""
    return render(text)[1]


def render(text: str) -> tuple[str, list[str]]:
    """`text` rendered in runs of blocks the parser is given at once (a long message costs
    no more than its blocks); a block too costly to parse is plain text. Each code block
    is monospaced, coloured by its language (`highlight`), under a line naming the
    language with a Copy link ("copy:N", N counting the message's code blocks from 0);
    the blocks' texts come back beside the rich text."""
    parts: list[str] = []
    run: list[str] = []  # blocks to render together
    spent = 0
    env: dict[str, Any] = {"links": [], "codes": []}

    def flush() -> None:
        if run:
            parts.append(str(_markdown().render("\n\n".join(run), env)))
            run.clear()

    for block in blocks(text):
        code = block.lstrip().startswith(("```", "~~~"))  # literal: cheap at any size
        price = len(block) if code else cost(block)
        if (price > MAX_BLOCK_COST and not code) or spent + price > MAX_MESSAGE_COST:
            flush()
            parts.append("<p>" + escape(block).replace("\n", "<br>") + "</p>")
            continue
        spent += price
        run.append(block)
    flush()
    return "".join(parts), env["codes"]


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


SHORT_CODE = 30  # lines of a code block shown whole in a folded message, once it begins
# a message is folded only where this much or more would be hidden: never its last
# sentence, a short code block or a table alone
MIN_FOLDED = 600
MIN_FOLDED_LINES = 12


def hides_little(text: str, head: str) -> bool:
    """Whether folding `text` to `head` would hide less than MIN_FOLDED characters and
    fewer than MIN_FOLDED_LINES lines (then it is shown whole)."""
    hidden_lines = text.count("\n") - head.count("\n")
    return len(text) - len(head) < MIN_FOLDED and hidden_lines < MIN_FOLDED_LINES


def folded(text: str, lines: int, chars: int) -> str:
    """A long message's folded form, cut between blocks, never inside a sentence: its
    first blocks while they fit in `lines` lines and `chars` characters (a code block of
    at most SHORT_CODE lines is never cut: whole, once it begins within them), then how
    much more there is. A first block too long alone is cut at a sentence's end (a code
    block at a line's, its fence closed). "" when the whole message is shown."""
    if len(text) <= chars and text.count("\n") < lines:
        return ""
    found = blocks(text)
    kept: list[str] = []
    used_lines = used_chars = 0
    for block in found:
        count = block.count("\n") + 1
        code = block.lstrip().startswith(("```", "~~~"))
        fits = used_lines + count <= lines and used_chars + len(block) <= chars
        short = code and count <= SHORT_CODE + 2 and used_lines < lines and len(block) <= 4 * chars
        if fits or short:
            kept.append(block)
            used_lines, used_chars = used_lines + count + 1, used_chars + len(block) + 2
            continue
        if not kept:
            kept.append(_cut(block, lines, chars, code))
        break
    else:
        return ""  # every block is shown
    head = "\n\n".join(kept)
    rest = max(1, len(text) - len(head))
    if hides_little(text, head):
        return ""  # too little is left to hide: the message whole
    return f"{head}\n\n… {rest:,} more characters ▸"


def _cut(block: str, lines: int, chars: int, code: bool) -> str:
    """A block too long to show whole: a code block's first lines, its fence closed; else
    its text up to the last sentence's end (or line's, or word's) within the limits."""
    if code:
        rows = block.split("\n")
        return "\n".join(rows[:lines]) + "\n" + rows[0].lstrip()[:3]
    head = "\n".join(block.split("\n")[:lines])[:chars]
    ends = [head.rfind(mark) + len(mark) - 1 for mark in (". ", "! ", "? ", ".\n", "\n")]
    cut = max(ends)
    if cut <= 0:
        cut = head.rfind(" ")
    return head[: cut + 1].rstrip() if cut > 0 else head


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
        parser.add_render_rule("fence", _code)
        parser.add_render_rule("code_block", _code)
        parser.add_render_rule("table_open", _table_open)
        _parser = parser
    return _parser


def _table_open(_self: Any, _tokens: Any, _idx: int, _options: Any, _env: Any) -> str:
    """A table with its rules and room in its cells, as Qt's rich text draws one (its
    cells ran together: "utils.pyfarewell", issue 47 point 20)."""
    return f'<table border="1" cellspacing="0" cellpadding="4" style="border-color:{MUTED}">\n'


def _link_open(_self: Any, tokens: Any, idx: int, _options: Any, env: Any) -> str:
    href = str(tokens[idx].attrGet("href") or "")
    keep = safe_link(href)
    env["links"].append(href if keep else "")
    return f'<a href="{escape(href)}"><span style="color:{LINK}">' if keep else ""


def _link_close(_self: Any, _tokens: Any, _idx: int, _options: Any, env: Any) -> str:
    href = env["links"].pop() if env["links"] else ""
    return f"</span></a> <span>({escape(href)})</span>" if href else ""


def _code(_self: Any, tokens: Any, idx: int, _options: Any, env: Any) -> str:
    token = tokens[idx]
    language = (token.info or "").strip().split(" ", 1)[0][:40]
    number = len(env["codes"])
    env["codes"].append(token.content)
    label = escape(language) if language else "code"
    copy = link(f"copy:{number}", "Copy")
    head = f'<p><span style="color:{MUTED}">{label}</span> &#183; {copy}</p>'
    return f"{head}<pre><code>{highlight(token.content, language)}</code></pre>\n"
