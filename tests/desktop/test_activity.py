"""A tool call's activity as the transcript tells it: its line, its detail, and the rich
text made from it (escaped: nothing the agent wrote is markup)."""

from __future__ import annotations

from host.protocol import plain_models as m
from nib_desktop.inbound import activity
from nib_desktop.state.rich import detail_html, detail_preview_html


def test_a_diff_is_named_counted_and_shown_unified() -> None:
    done = m.ToolActivity(
        kind="edit",
        diffs=(
            m.ToolDiff(path="a.py", old_text="x = 1\ny = 2\n", new_text="x = 1\ny = 3\nz = 4\n"),
            m.ToolDiff(path="new.txt", new_text="hello\n"),
        ),
    )
    assert activity.summary(done) == "Edited a.py +2 −1; Wrote new.txt +1 −0"
    text, kind = activity.detail(done)
    assert kind == "diff"
    assert text.splitlines() == [
        "--- a.py",
        "+++ a.py",
        "@@ -1,2 +1,3 @@",
        " x = 1",
        "-y = 2",
        "+y = 3",
        "+z = 4",
        "--- /dev/null",
        "+++ new.txt",
        "@@ -0,0 +1 @@",
        "+hello",
    ]


def test_output_a_line_long_is_the_line_itself_and_longer_output_its_detail() -> None:
    assert activity.detail(m.ToolActivity(output="ok")) == ("", "")
    long = m.ToolActivity(output="a\nb\n", locations=(m.ToolLocation(path="x.py", line=3),))
    assert activity.summary(long) == "a"
    assert activity.detail(long) == ("a\nb\nx.py:3", "output")
    cut = m.ToolActivity(output="z" * 10, truncated=True)
    assert activity.detail(cut)[0].endswith("… (cut at 256 KiB)")


def test_the_rich_text_escapes_everything_the_agent_wrote() -> None:
    hostile = '+<img src="http://x/y.png"><script>alert(1)</script> & <b>bold</b>'
    made = detail_html(hostile, "diff")
    assert "<img" not in made and "<script" not in made and "<b>" not in made
    assert '&lt;img src="http://x/y.png"&gt;' in made and "&amp;" in made
    assert made.startswith('<pre><span style="color:#2f9e44">')
    assert detail_preview_html("a\nb", "output") == ""  # short: shown whole
    folded = detail_preview_html("\n".join(str(i) for i in range(30)), "output")
    assert "… 18 more lines ▸" in folded and ">11\n" not in folded


def test_an_edit_is_shown_at_its_place_and_a_newline_at_the_end_is_no_change() -> None:
    """Issue 47, point 6: an edit's part at line 40 of its file reads "@@ -40,2 +40,2 @@"
    as git says, and its link opens that line; a whole file written again with its last
    newline added shows no phantom -/+ pair (as its counts say: one line added)."""
    part = m.ToolDiff(path="a.py", old_text="x = 1\ny = 2\n", new_text="x = 1\ny = 3\n", line=40)
    text = activity.unified(part)
    assert text.splitlines()[2] == "@@ -40,2 +40,2 @@"
    assert activity.places(m.ToolActivity(diffs=(part,))) == (("a.py", 41),)
    rewritten = m.ToolDiff(path="b.txt", old_text="one\ntwo", new_text="one\ntwo\nthree\n")
    assert activity.counts(rewritten) == (1, 0)
    assert [ln for ln in activity.unified(rewritten).splitlines() if ln[:1] in "+-"] == [
        "--- b.txt",
        "+++ b.txt",
        "+three",
    ]


def test_the_host_finds_where_an_edits_text_stands_in_its_file(tmp_path) -> None:
    from host.acp.tool_activity import line_in_file

    path = tmp_path / "app.py"
    path.write_text("".join(f"line {i}\n" for i in range(1, 60)) + "x = 1\ny = 3\n")
    assert line_in_file(str(path), "x = 1\ny = 3\n") == 60
    assert line_in_file(str(path), "not there") is None
    assert line_in_file("app.py", "x") is None  # a relative path names no file here
    assert line_in_file(str(tmp_path / "gone.py"), "x") is None


def test_an_approval_to_write_an_existing_file_compares_with_it(tmp_path) -> None:
    """Issue 47, point 7: a write the agent asks for, of a file that is there, shows what
    it replaces (the agent sent no old text), not "--- /dev/null"; a FIFO it names is
    never waited on, and a file not there is new."""
    import os
    from types import SimpleNamespace

    from host.acp.tool_activity import activity as made
    from host.acp.updates import DiffPart, ToolFields

    there = tmp_path / "notes.txt"
    there.write_text("one\ntwo\n")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    parts = [
        DiffPart(type="diff", path=str(there), new_text="one\nthree\n"),
        DiffPart(type="diff", path=str(fifo), new_text="x\n"),
        DiffPart(type="diff", path=str(tmp_path / "new.txt"), new_text="new\n"),
    ]
    asked_call = SimpleNamespace(kind="edit", locations=[], content=parts)
    asked = made(asked_call, "pending", ToolFields())
    assert [d.old_text for d in asked.diffs] == ["one\ntwo\n", None, None]
    assert "-two" in activity.unified(asked.diffs[0]).splitlines()
    done = made(asked_call, "completed", ToolFields())
    assert done.diffs[0].old_text is None  # once written, the file is the new text
