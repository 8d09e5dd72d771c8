"""The window's state and its one mutator, as plain Python: what each event changes,
and what it leaves alone."""

from __future__ import annotations

from nib_desktop.state import events as ev, store
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.tool_types import Approval
from nib_desktop.state.transcript_lines import Line
from nib_desktop.state.types import Item, Revision, Session, Snapshot, TurnView


def snap(revision: int, *statuses: str, session: str = "a") -> Snapshot:
    return Snapshot(session, revision, tuple(Item(f"step {i}", s) for i, s in enumerate(statuses)))  # type: ignore[arg-type]


def session(sid: str, updated: str = "1", running: str = "") -> Session:
    return Session(sid, sid.upper(), "agent", running, order=(updated, updated))


def heard(state: AppState) -> list[tuple[ev.Event, Change]]:
    seen: list[tuple[ev.Event, Change]] = []
    state.subscribe(lambda event, change: seen.append((event, change)))
    return seen


def test_only_newer_revisions_apply_and_listeners_hear_which_session() -> None:
    state = AppState()
    seen = heard(state)
    three, two, three_again = snap(3, "pending"), snap(2, "completed"), snap(3, "completed")
    assert store.CHECKLIST in state.apply(ev.SnapshotArrived(three))
    assert state.apply(ev.SnapshotArrived(two)) == store.NOTHING
    assert state.apply(ev.SnapshotArrived(three_again)) == store.NOTHING
    assert state.snapshot("a") is three
    assert [change.session_id for _, change in seen] == ["a"]  # nothing heard for the stale


def test_turn_and_snapshot_in_either_order_give_the_same_state() -> None:
    first, second = AppState(), AppState()
    snapshot, ended = snap(2, "in_progress"), TurnView("a", "cancelled")
    first.apply(ev.SnapshotArrived(snapshot))
    first.apply(ev.TurnChanged(ended))
    second.apply(ev.TurnChanged(ended))
    second.apply(ev.SnapshotArrived(snapshot))
    assert (first.snapshot("a"), first.turn("a")) == (second.snapshot("a"), second.turn("a"))
    assert first.turn("b") == TurnView("b", "idle") and not first.turn("b").running


def test_a_listing_keeps_the_shown_session_or_shows_the_newest() -> None:
    state = AppState()
    state.apply(ev.SessionsListed((session("a", "1"), session("b", "2"))))
    assert state.current == "b" and [s.session_id for s in state.sessions] == ["b", "a"]
    state.apply(ev.SessionShown("a"))
    state.apply(ev.SessionsListed((session("a", "1"), session("c", "3"))))
    assert state.current == "a"
    state.apply(ev.SessionsListed((session("c", "3"),)))
    assert state.current == "c"


def test_deleting_the_shown_session_shows_the_newest_other_and_forgets_its_data() -> None:
    state = AppState()
    state.apply(ev.SessionsListed((session("a", "1"), session("b", "2"))))
    state.apply(ev.SnapshotArrived(snap(1, "pending", session="b")))
    state.apply(ev.DraftSaved("b", "unsent"))
    state.apply(ev.ApprovalRequested(Approval("p1", "b", "tool", "{}")))
    change = state.apply(ev.SessionDeleted("b"))
    assert store.CURRENT in change and state.current == "a"
    assert state.snapshot("b") is None and "b" not in state.drafts and state.approvals == ()
    assert state.apply(ev.SessionDeleted("b")) == store.NOTHING


def test_lines_belong_to_the_transcript_shown() -> None:
    state = AppState()
    state.apply(ev.SessionsListed((session("a"),)))
    # while the first page loads, what is appended shows; the page replaces what it holds
    # (up to its newest message) and keeps what came after it
    state.apply(ev.LinesAppended("a", (Line("user", "one", seq=5),)))
    state.apply(ev.LinesAppended("a", (Line("assistant", "late", seq=6),)))
    assert not state.transcript.loaded
    state.apply(ev.TranscriptPage("a", (Line("user", "zero"),), False, 1, "t0", older=True))
    assert [x.text for x in state.transcript.lines] == ["one", "late"]  # nothing older yet
    state.apply(ev.TranscriptPage("a", (Line("user", "one", seq=5),), True, 5, "t1", newest_seq=5))
    assert [x.text for x in state.transcript.lines] == ["one", "late"]
    state.apply(ev.LinesAppended("a", (Line("assistant", "two"),)))
    state.apply(ev.LinesAppended("other", (Line("assistant", "elsewhere"),)))
    state.apply(ev.TranscriptPage("a", (Line("user", "zero"),), False, 1, "t0", older=True))
    assert [x.text for x in state.transcript.lines] == ["zero", "one", "late", "two"]
    assert (state.transcript.has_more, state.transcript.oldest_seq) == (False, 1)
    assert state.transcript.loaded  # still: an older page keeps what was loaded


def revision(n: int, turn: str = "t1") -> Revision:
    return Revision(n, turn, f"10:{n:02}", (Item(f"step {n}", "pending"),), f"+{n}", False)


def test_history_pages_merge_newest_first_without_duplicates() -> None:
    state = AppState()
    state.apply(ev.SessionsListed((session("s"),)))
    state.apply(ev.HistoryOpened("s"))
    state.apply(ev.HistoryPageLoaded("s", tuple(revision(n) for n in (10, 9, 8)), True, False))
    state.apply(ev.HistoryPageLoaded("s", tuple(revision(n) for n in (7, 6)), False, True))
    assert [r.revision for r in state.history.revisions] == [10, 9, 8, 7, 6]
    # a newer first page (after a write) keeps the older pages already loaded
    state.apply(ev.HistoryPageLoaded("s", tuple(revision(n) for n in (11, 10, 9)), True, False))
    assert [r.revision for r in state.history.revisions] == [11, 10, 9, 8, 7, 6]
    # a page for another session, or after the view closed, is ignored
    assert state.apply(ev.HistoryPageLoaded("x", (revision(99),), False, False)) == store.NOTHING
    state.apply(ev.HistoryClosed())
    state.apply(ev.HistoryPageLoaded("s", (revision(12),), False, False))
    assert state.history.revisions == ()


def test_showing_another_session_closes_the_history_and_the_revision_viewed() -> None:
    state = AppState()
    state.apply(ev.SessionsListed((session("a", "1"), session("b", "2"))))
    state.apply(ev.HistoryOpened("b"))
    state.apply(ev.HistoryPageLoaded("b", (revision(2), revision(1)), False, False))
    change = state.apply(ev.RevisionViewed(1))
    assert store.CHECKLIST in change and state.history.viewed == revision(1)
    change = state.apply(ev.SessionShown("a"))
    assert state.history.session_id is None and state.history.viewed is None
    assert store.HISTORY in change and store.TRANSCRIPT in change


def test_approvals_of_every_session_are_held_until_resolved() -> None:
    state = AppState()
    state.apply(ev.ApprovalRequested(Approval("p1", "a", "t", "{}")))
    state.apply(ev.ApprovalRequested(Approval("p2", "b", "t", "{}")))
    assert store.APPROVALS in state.apply(ev.ApprovalResolved("p1"))
    assert [a.approval_id for a in state.approvals] == ["p2"]
    assert state.apply(ev.ApprovalResolved("p1")) == store.NOTHING


def test_a_stale_turn_answer_cannot_undo_a_newer_notification() -> None:
    """A turns.list answer asked for before the turn was stopped, arriving after the
    notification of its end, changes nothing; a later turn replaces an ended one."""
    state = AppState()
    ended = TurnView("a", "cancelled", "", "t1", "2026-11-30T10:00:00.000Z")
    state.apply(ev.TurnChanged(ended))
    stale = TurnView("a", "running", "", "t1", "2026-11-30T10:00:00.000Z")
    assert state.apply(ev.TurnChanged(stale)) == store.NOTHING
    earlier = TurnView("a", "completed", "", "t0", "2026-11-30T09:00:00.000Z")
    assert state.apply(ev.TurnChanged(earlier)) == store.NOTHING
    later = TurnView("a", "running", "", "t2", "2026-11-30T10:05:00.000Z")
    assert store.CHECKLIST in state.apply(ev.TurnChanged(later))
    assert state.turn("a") == later


def test_a_remote_host_linked_again_is_told_once() -> None:
    state = AppState()
    down = Session("r", "R", "agent", remote=True, remote_state="unreachable")
    state.apply(ev.SessionsListed((down,)))
    up = Session("r", "R", "agent", remote=True, remote_state="connected")
    assert store.LINKED in state.apply(ev.SessionChanged(up))
    renamed = Session("r", "R2", "agent", remote=True, remote_state="connected")
    assert store.LINKED not in state.apply(ev.SessionChanged(renamed))


def test_a_listing_keeps_the_checklists_held() -> None:
    """After a reconnect the dock does not blink empty: what is held stays until a newer
    revision arrives."""
    state = AppState()
    state.apply(ev.SessionsListed((session("a"),)))
    state.apply(ev.SnapshotArrived(snap(4, "completed")))
    state.apply(ev.SessionsListed((session("a"),)))
    assert state.snapshot("a") == snap(4, "completed")


def test_a_notice_goes_when_its_cause_does() -> None:
    """ "Could not stop: unreachable" goes once that remote host is linked again; a
    timed-out create's notice once the session appears; a lost host's once it answers;
    a plain one stays until the user dismisses it."""

    state = AppState()
    far = session("r")._replace(remote=True, remote_state="unreachable")
    state.apply(ev.SessionChanged(far))
    state.apply(ev.NoticeShown("Could not stop the turn: unreachable", until="linked:r"))
    state.apply(ev.SessionChanged(far._replace(remote_state="connecting")))
    assert state.notice  # not yet
    change = state.apply(ev.SessionChanged(far._replace(remote_state="connected")))
    assert state.notice == "" and store.NOTICE in change

    state.apply(ev.NoticeShown("Could not create a session: no answer", until="session"))
    state.apply(ev.SessionChanged(far._replace(title="renamed")))  # not a new one
    assert state.notice
    state.apply(ev.SessionChanged(session("new")))
    assert state.notice == ""

    state.apply(ev.ConnectionChanged("reconnecting", ""))
    state.apply(ev.NoticeShown("Could not send the message: connection lost", until="ready"))
    state.apply(ev.ConnectionChanged("ready", ""))
    assert state.notice == ""

    state.apply(ev.NoticeShown("Could not fork the session: it is running"))
    state.apply(ev.ConnectionChanged("reconnecting", ""))
    state.apply(ev.ConnectionChanged("ready", ""))
    state.apply(ev.SessionChanged(session("another")))
    assert state.notice == "Could not fork the session: it is running"


def test_text_still_arriving_is_held_until_its_message_is_stored() -> None:
    """messages.delta: the shown session's arriving text grows piece by piece; a thought
    after a message starts afresh; the stored message (any line appended) or the turn's
    end takes it away; another session's pieces are not shown."""
    state = AppState()
    state.apply(ev.SessionsListed((session("a"), session("b"))))
    state.apply(ev.TranscriptPage("a", (Line("user", "go", seq=1),), False, 1, "t1", newest_seq=1))
    assert store.LIVE in state.apply(ev.TextStreamed("a", False, "Hel"))
    state.apply(ev.TextStreamed("a", False, "lo\nwor"))
    assert (state.transcript.live.text, state.transcript.live_thought) == ("Hello\nwor", False)
    assert not state.apply(ev.TextStreamed("b", False, "elsewhere")).aspects
    # a page loaded meanwhile keeps what is arriving
    state.apply(ev.TranscriptPage("a", (Line("user", "go", seq=1),), False, 1, "t1", newest_seq=1))
    assert state.transcript.live.text == "Hello\nwor"
    change = state.apply(ev.LinesAppended("a", (Line("assistant", "Hello\nworld", seq=2),)))
    assert {store.TRANSCRIPT, store.LIVE} <= change.aspects and not state.transcript.live
    state.apply(ev.TextStreamed("a", False, "Then"))
    state.apply(ev.TextStreamed("a", True, "Hmm"))
    assert (state.transcript.live.text, state.transcript.live_thought) == ("Hmm", True)
    state.apply(ev.TurnChanged(TurnView("a", "running", "", "t1")))
    ended = state.apply(ev.TurnChanged(TurnView("a", "failed", "gone", "t1")))
    assert store.LIVE in ended.aspects and not state.transcript.live


def test_every_event_has_its_reducer_and_anything_else_is_refused() -> None:
    import typing

    import pytest

    from nib_desktop.state.reducers import REDUCERS

    assert set(typing.get_args(ev.Event)) == set(REDUCERS)
    with pytest.raises(TypeError, match="not an event"):
        AppState().apply("SnapshotArrived")  # type: ignore[arg-type]


def test_running_has_one_source_the_turns_news() -> None:
    state = AppState()
    state.apply(ev.SessionsListed((session("a"),)))
    started = TurnView("a", "running", "", "t1", "2026-01-01T00:00:00.000Z")
    change = state.apply(ev.TurnChanged(started))
    shown = state.shown
    assert shown is not None and shown.running  # before its row's sessions.changed
    assert store.CURRENT in change and store.SESSIONS in change
    ended = started._replace(state="completed")
    state.apply(ev.TurnChanged(ended))
    shown = state.shown
    assert shown is not None and not shown.running and not state.turn("a").running
    state.apply(ev.SessionChanged(session("a", running="t1")))  # a row answered before
    shown = state.shown
    assert shown is not None and not shown.running
    state.apply(ev.SessionChanged(session("a", "2", running="t2")))  # another turn's row
    shown = state.shown
    assert shown is not None and shown.running_turn == "t2"


def test_the_shown_session_keeps_its_place_until_another_is_shown() -> None:
    """Issue 47, point 13: sending moved the session to the top, so the Ctrl+PgUp right
    after landed elsewhere and the next message went to the wrong session."""
    from nib_desktop.state.sidebar import adjacent

    state = AppState()
    state.apply(ev.SessionsListed((session("a", "3"), session("b", "2"), session("c", "1"))))
    state.apply(ev.SessionShown("c"))
    state.apply(ev.SessionChanged(session("c", "9")))  # a message sent in it: now the newest
    assert [s.session_id for s in state.sessions] == ["a", "b", "c"]  # where the user sees it
    assert adjacent(state, -1) == "b"  # Ctrl+PgUp: the row above, as shown
    state.apply(ev.SessionShown("b"))
    assert [s.session_id for s in state.sessions] == ["c", "a", "b"]  # c takes its place now


def test_an_attempts_runs_are_one_group_in_the_sidebar() -> None:
    """Issue 50, point 4: an attempt stays in the sidebar as one group, where its newest
    run would be, its heading over the first run; Ctrl+PgUp/PgDn follow that order."""
    from nib_desktop.state.sidebar import adjacent, rows

    def run(sid: str, updated: str, attempt: str = "") -> Session:
        return session(sid, updated)._replace(attempt=attempt)

    state = AppState()
    listed = (run("a", "5", "x"), run("b", "4"), run("c", "3", "x"), run("d", "2"))
    state.apply(ev.SessionsListed(listed))
    made = rows(state)
    assert [r.session_id for r in made] == ["a", "c", "b", "d"]
    assert [r.group for r in made] == ["Tried by 2 agents: one task", "", "", ""]
    assert [r.grouped for r in made] == [True, True, False, False]
    assert "a run of a task tried by several agents" in made[1].accessible
    state.apply(ev.SessionShown("c"))
    assert adjacent(state, 1) == "b" and adjacent(state, -1) == "a"


def test_the_sessions_of_one_repository_are_one_group_in_the_sidebar() -> None:
    """Issue 49, point 2: the sessions in worktrees of one repository, and one in the
    repository's own folder, are listed together under the repository's name, where the
    newest of them would be; a lone worktree session, another repository's folder and a
    remote session stay as they are."""
    from nib_desktop.state.sidebar import adjacent, rows

    def made(sid: str, updated: str, repo: str = "", cwd: str = "", **more: object) -> Session:
        return session(sid, updated)._replace(repo=repo, cwd=cwd, **more)

    state = AppState()
    listed = (
        made("a", "6", "/src/app", "/data/worktrees/a", branch="nib/a"),
        made("b", "5", cwd="/src/other"),
        made("c", "4", cwd="/src/app/sub"),  # the checkout itself, a folder inside it
        made("d", "3", "/src/app", "/data/worktrees/d", branch="nib/d"),
        made("e", "2", "/src/lone", "/data/worktrees/e", branch="nib/e"),
        made("f", "1", "/src/app", "/remote/wt", remote=True, remote_state="connected"),
    )
    state.apply(ev.SessionsListed(listed))
    shown = rows(state)
    assert [r.session_id for r in shown] == ["a", "c", "d", "b", "e", "f"]
    assert [r.group for r in shown] == ["Repository app · 3 sessions", "", "", "", "", ""]
    assert [r.grouped for r in shown] == [True, True, True, False, False, False]
    state.apply(ev.SessionShown("d"))
    assert adjacent(state, 1) == "b" and adjacent(state, -1) == "c"


def test_the_agent_dialog_offers_the_folder_of_the_newest_session_of_that_agent() -> None:
    from pathlib import Path

    from nib_desktop.state.sidebar import last_folder

    home = Path.home()
    state = AppState()
    assert last_folder(state, "Codex") == "~"  # no session yet
    claude = Session("a", "A", "agent", order=("9", "1"), agent="Claude", cwd=str(home / "src/a"))
    codex = Session("b", "B", "agent", order=("1", "2"), agent="Codex", cwd="/srv/b")
    tree = Session(
        "c",
        "C",
        "agent",
        order=("1", "3"),
        agent="Claude",
        cwd=str(home / ".wt/x"),
        repo=str(home / "src/app"),
    )
    remote = Session("d", "D", "agent", order=("1", "4"), agent="Codex", cwd="/x", remote=True)
    state.apply(ev.SessionsListed((claude, codex, tree, remote)))
    assert last_folder(state, "Codex") == "/srv/b"  # made last, not updated last; local only
    assert last_folder(state, "Claude") == "~/src/app"  # a worktree's: its repository
    assert last_folder(state, "Gemini") == "~/src/app"  # none of its own: any agent's
