"""Streamed text as pieces: the state adds a piece without joining the whole text, and
the transcript's view tells the QML each piece added, without comparing strings."""

from __future__ import annotations

from nib_desktop.state import events as ev
from nib_desktop.state.pieces import NO_PIECES, Pieces
from nib_desktop.state.store import AppState
from nib_desktop.state.transcript_lines import Line
from nib_desktop.state.types import Session


def test_pieces_grow_in_place_and_tell_what_was_added() -> None:
    one = NO_PIECES.plus("Hel")
    two = one.plus("lo")
    assert (one.text, two.text, NO_PIECES.text) == ("Hel", "Hello", "")  # values stay
    assert two.since(one) == "lo" and two.since(NO_PIECES) == "Hello"
    fork = one.plus("p!")  # grown from an older value: apart, and both stay true
    assert (fork.text, two.text) == ("Help!", "Hello")
    assert fork.since(two) is None and two.since(fork) is None
    assert two == Pieces(["Hel", "lo"], 2) and not NO_PIECES
    assert NO_PIECES.plus("a\nlong line\n\n").newest_line(4) == "line"
    assert NO_PIECES.plus("x" * 10).plus("y" * 10).newest_line(5) == "yyyyy"


def test_the_view_appends_each_piece_and_holds_back_newlines(qapp) -> None:
    from ui.views.transcript import TranscriptView

    state = AppState()
    state.apply(ev.SessionsListed((Session("a", "a", "agent", running_turn="t"),)))
    state.apply(ev.TranscriptPage("a", (Line("user", "go", seq=1),), False, 1, "t", newest_seq=1))
    view = TranscriptView(state, lambda _intent: None)
    whole: list[str] = []
    appended: list[str] = []
    view.liveChanged.connect(lambda: whole.append(view.property("liveText")))
    view.liveAppended.connect(appended.append)
    for piece in ("\nHello", " world\n", "\n", "second", " line\n"):
        state.apply(ev.TextStreamed("a", False, piece))
    assert whole == ["Hello"]  # read whole once, as it began
    assert appended == [" world", "\n\nsecond", " line"]  # newlines wait for text after
    assert "Hello" + "".join(appended) == view.property("liveText")
    state.apply(ev.TextStreamed("a", True, "Hmm, let me\nthink"))  # a thought: anew
    assert whole[-1] == "Thinking… think" and len(appended) == 3
    state.apply(ev.LinesAppended("a", (Line("assistant", "Hello world", seq=2),)))
    assert whole[-1] == ""
