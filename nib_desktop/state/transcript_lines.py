"""The transcript's lines as the window holds them: each line's words, its detail and its
folded form, and how a page of new lines merges into the held ones. Frozen values, no
Qt, no I/O."""

from __future__ import annotations

import functools

from nib_desktop.state import markdown, rich
from nib_desktop.state.record import Record

# a line's leading glyph and the words said for it, longest first
GLYPH_WORDS = (
    ("← error: ", "Error: "), ("← ", "Result: "), ("→ ", "Running: "), ("✓ ", "Done: "),
    ("✕ ", "Failed: "), ("⚠ ", "Warning: "), ("◐ ", "In progress: "), ("○ ", "Pending: "),
    ("⟲ ", "Restored: "),
)  # fmt: skip


def spoken_status(text: str) -> str:
    """`text` with its leading status glyph said in words."""
    for glyph, words in GLYPH_WORDS:
        if text.startswith(glyph):
            return words + text[len(glyph) :]
    return text


class Line(Record):
    """One line of the transcript (a `Record`: a frozen dataclass compiled its methods as
    the window started, about 1.3 ms before its first frame)."""

    kind: str  # user, assistant, tool_call, tool_result, todo, turn_end, summary
    text: str
    is_error: bool = False
    warning: bool = False  # e.g. checklist items dropped unfinished (said in words too)
    seq: int = 0  # the message it tells (0: a turn's end)
    # a step's line that finished: it takes the place of its "◐" line, whose seq it
    # keeps (0: a new line)
    replaces: int = 0
    # what a tool call did, under its result's line: a unified diff or its output (plain
    # text, as copied), and which of the two it is ("diff", "output"; "" for none)
    detail: str = ""
    detail_kind: str = ""
    # a tool call's line: its call's id (its result takes the line's place, in place),
    # and the input it was called with, shown when the line is unfolded
    call_id: str = ""
    call_input: str = ""
    # the files (and lines) it touched, each a link in its detail that opens it
    places: tuple[rich.Place, ...] = ()
    # the images it showed, as data URLs of a known image type (drawn small under it)
    images: tuple[str, ...] = ()
    # the user's message it tells (its id, and its turn's), to edit and resend it
    message_id: str = ""
    turn_id: str = ""

    @property
    def spoken(self) -> str:
        """Its words as assistive technology says them: who wrote it, and a status in
        words where the line shows a glyph ("Done: Edited app.py", not "✓ Edited …")."""
        return self._who() + spoken_status(self.text)

    @property
    def spoken_short(self) -> str:
        """As `spoken`, of the line as first shown (folded when long)."""
        return self._who() + spoken_status(self.preview) if self.preview else self.spoken

    def _who(self) -> str:
        return {"user": "You: ", "assistant": "Agent: "}.get(self.kind, "")

    @property
    def markdown(self) -> bool:
        """An agent's message: drawn as rendered Markdown."""
        return self.kind == "assistant"

    @functools.cached_property
    def rich(self) -> str:
        """An agent's message as rendered Markdown, whole ("" for every other line): asked
        for only when a long one is unfolded (a page of them costs a frame otherwise)."""
        return markdown.to_html(self.text) if self.markdown else ""

    @functools.cached_property
    def rich_short(self) -> str:
        """As it is first shown, rendered: whole when short, else its folded form."""
        if not self.markdown:
            return ""
        return markdown.to_html(self.preview) if self.preview else self.rich

    @functools.cached_property
    def image_list(self) -> list[str]:
        """The images as a list (what a view's role hands QML as an array)."""
        return list(self.images)

    @functools.cached_property
    def detail_html(self) -> str:
        return (
            rich.detail_html(self.detail, self.detail_kind, None, self.places)
            if (self.detail)
            else ""
        )

    @functools.cached_property
    def detail_preview(self) -> str:
        return rich.detail_preview_html(self.detail, self.detail_kind, self.places)

    @functools.cached_property
    def preview(self) -> str:
        """A long line's folded form (its first FOLD_LINES lines, at most FOLD_CHARS
        characters, then how much more there is); "" for a line short enough to show
        whole. A message of pages does not fill the window, nor cost a frame to lay out.
        An agent's message folds between its blocks (`markdown.folded`), and only past a
        page (ANSWER_LINES, ANSWER_CHARS): an answer of a few paragraphs, its code and
        its last sentence, is read whole (issue 47, point 10)."""
        if self.markdown:
            return markdown.folded(self.text, ANSWER_LINES, ANSWER_CHARS)
        return folded(self.text)


FOLD_LINES = 10
ANSWER_LINES = 40  # an agent's message shown whole up to a page
ANSWER_CHARS = 4000


FOLD_CHARS = 800


def merge_lines(held: tuple[Line, ...], new: tuple[Line, ...]) -> tuple[Line, ...]:
    """`held` with `new` after it, a line that `replaces` one taking its place (the last
    todo line of that seq, or the line of the same tool call); a replacement whose line is
    not held is added at the end."""
    lines = list(held)
    for line in new:
        if line.replaces:
            places = range(len(lines) - 1, -1, -1)
            at = next(
                (
                    i
                    for i in places
                    if lines[i].seq == line.replaces
                    and (
                        lines[i].call_id == line.call_id
                        if line.call_id
                        else lines[i].kind == "todo"
                    )
                ),
                -1,
            )
            if at >= 0:
                lines[at] = line
                continue
        lines.append(line)
    return tuple(lines)


def folded(text: str) -> str:
    if len(text) <= FOLD_CHARS and text.count("\n") < FOLD_LINES:
        return ""
    head = text[:FOLD_CHARS]
    cut = -1
    for _ in range(FOLD_LINES):
        cut = head.find("\n", cut + 1)
        if cut < 0:
            break
    if cut >= 0:
        head = head[:cut]
    rest = len(text) - len(head)
    if markdown.hides_little(text, head):
        return ""  # too little is left to hide: the line whole
    return f"{head}\n… {rest:,} more characters ▸"
