"""`messages.list` in pages: a transcript of any size is answered without ever building a
frame the client must refuse."""

from __future__ import annotations

from host.core import HostCore
from host.protocol import models as m
from host.sessions.rows import PAGE_BYTES


def big_transcript(core: HostCore, count: int, size: int) -> str:
    session = core.sessions.create(m.CreateSessionParams(title="big"))
    for i in range(count):
        core.sessions.transcript.append(session.id, None, "assistant", f"{i:04d} " + "x" * size)
    return session.id


def test_pages_cover_the_transcript_once_in_order(core: HostCore) -> None:
    sid = big_transcript(core, 40, 300_000)  # about 12 MB
    seen: list[int] = []
    before = None
    pages = 0
    while True:
        page = core.sessions.transcript.page(m.MessageListParams(session_id=sid, before_seq=before))
        pages += 1
        assert page.total == 40
        body = sum(len(msg.content) for msg in page.messages)
        assert len(page.messages) > 0 and body <= PAGE_BYTES
        seen[:0] = [msg.seq for msg in page.messages]
        if not page.has_more:
            break
        before = page.messages[0].seq
    assert seen == list(range(1, 41)) and pages >= 3


def test_a_limit_and_a_small_transcript(core: HostCore) -> None:
    sid = big_transcript(core, 5, 10)
    page = core.sessions.transcript.page(m.MessageListParams(session_id=sid, limit=2))
    assert [msg.seq for msg in page.messages] == [4, 5] and page.has_more and page.total == 5
    whole = core.sessions.transcript.page(m.MessageListParams(session_id=sid))
    assert [msg.seq for msg in whole.messages] == [1, 2, 3, 4, 5] and not whole.has_more
    empty = core.sessions.create(m.CreateSessionParams(title="empty"))
    none = core.sessions.transcript.page(m.MessageListParams(session_id=empty.id))
    assert none.messages == () and none.total == 0 and not none.has_more
