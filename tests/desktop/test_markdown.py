"""Agents' Markdown as the window's rich text: rendered by the parser, hostile input shown
as text, nothing loaded, only safe links kept, and quick enough for a frame."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from nib_desktop.state import rich
from nib_desktop.state.markdown import to_html
from nib_desktop.state.transcript_lines import Line


def test_the_common_forms_render() -> None:
    made = to_html(
        "# Plan\n\n**bold** and *it* and `code`\n\n- one\n- two\n\n"
        "```py\nprint(1)\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n"
    )
    for part in (
        "<h1>Plan</h1>",
        "<strong>bold</strong>",
        "<em>it</em>",
        "<code>code</code>",
        "<li>one</li>",
        "<pre><code",
        ">print<",
        '<table border="1" cellspacing="0" cellpadding="4" style="border-color:#868e96">',
        "<td>1</td>",
        "<blockquote>",
    ):
        assert part in made, part


@pytest.mark.parametrize(
    ("source", "never", "shown"),
    [
        ("<script>alert(1)</script>", "<script", "&lt;script&gt;"),
        ('<img src="http://x/y.png">', "<img", "&lt;img"),
        ("![logo](http://x/y.png)", "<img", "logo"),
        ("[click](javascript:alert(1))", 'href="javascript', "click"),
        ("[file](file:///etc/passwd)", 'href="file', "file"),
        ('<a href="http://evil">x</a>', '<a href="http://evil"', "&lt;a href"),
    ],
)
def test_hostile_input_is_text_and_loads_nothing(source: str, never: str, shown: str) -> None:
    made = to_html(source)
    assert never not in made and shown in made


def test_a_safe_link_shows_its_address_after_its_words() -> None:
    made = to_html("see [the docs](https://example.org/d)")
    assert (
        '<a href="https://example.org/d"><span style="color:#4a8fe0">the docs</span></a> '
        "<span>(https://example.org/d)</span>" in made
    )


def test_inputs_made_to_be_slow_are_shown_as_text_and_code_stays_code() -> None:
    """10,000 nested lists, 20,000 brackets: a block that long is plain text (it cost the
    parser a third of a second); a long fenced code block is still code, blank lines and
    all, and the message's other blocks still render."""
    for hostile in ("- " * 10_000 + "x", "[" * 20_000, "*a " * 20_000, "[" * 100):
        made = to_html("**before**\n\n" + hostile + "\n\n**after**")
        assert made.startswith("<p><strong>before</strong></p>")
        assert made.endswith("<p><strong>after</strong></p>\n")
        assert "<ul>" not in made and "<em>" not in made
    code = "```\n" + "code line\n\n" * 3_000 + "```"
    made = to_html(code)
    assert "<pre><code>code line\n\ncode line" in made and made.count("<pre>") == 1


def test_only_agents_messages_are_rendered_and_a_long_one_folds_rendered() -> None:
    assert Line("user", "**not** rendered").rich == ""
    long = Line("assistant", "**start**\n" + "word\n" * 120)
    assert long.rich.startswith("<p><strong>start</strong>")
    assert "more characters" in long.rich_short and "more characters" not in long.rich
    # an answer of a page (issue 47, point 10: "Run it with:", its code and its last
    # sentence were folded away) is shown whole
    page = "\n\n".join(f"Paragraph {i} says what was done and why." for i in range(15))
    answer = Line("assistant", f"{page}\n\nRun it with:\n\n```sh\nmake test\n```\n\nDone.")
    assert answer.preview == "" and "Done." in answer.rich_short
    short = Line("assistant", "*hi*")
    assert short.rich_short == short.rich == "<p><em>hi</em></p>\n"


def test_code_blocks_are_coloured_by_language_numbered_and_copied_as_written() -> None:
    from nib_desktop.state.markdown import code_blocks, render

    source = (
        "Try:\n\n```python\nif x < 1:\n    print('<b>hi</b>')  # note\n```\n\n"
        "then\n\n    plain indented\n\n```nosuchlanguage\n<i>a</i>\n```\n"
    )
    made, codes = render(source)
    assert codes == [
        "if x < 1:\n    print('<b>hi</b>')  # note\n",
        "plain indented\n",
        "<i>a</i>\n",
    ]
    assert code_blocks(source) == codes
    for number in range(3):
        assert f'<a href="copy:{number}"><span style="color:#4a8fe0">Copy</span></a>' in made
    assert '<span style="color:#7950f2">if</span>' in made  # a keyword, coloured
    assert "&lt;b&gt;hi&lt;/b&gt;" in made and "<b>hi" not in made  # text, never markup
    assert "&lt;i&gt;a&lt;/i&gt;" in made  # an unknown language: escaped, uncoloured
    huge = "```py\n" + "x = 1\n" * 5_000 + "```"
    assert "<span" not in render(huge)[0].split("<pre>")[1]  # too long to colour here


def test_a_long_message_folds_between_blocks_never_inside_a_sentence_or_short_code() -> None:
    from nib_desktop.state.markdown import folded

    code = "```sh\n" + "echo step\n" * 12 + "```"
    text = "First we look. Then we act.\n\n" + code + "\n\n" + "A closing sentence. " * 80
    shown = folded(text, 10, 800)
    assert shown.startswith("First we look. Then we act.\n\n" + code + "\n\n…")  # whole
    assert shown.endswith("more characters ▸")
    prose = "This sentence ends here. " * 60
    cut = folded(prose, 10, 800).split("\n\n…")[0]
    assert cut.endswith("ends here.") and len(cut) <= 800
    assert folded("short *message*", 10, 800) == ""
    long_code = folded("```\n" + "a\n" * 100 + "```", 10, 800)
    assert long_code.startswith("```\na\n") and "\n```\n\n…" in long_code  # fence closed


def test_a_message_never_folds_away_only_its_end() -> None:
    """Issue 47, point 10: a message just past the fold ("… 222 more characters ▸" hid
    "Run it with:", a code block, a table and the last sentence) is shown whole; folding
    is for what hides a page's worth (600 characters, or 12 lines)."""
    from nib_desktop.state.markdown import folded

    answer = (
        "Done. " * 120  # 720 characters: past the fold's 800 with what follows
        + "\n\nRun it with:\n\n```sh\npython app.py\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |"
        + "\n\nThat is all."
    )
    assert folded(answer, 10, 800) == ""
    assert Line("assistant", answer).rich_short == Line("assistant", answer).rich
    pages = answer + "\n\n" + "More words. " * 100
    assert folded(pages, 10, 800).endswith("more characters ▸")


@given(st.text(), st.booleans())
def test_the_windows_escape_is_htmls(text: str, quote: bool) -> None:
    """`rich.escape` writes what `html.escape` writes (the window does not import `html`
    before its first frame: its table of entities costs 1.5 ms)."""
    import html

    assert rich.escape(text, quote) == html.escape(text, quote)
