"""The whole transcript of the session shown, every page of it read from the host, to
the clipboard as text: each line as the transcript tells it, with a tool's output or
diff under its line, a message as the agent wrote it."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication

from host.protocol import plain_methods as rpc, plain_models as m
from nib_desktop.inbound import transcript_page
from nib_desktop.link.connection import HostLink
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState

PAGE = 200  # messages a call


async def copy_transcript(host: HostLink, state: AppState) -> None:
    """Every message of the shown session, oldest first, as text to the clipboard; the
    notice says how many lines went."""
    shown = state.shown
    if shown is None:
        return
    messages: list[m.Message] = []
    before: int | None = None
    while True:
        params = m.MessageListParams(session_id=shown.session_id, before_seq=before, limit=PAGE)
        listing = await host.call(rpc.MESSAGES_LIST, params)
        messages[:0] = listing.messages
        if not listing.has_more or not listing.messages:
            break
        before = listing.messages[0].seq
    told = transcript_page.transcript(
        tuple(messages), (), titled=bool(shown.agent), folder=shown.cwd
    )
    text = "\n\n".join(f"{x.text}\n{x.detail}" if x.detail else x.text for x in told)
    QGuiApplication.clipboard().setText(text)
    said = f"{len(told):,} entries, {text.count(chr(10)) + 1:,} lines of text" if text else "empty"
    state.apply(ev.NoticeShown(f"The whole transcript is copied: {said}", "done"))
