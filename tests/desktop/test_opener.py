"""A place a tool touched, opened in the user's editor: the command for each kind of
editor, and the desktop's opener where a terminal editor (or none) is set."""

from __future__ import annotations

from nib_desktop.work.opener import editor_command


def test_the_editor_opens_the_file_at_its_line_as_each_editor_takes_it() -> None:
    assert editor_command("/w/a.py", 5, {"VISUAL": "gedit"}) == ["gedit", "+5", "/w/a.py"]
    assert editor_command("/w/a.py", None, {"EDITOR": "kate -n"}) == ["kate", "-n", "/w/a.py"]
    assert editor_command("/w/a.py", 5, {"VISUAL": "/usr/bin/code --wait"}) == [
        "/usr/bin/code",
        "--wait",
        "-g",
        "/w/a.py:5",
    ]
    assert editor_command("/w/a.py", 5, {"VISUAL": "zed", "EDITOR": "vim"}) == ["zed", "/w/a.py:5"]


def test_a_terminal_editor_or_none_leaves_it_to_the_desktop() -> None:
    for env in (
        {},
        {"EDITOR": "vim"},
        {"VISUAL": "nano"},
        {"EDITOR": "emacs -nw"},
        {"EDITOR": "'unclosed"},
        {"VISUAL": ""},
    ):
        assert editor_command("/w/a.py", 5, env) == [], env
