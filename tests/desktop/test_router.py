"""The router: its answer to `host.stale` (everything is loaded again), and the open
History view's writes joined from what the host sends anyway."""

from __future__ import annotations

from host.protocol import plain_models as m
from nib_desktop.inbound import convert
from nib_desktop.inbound.router import HistoryFeed, LineFeed, Router
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session


def test_host_stale_asks_for_a_reload() -> None:
    router = Router(AppState(), LineFeed(), HistoryFeed())
    asked: list[bool] = []
    router.on_stale = lambda: asked.append(True)
    router.route("host.stale", m.Stale(notification="tools.changed"))
    assert asked == [True]


def test_a_write_joins_the_open_history_with_the_hosts_own_diff() -> None:
    """The History entry of a write is its todos.changed (items, time) and its commit
    entry's diff as the host sent it: the window diffs nothing again."""
    state = AppState()
    history = HistoryFeed()
    router = Router(state, LineFeed(), history)
    state.apply(ev.SessionsListed((Session("s", "a session", "agent", running_turn="t1"),)))
    state.apply(ev.HistoryOpened("s"))
    history.told("s", None)
    items = (m.TodoItem(content="Write it", status="in_progress", active_form=None),)
    snapshot = m.TodoSnapshot(
        session_id="s", revision=1, updated_at="2026-12-05T10:00:00.000Z", items=items
    )
    router.route("todos.changed", snapshot)
    assert history.awaits("s", 1) and state.history.revisions == ()
    # a diff no client would compute from these items: only the host's can be shown
    told = m.TodoDiff(
        added=[],
        completed_removed=["Plan it"],
        dropped_unfinished=[],
        status_changed=[],
        reordered=True,
    )
    commit = m.TodoCommit(revision=1, items=1, diff=told)
    message = m.Message(
        id="m1",
        session_id="s",
        turn_id="t1",
        seq=3,
        role="tool",
        content="Checklist saved",
        created_at="2026-12-05T10:00:00.001Z",
        todo=commit,
    )
    router.route("messages.appended", m.MessageAppended(session_id="s", message=message))
    (entry,) = state.history.revisions
    assert entry.revision == 1 and entry.turn_id == "t1"
    assert (
        entry.summary
        == convert.revision(
            m.TodoRevision(
                session_id="s",
                revision=1,
                turn_id="t1",
                created_at=snapshot.updated_at or "",
                items=items,
                diff=told,
            )
        ).summary
    )
    assert not history.awaits("s", 1) and history.revision == 1


def test_a_write_whose_commit_never_comes_is_loaded_when_its_turn_ends() -> None:
    history = HistoryFeed()
    history.told("s", None)
    snapshot = m.TodoSnapshot(
        session_id="s", revision=1, updated_at="2026-12-05T10:00:00.000Z", items=()
    )
    assert history.snapshot_told(snapshot)
    assert history.given_up("s") and not history.given_up("s") and not history.awaits("s", 1)


def test_a_checkpoint_not_taken_is_said_in_the_notice() -> None:
    """`checkpoints.failed`: the notice names the session and says why, and what it means
    for restoring (issue 46, item 14: a full disk)."""
    state = AppState()
    router = Router(state, LineFeed(), HistoryFeed())
    state.apply(ev.SessionsListed((Session("s", "Parser work", "agent"),)))
    failed = m.CheckpointFailed(
        session_id="s", reason="turn-start", turn_id="t1", error="the disk is full"
    )
    router.route("checkpoints.failed", failed)
    assert state.notice == (
        "The folder of “Parser work” could not be recorded: the disk is full. What changes"
        " in it from here cannot be restored until a checkpoint is taken."
    )


def test_an_approvals_diff_names_its_paths_as_the_transcript_does() -> None:
    """Under the session's folder a path is named relative to it, in the approval as in
    the transcript's line of the same call (the approval named it from the root)."""
    from host.protocol import plain_models as p

    state = AppState()
    router = Router(state, LineFeed(), HistoryFeed())
    here = Session("s", "a session", "agent", running_turn="t1", cwd="/home/me/work")
    state.apply(ev.SessionsListed((here,)))
    change = p.ToolDiff(path="/home/me/work/made.txt", new_text="made\n")
    elsewhere = p.ToolDiff(path="/etc/hosts", old_text="a\n", new_text="b\n")
    asked = p.ApprovalRequested(
        approval_id="a1",
        session_id="s",
        turn_id="t1",
        tool="Write",
        arguments="{}",
        options=(p.ApprovalOption(option_id="ok", name="Allow", kind="allow_once"),),
        activity=p.ToolActivity(kind="edit", status="pending", diffs=(change, elsewhere)),
    )
    router.route("approvals.requested", asked)
    shown = state.approvals[0].detail.splitlines()
    assert shown[:2] == ["--- /dev/null", "+++ made.txt"]
    assert "+++ /etc/hosts" in shown
