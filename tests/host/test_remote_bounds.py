"""What a remote host pushes is bounded as a local write is (a remote is untrusted
input): checklists within section 7's limits and the window's integers, sessions and
turns within their fields' sizes, a cap on waiting approvals. Out of bounds: not
forwarded, logged; nothing stored changes."""

from __future__ import annotations

import asyncio

import pytest

from host.core import HostCore
from host.protocol import methods as rpc
from host.protocol import models as m
from host.remote import links

NOW = "2026-01-01T00:00:00.000Z"


def linked(core: HostCore) -> tuple[links.RemoteHost, str]:
    target = m.RemoteTarget(endpoint="unix:/tmp/nib-remote-bounds.sock", remote_session_id="r1")
    local = core.sessions.create(m.CreateSessionParams(remote=target))
    host = core.remotes._host(target.endpoint)
    host.attach("r1", local.id)
    host.capabilities = (links.TODOS,)
    return host, local.id


def snapshot(revision: int, items: int = 1, text: str = "Step") -> m.TodoSnapshot:
    return m.TodoSnapshot(session_id="r1", revision=revision, updated_at=NOW,
                          items=tuple(m.TodoItem(content=f"{text} {i}", status="pending")
                                      for i in range(items)))  # fmt: skip


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
        forged = m.Session(id="r1", title="t", mode="agent", origin="local", remote=None,
                           parent_id=None, created_at=NOW, updated_at="9" * (8 << 20),
                           todo_revision=1, todo_updated_at=None, running_turn_id=None)  # fmt: skip
        host._handle(rpc.SESSIONS_CHANGED.name, forged)
        listed = core.sessions.list()
        assert max(len(s.model_dump_json()) for s in listed) < 10_000
        host.close()

    asyncio.run(scenario())
    assert not [p for name, p in notes if name == rpc.SESSIONS_CHANGED.name and
                len(p.model_dump_json()) > 10_000]  # fmt: skip


def test_a_remote_may_keep_a_bounded_number_of_approvals_waiting(core: HostCore, notes) -> None:
    async def scenario() -> None:
        host, _local = linked(core)
        for i in range(links.MAX_REMOTE_APPROVALS + 50):
            host._handle(
                rpc.APPROVALS_REQUESTED.name,
                m.ApprovalRequested(
                    approval_id=f"a{i}", session_id="r1", turn_id="t", tool="echo", arguments="{}"
                ),
            )
        host.close()

    asyncio.run(scenario())
    asked = [p for name, p in notes if name == rpc.APPROVALS_REQUESTED.name]
    assert len(asked) == links.MAX_REMOTE_APPROVALS
    assert len(core.remotes.remote_approvals) == links.MAX_REMOTE_APPROVALS


def test_only_a_healthy_link_resets_the_back_off() -> None:
    """A remote that breaks every link right after the handshake is retried ever more
    slowly (0.5, 1, 2 … 30 s), not about once a second; a link that lasted resets it."""
    delay, waits = links.FIRST_RETRY_S, []
    for _ in range(8):
        pause, delay = links.after_loss(delay, lasted=0.05)
        waits.append(pause)
    assert waits == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert links.after_loss(30.0, lasted=links.HEALTHY_S) == (0.0, links.FIRST_RETRY_S)


def test_a_remote_flooding_its_catch_up_is_dropped(core: HostCore) -> None:
    """Notifications that arrive while a link catches up are held, but only so many: a
    remote that floods them loses the link (and is retried with the back-off)."""

    class Link:
        closed = False

        def close(self) -> None:
            self.closed = True

    async def scenario() -> None:
        host, _local = linked(core)
        link = Link()
        for i in range(links.MAX_QUEUED):
            host._receive(link, rpc.TODOS_CHANGED.name, snapshot(i + 1))  # type: ignore[arg-type]
        assert not link.closed and len(host._queued) == links.MAX_QUEUED
        host._receive(link, rpc.TODOS_CHANGED.name, snapshot(1))  # type: ignore[arg-type]
        assert link.closed and host._queued == []
        host.close()

    asyncio.run(scenario())
