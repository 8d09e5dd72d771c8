"""How the state follows a session's work: its turns, and the shown transcript's pages,
the lines appended to it and the text still arriving."""

from __future__ import annotations

from nib_desktop.state.aspects import NOTHING, Aspect, Change, change, put
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.parts import Held, Transcript
from nib_desktop.state.pieces import NO_PIECES
from nib_desktop.state.transcript_lines import merge_lines

A = Aspect


def turn_changed(s: Held, e: ev.TurnChanged) -> Change:
    turn = e.turn
    held = s.turns.get(turn.session_id)
    if held == turn or (held is not None and turn.older_than(held)):
        return NOTHING
    s.turns[turn.session_id] = turn
    aspects = {A.CHECKLIST}
    row = s.session(turn.session_id)  # its row agrees: the composer as the dock
    if row is not None and (agreed := s.agreeing(row, told=True)) != row:
        s.set_sessions((*(x for x in s.sessions if x.session_id != row.session_id), agreed))
        aspects |= {A.SESSIONS, A.CURRENT} if row.session_id == s.current else {A.SESSIONS}
    told = s.transcript
    if not turn.running and told.session_id == turn.session_id and told.live:
        s.transcript = told._replace(live=NO_PIECES)  # no stored message followed
        aspects.add(A.LIVE)
    looked = turn.session_id == s.current and s.window_active
    if held is not None and held.running and not turn.running and not looked:
        s.unseen |= {turn.session_id}
        aspects.add(A.ATTENTION)
    return Change(frozenset(aspects), turn.session_id)


def transcript_page(s: Held, e: ev.TranscriptPage) -> Change:
    held = s.transcript
    if e.session_id != s.current or (e.older and not held.loaded):
        return NOTHING
    lines = e.lines
    if e.older:
        lines = lines + held.lines
    elif held.session_id == e.session_id and not held.loaded:
        # appended while the page was on its way: what came after it stays
        lines = lines + tuple(x for x in held.lines if x.seq > e.newest_seq)
    same = held.session_id == e.session_id  # the text arriving goes on
    live = (held.live, held.live_thought) if same else (NO_PIECES, False)
    s.transcript = Transcript(
        e.session_id, lines, e.has_more, e.oldest_seq, e.oldest_turn, True, *live
    )
    return change(A.TRANSCRIPT)


def lines_appended(s: Held, e: ev.LinesAppended) -> Change:
    held = s.transcript
    if e.session_id != held.session_id or not e.lines:
        return NOTHING
    # a stored message holds the text that was arriving
    s.transcript = held._replace(lines=merge_lines(held.lines, e.lines), live=NO_PIECES)
    return change(A.TRANSCRIPT, A.LIVE) if held.live else change(A.TRANSCRIPT)


def text_streamed(s: Held, e: ev.TextStreamed) -> Change:
    told = s.transcript
    if e.session_id != told.session_id or not e.text:
        return NOTHING
    before = told.live if told.live_thought == e.thought else NO_PIECES
    s.transcript = told._replace(live=before.plus(e.text), live_thought=e.thought)
    return change(A.LIVE)


def files_found(s: Held, e: ev.FilesFound) -> Change:
    found = (e.session_id, e.query, e.paths)
    if found == s.files_found:
        return NOTHING
    s.files_found = found
    return change(A.FILES, session_id=e.session_id)


def images_held(s: Held, e: ev.ImagesHeld) -> Change:
    if not put(s.images, e.session_id, e.images):
        return NOTHING
    return change(A.IMAGES, session_id=e.session_id)
