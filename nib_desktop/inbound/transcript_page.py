"""A page of a session's messages and turns as the transcript's lines, each ended turn's
line after its last message."""

from __future__ import annotations

from host.protocol import plain_models as m
from nib_desktop.inbound.lines import LineMaker
from nib_desktop.state.facts import End
from nib_desktop.state.transcript_lines import Line, merge_lines
from nib_desktop.state.types import TurnView


def turn_end(t: TurnView) -> Line | None:
    """The transcript's line for a turn that ended other than by finishing: stopped,
    failed with its error, or interrupted by a host restart. None while it runs or when
    it completed (its last message says so)."""
    match t.end:
        case End.STOPPED:
            return Line("turn_end", "■ Turn stopped")
        case End.INTERRUPTED:
            return Line("turn_end", "⚠ Turn interrupted: the host restarted", warning=True)
        case End.FAILED:
            words = f"✕ Turn failed: {t.error or 'no reason given'}"
            return Line("turn_end", words, is_error=True)
    return None


def transcript(
    messages: tuple[m.Message, ...],
    turns: tuple[TurnView, ...],
    next_turn: str | None = None,
    maker: LineMaker | None = None,
    titled: bool = False,
    folder: str = "",
) -> tuple[Line, ...]:
    """A page of a session's messages as lines, each ended turn's line after its last
    message. `next_turn`: the turn of the message after the page (already held), whose
    end is told after that message instead. `maker`: one that later messages continue
    (else a new one, `titled` for an ACP agent's session, `folder` the session's)."""
    ends = {t.turn_id: line for t in turns if (line := turn_end(t)) is not None}
    maker = maker or LineMaker(titled, folder)
    lines: list[Line] = []
    previous: str | None = None
    for message in messages:
        if previous is not None and message.turn_id != previous and previous in ends:
            lines.append(ends.pop(previous))
        lines[:] = merge_lines(tuple(lines), maker.lines(message))
        previous = message.turn_id
    if previous in ends and previous != next_turn:
        lines.append(ends.pop(previous))
    return tuple(lines)
