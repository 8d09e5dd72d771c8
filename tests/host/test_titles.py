"""A session's title from its first message."""

from __future__ import annotations

import pytest

from host.sessions.service import title_from


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("1. Plan 2. Add tests 3. Ship", "Plan"),
        ("1) Plan the work 2) Write it", "Plan the work"),
        ("1. Plan\n2. Write", "Plan"),
        ("Fix the build:\n1. a", "Fix the build"),
        ("Bump to version 2. Then release", "Bump to version 2. Then release"),
        ("   \n\n", "New session"),
    ],
)
def test_titles(text: str, title: str) -> None:
    assert title_from(text) == title
