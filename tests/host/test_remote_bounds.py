"""What a remote host pushes is bounded as a local write is (a remote is untrusted
input): checklists within section 7's limits and the window's integers, sessions and
turns within their fields' sizes, a cap on waiting approvals. Out of bounds: not
forwarded, logged; nothing stored changes."""

from __future__ import annotations

import asyncio

import pytest

from host.core import HostCore
from host.protocol import methods as rpc, models as m
from host.remote import bounds, catch_up, link

NOW = "2026-01-01T00:00:00.000Z"


def linked(core: HostCore) -> tuple[link.RemoteHost, str]:
    target = m.RemoteTarget(endpoint="unix:/tmp/nib-remote-bounds.sock", remote_session_id="r1")
    local = core.sessions.create(m.CreateSessionParams(remote=target))
    host = core.remotes._host(target.endpoint)
    host.attach("r1", local.id)
    host.capabilities = (catch_up.TODOS,)
    return host, local.id


def snapshot(revision: int, items: int = 1, text: str = "Step") -> m.TodoSnapshot:
    return m.TodoSnapshot(
        session_id="r1",
        revision=revision,
        updated_at=NOW,
        items=tuple(m.TodoItem(content=f"{text} {i}", status="pending") for i in range(items)),
    )


@pytest.mark.parametrize(
    "pushed",
    [snapshot(10**30), snapshot(-1), snapshot(1, items=3000), snapshot(1, text="x" * 2000)],
    ids=["huge-revision", "negative", "3000-items", "long-item"],
)
def test_a_forged_checklist_is_not_forwarded(core: HostCore, notes, pushed) -> None:
    async def scenario() -> None:
        host, _local = linked(core)
        host._handle(rpc.TODOS_CHANGED.name, pushed)
        host._handle(rpc.TODOS_CHANGED.name, snapshot(2))  # a sane one still goes through
        host.close()

    asyncio.run(scenario())
    forwarded = [p for name, p in notes if name == rpc.TODOS_CHANGED.name]
    assert [s.revision for s in forwarded] == [2]


def test_a_session_with_an_oversized_field_is_not_used(core: HostCore, notes) -> None:
    async def scenario() -> None:
        host, _local = linked(core)
        forged = m.Session(
            id="r1",
            title="t",
            mode="agent",
            origin="local",
            remote=None,
            parent_id=None,
            created_at=NOW,
            updated_at="9" * (8 << 20),
            todo_revision=1,
            todo_updated_at=None,
            running_turn_id=None,
        )
        host._handle(rpc.SESSIONS_CHANGED.name, forged)
        listed = core.sessions.list()
        assert max(len(s.model_dump_json()) for s in listed) < 10_000
        host.close()

    asyncio.run(scenario())
    assert not [
        p
        for name, p in notes
        if name == rpc.SESSIONS_CHANGED.name and len(p.model_dump_json()) > 10_000
    ]


def test_a_remote_may_keep_a_bounded_number_of_approvals_waiting(core: HostCore, notes) -> None:
    async def scenario() -> None:
        host, _local = linked(core)
        for i in range(bounds.MAX_REMOTE_APPROVALS + 50):
            host._handle(
                rpc.APPROVALS_REQUESTED.name,
                m.ApprovalRequested(
                    approval_id=f"a{i}", session_id="r1", turn_id="t", tool="echo", arguments="{}"
                ),
            )
        host.close()

    asyncio.run(scenario())
    asked = [p for name, p in notes if name == rpc.APPROVALS_REQUESTED.name]
    assert len(asked) == bounds.MAX_REMOTE_APPROVALS
    assert len(core.remotes.remote_approvals) == bounds.MAX_REMOTE_APPROVALS


def test_only_a_healthy_link_resets_the_back_off() -> None:
    """A remote that breaks every link right after the handshake is retried ever more
    slowly (0.5, 1, 2 … 30 s), not about once a second; a link that lasted resets it. A
    remote that does not answer at all (down, restarting) is tried every second."""
    delay, waits = link.FIRST_RETRY_S, []
    for _ in range(8):
        pause, delay = link.after_loss(delay, lasted=0.05)
        waits.append(pause)
    assert waits == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert link.after_loss(30.0, lasted=link.HEALTHY_S) == (0.0, link.FIRST_RETRY_S)
    # a host that does not answer at all is tried every second, however long it is down
    pause, pauses = link.FIRST_RETRY_S, []
    for _ in range(8):
        pauses.append(pause)
        pause = link.after_no_answer(pause)
    assert pauses == [0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]


def test_a_remote_flooding_its_catch_up_is_dropped(core: HostCore) -> None:
    """Notifications that arrive while a link catches up are held, but only so many: a
    remote that floods them loses the link (and is retried with the back-off)."""

    async def scenario() -> None:
        host, _local = linked(core)
        link = Link()
        for i in range(bounds.MAX_QUEUED):
            host._receive(link, rpc.TODOS_CHANGED.name, snapshot(i + 1))  # type: ignore[arg-type]
        assert link.dropped is None and len(host._queued) == bounds.MAX_QUEUED
        host._receive(link, rpc.TODOS_CHANGED.name, snapshot(1))  # type: ignore[arg-type]
        assert link.dropped is not None and "2000 notifications" in link.dropped
        assert host._queued == []
        host.close()

    asyncio.run(scenario())


class Link:
    """A connection as the catch-up queue sees it."""

    dropped: str | None = None

    def drop(self, reason: str) -> None:
        self.dropped = reason


def appended(seq: int, characters: int) -> m.MessageAppended:
    message = m.Message(
        id=f"m{seq}",
        session_id="r1",
        turn_id=None,
        seq=seq,
        role="assistant",
        content="x" * characters,
        created_at=NOW,
    )
    return m.MessageAppended(session_id="r1", message=message)


def test_what_a_catch_up_holds_is_bounded_in_bytes_too(core: HostCore) -> None:
    """600 messages of 1 MiB sent while the catch-up answer is held back grew the queue
    to 646 MB: now it holds at most MAX_QUEUED_BYTES, a message as it would be forwarded
    (cut to 1 MiB), and the link is dropped with the reason in words."""

    async def scenario() -> None:
        host, _local = linked(core)
        link = Link()
        host._receive(link, rpc.MESSAGES_APPENDED.name, appended(1, 8 << 20))  # type: ignore[arg-type]
        held = host._queued[0][2]
        assert isinstance(held, m.MessageAppended)
        assert len(held.message.content) < bounds.MAX_MESSAGE + 100
        sent = 1
        while link.dropped is None:
            sent += 1
            host._receive(link, rpc.MESSAGES_APPENDED.name, appended(sent, 1 << 20))  # type: ignore[arg-type]
            assert host._queued_bytes <= bounds.MAX_QUEUED_BYTES
        assert sent <= bounds.MAX_QUEUED_BYTES // (1 << 20) + 1
        assert "before its catch-up was answered" in link.dropped
        assert host._queued == [] and host._queued_bytes == 0
        host.close()

    asyncio.run(scenario())
