"""What "/" offers: Nib's commands in its own sessions; in an agent's, /continue, /help and
the agent's own (its /compact included: the agent compacts itself), sent to it as text."""

from __future__ import annotations

from nib_desktop.state import slash


def test_nibs_own_session_offers_nibs_commands() -> None:
    assert [n for n, _ in slash.command_completions("/")] == ["/compact", "/continue", "/help"]
    assert not slash.for_the_agent("/compact", None)


def test_an_agents_session_offers_its_commands_and_sends_them() -> None:
    theirs = (("review", "Review my changes"), ("compact", "summarize"), ("help", "theirs"))
    offered = slash.command_completions("/", theirs)
    assert [n for n, _ in offered] == ["/continue", "/help", "/review", "/compact"]
    assert dict(offered)["/compact"] == "summarize"  # the agent's, not Nib's
    assert slash.for_the_agent("/review the diff", theirs)
    assert slash.for_the_agent("/compact", theirs)
    assert not slash.for_the_agent("/usr/bin is missing", theirs)
    assert slash.command_completions("/review x", theirs) == []  # words follow: a message
