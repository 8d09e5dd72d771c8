"""Checklist history (contract section 11): the table written with every commit, the
diff, the TodoWrite result the model reads, and todos.history."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, strategies as st

from host.core import HostCore
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import errors, models as m
from host.protocol.todo_diff import diff_items, matched_diff
from host.todos import service as todo_service
from tests.helpers.budget import examples
from tests.host.test_todo_service import session_with_turn, write


def items(*pairs: tuple[str, str]) -> tuple[m.TodoItem, ...]:
    return tuple(m.TodoItem(content=c, status=s) for c, s in pairs)  # type: ignore[arg-type]


def history(core: HostCore, session_id: str, **params: object) -> m.TodoHistory:
    return core.todos.history(m.TodoHistoryParams(session_id=session_id, **params))


def agent(core: HostCore) -> tuple[m.Session, ExecutionContext]:
    session, turn = session_with_turn(core)
    return session, ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)


# --- the diff ---------------------------------------------------------------------------


def test_diff_names_every_kind_of_change() -> None:
    old = items(("A", "completed"), ("B", "in_progress"), ("C", "pending"), ("D", "cancelled"))
    new = items(("B", "completed"), ("A", "completed"), ("E", "pending"))
    diff = diff_items(old, new)
    assert diff.added == ("E",)
    assert diff.completed_removed == ("D",)
    assert diff.dropped_unfinished == ("C",)
    assert [(c.content, c.from_, c.to) for c in diff.status_changed] == [
        ("B", "in_progress", "completed")
    ]
    assert diff.reordered is True
    assert diff.to_wire()["statusChanged"] == [
        {"content": "B", "from": "in_progress", "to": "completed"}
    ]


def test_a_reworded_item_is_a_removal_and_an_addition() -> None:
    diff = diff_items(items(("Write tests", "pending")), items(("Write the tests", "pending")))
    assert diff.dropped_unfinished == ("Write tests",) and diff.added == ("Write the tests",)
    assert not diff.reordered


STATUS = st.sampled_from(["pending", "in_progress", "completed", "cancelled"])
LISTS = st.lists(st.tuples(st.sampled_from("abcdef"), STATUS), max_size=8)


@examples(2_000)  # lists of up to 8 of six letters: a small space
@given(LISTS, LISTS)
def test_applying_the_diff_to_the_old_list_gives_the_new(old_pairs, new_pairs) -> None:
    old, new = items(*old_pairs), items(*new_pairs)
    diff = diff_items(old, new)
    removed = Counter(diff.completed_removed) + Counter(diff.dropped_unfinished)
    # as a multiset of contents
    kept = Counter(i.content for i in old) - removed
    assert kept + Counter(diff.added) == Counter(i.content for i in new)
    # dropped unfinished: exactly the removed items that were not completed or cancelled
    unfinished = Counter(diff.dropped_unfinished)
    assert all(
        any(i.content == c and i.status not in ("completed", "cancelled") for i in old)
        for c in unfinished
    )
    # as a multiset of (content, status): the kept items with their changes, plus the new
    changes = Counter((c.content, c.from_, c.to) for c in diff.status_changed)
    after = Counter((i.content, i.status) for i in old)
    for (content, was, now), n in changes.items():
        after[(content, was)] -= n
        after[(content, now)] += n
    gone = removed.copy()
    for item in reversed(old):  # the later occurrences are the unmatched ones
        if gone[item.content]:
            gone[item.content] -= 1
            after[(item.content, item.status)] -= 1
    added = Counter(diff.added)
    for item in reversed(new):
        if added[item.content]:
            added[item.content] -= 1
            after[(item.content, item.status)] += 1
    assert +after == Counter((i.content, i.status) for i in new)


@examples(500)
@given(LISTS, st.lists(STATUS, min_size=8, max_size=8))
def test_the_same_steps_with_new_statuses_diff_as_the_general_match(old_pairs, statuses) -> None:
    """The common write (same contents, same order) takes a short way: it must give the
    general match's diff exactly."""
    old = items(*old_pairs)
    new = items(*((i.content, s) for i, s in zip(old, statuses, strict=False)))
    assert diff_items(old, new) == matched_diff(old, new)


@examples(500)
@given(LISTS, LISTS)
def test_a_rewritten_list_diffs_as_the_general_match(old_pairs, new_pairs) -> None:
    """A list whose every step is reworded (no content in common) takes a short way too:
    it must give the general match's diff exactly."""
    old = items(*old_pairs)
    new = items(*((f"{content} again", status) for content, status in new_pairs))
    assert not {i.content for i in old} & {i.content for i in new}
    assert diff_items(old, new) == matched_diff(old, new)


# --- storage ----------------------------------------------------------------------------


def test_every_commit_is_in_the_history_with_its_turn(core) -> None:
    session, ctx = agent(core)
    write(core, ctx, [{"content": "A", "status": "pending"}])
    write(core, ctx, [{"content": "A", "status": "completed"}])
    page = history(core, session.id)
    assert [r.revision for r in page.revisions] == [2, 1] and not page.has_more
    assert all(r.turn_id == ctx.turn_id for r in page.revisions)
    assert page.revisions[0].items == core.todos.snapshot(session.id).items
    assert page.revisions[1].diff.added == ("A",)  # revision 1 against the empty list
    assert [(c.from_, c.to) for c in page.revisions[0].diff.status_changed] == [
        ("pending", "completed")
    ]


def test_a_failed_write_leaves_no_history_row(core) -> None:
    session, ctx = agent(core)
    write(core, ctx, [{"content": "A", "status": "pending"}])
    core.db.execute(
        "CREATE TEMP TRIGGER boom BEFORE INSERT ON todo_revisions"
        " BEGIN SELECT RAISE(ABORT, 'injected'); END"
    )
    _content, is_error = write(core, ctx, [{"content": "B", "status": "pending"}])
    assert is_error
    assert [r.revision for r in history(core, session.id).revisions] == [1]
    assert core.todos.snapshot(session.id).items == items(("A", "pending"))


def test_retention_keeps_the_newest(core, monkeypatch) -> None:
    monkeypatch.setattr(todo_service, "HISTORY_KEPT", 5)
    session, ctx = agent(core)
    for n in range(8):
        write(core, ctx, [{"content": f"step {n}", "status": "pending"}])
    page = history(core, session.id, limit=100)
    assert [r.revision for r in page.revisions] == [8, 7, 6, 5, 4] and not page.has_more


def test_retention_default_is_a_thousand() -> None:
    assert todo_service.HISTORY_KEPT == 1_000


def test_fork_starts_without_history_and_delete_cascades(core) -> None:
    session, ctx = agent(core)
    write(core, ctx, [{"content": "A", "status": "pending"}])
    fork = core.sessions.fork(m.ForkParams(session_id=session.id))
    assert history(core, fork.id).revisions == ()
    core.sessions.turns.end(session.id, ctx.turn_id, "completed", None)
    core.sessions.delete(session.id)
    assert core.db.execute("SELECT count(*) FROM todo_revisions").fetchone() == (0,)


def test_history_survives_a_restart(tmp_path) -> None:
    first = HostCore(tmp_path)
    session, ctx = agent(first)
    write(first, ctx, [{"content": "A", "status": "pending"}])
    first.close()
    second = HostCore(tmp_path)
    assert [r.revision for r in history(second, session.id).revisions] == [1]
    second.close()


def test_paging_with_before_revision(core) -> None:
    session, ctx = agent(core)
    for n in range(7):
        write(core, ctx, [{"content": f"s{n}", "status": "pending"}])
    first = history(core, session.id, limit=3)
    assert [r.revision for r in first.revisions] == [7, 6, 5] and first.has_more
    second = history(core, session.id, limit=3, before_revision=5)
    assert [r.revision for r in second.revisions] == [4, 3, 2] and second.has_more
    last = history(core, session.id, limit=3, before_revision=2)
    assert [r.revision for r in last.revisions] == [1] and not last.has_more
    # the oldest of a page still diffs against its real predecessor
    assert second.revisions[-1].diff.dropped_unfinished == ("s0",)


def test_unknown_and_remote_sessions(core) -> None:
    with pytest.raises(errors.SessionNotFound):
        history(core, "missing")
    remote = core.sessions.create(
        m.CreateSessionParams(remote=m.RemoteTarget(endpoint="unix:/x", remote_session_id="r"))
    )
    with pytest.raises(errors.RemoteSession):
        history(core, remote.id)


# --- what the model reads ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (
            [],
            [("A", "pending"), ("B", "pending")],
            "Checklist saved as revision 2: 0 of 2 completed.",
        ),
        (
            [("A", "pending")],
            [("A", "in_progress", "Doing A"), ("B", "pending")],
            "Checklist saved as revision 2: 0 of 2 completed; in progress: A.",
        ),
        (
            [("A", "pending"), ("B", "pending"), ("C", "completed")],
            [("C", "completed")],
            "Checklist saved as revision 2: 1 of 1 completed. "
            'Removed without completing: "A", "B".',
        ),
        (
            [("A", "completed"), ("B", "cancelled")],
            [("A", "completed"), ("B", "cancelled")],
            "Checklist saved as revision 2: 1 of 1 completed.",
        ),
        (
            [("A", "pending")],
            [],
            'Checklist saved as revision 2: it is empty. Removed without completing: "A".',
        ),
    ],
)
def test_the_tool_result_is_short_text(core, before, after, expected) -> None:
    def todos(pairs: list[tuple[str, ...]]) -> list[dict[str, str]]:
        return [
            {"content": p[0], "status": p[1], **({"activeForm": p[2]} if len(p) > 2 else {})}
            for p in pairs
        ]

    _session, ctx = agent(core)
    write(core, ctx, todos(before))
    content, is_error = write(core, ctx, todos(after))
    assert not is_error and content == expected


def test_a_page_of_history_stays_under_the_frame_limit(core) -> None:
    """12 revisions of 200 items of 500 characters of 4 bytes each (inside section 7's
    limits): a page of 12 stops at about 4 MiB; the rest is on the next pages."""
    session, ctx = agent(core)
    for n in range(12):
        text = "\U0001f600" * 497
        write(
            core,
            ctx,
            [
                {"content": f"{i:03d}{text}", "status": "pending" if i > n else "completed"}
                for i in range(200)
            ],
        )
    page = history(core, session.id, limit=12)
    encoded = len(page.model_dump_json(by_alias=True).encode())
    assert 1 <= len(page.revisions) < 12 and page.has_more
    assert encoded < 8 * 1024 * 1024
    rest = history(core, session.id, before_revision=page.revisions[-1].revision, limit=100)
    got = [r.revision for r in page.revisions] + [r.revision for r in rest.revisions]
    while rest.has_more:
        rest = history(core, session.id, before_revision=got[-1], limit=100)
        got += [r.revision for r in rest.revisions]
    assert got == list(range(12, 0, -1))
