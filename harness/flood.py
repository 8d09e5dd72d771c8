"""A flood from the host, as the window meets it: a peer at a Unix socket that shakes
hands as a host does and then sends a burst of `messages.appended` for the session on
screen, into the app's real RPC client, router, state, views and window; and a ticker on
the event loop that keeps its longest gap. Used by the no-stall test and the reliability
bench."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any

from harness.waiting import until
from host.protocol import methods as rpc, models as m
from host.protocol.endpoint import encode_notification, response_message
from host.protocol.framing import FrameDecoder, encode_message
from nib_desktop.link.rpc_client import RpcClient

FRAME_S = 1 / 60


class Ticker:
    def __init__(self) -> None:
        self.longest = 0.0
        self.second = 0.0  # the second longest gap
        self._last = time.perf_counter()
        self._running = True
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._last = time.perf_counter()
        self._tick()

    def _tick(self) -> None:
        now = time.perf_counter()
        gap = now - self._last
        if gap > self.longest:
            self.longest, self.second = gap, self.longest
        elif gap > self.second:
            self.second = gap
        self._last = now
        if self._running:
            self._handle = asyncio.get_running_loop().call_later(0.004, self._tick)

    def stop(self) -> None:
        self._running = False
        if self._handle is not None:
            self._handle.cancel()


NOW = "2026-01-01T00:00:00.000Z"


class FloodHost:
    """A peer at a Unix socket that shakes hands as a host does, then sends `frames` at
    once: a host relaying a flood (a remote's 200 messages of a megabyte)."""

    def __init__(self, path: str, frames: list[bytes]) -> None:
        self.path = path
        self._frames = frames
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(path)
        self._listener.listen(1)
        self._peer: socket.socket | None = None
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        peer, _ = self._listener.accept()
        self._peer = peer
        decoder = FrameDecoder()
        while not (bodies := decoder.feed(peer.recv(65536))):
            pass
        hello = json.loads(bodies[0])
        result = m.HelloResult(protocol_version=1, host_version="0", schema_version=1)
        peer.sendall(encode_message(response_message(hello["id"], result.to_wire())))
        with contextlib.suppress(OSError):
            peer.sendall(b"".join(self._frames))
            peer.recv(1)  # until the client goes

    def close(self) -> None:
        self._listener.close()
        if self._peer is not None:
            self._peer.close()


def appended(session_id: str, seq: int, text: str) -> bytes:
    message = m.Message(
        id=f"m{seq}",
        session_id=session_id,
        turn_id=None,
        seq=seq,
        role="assistant",
        content=text,
        created_at=NOW,
    )
    return encode_notification(
        rpc.MESSAGES_APPENDED.name, m.MessageAppended(session_id=session_id, message=message)
    )


async def flood_window(gui: Any, folder: Path, count: int, size: int) -> float:
    """`count` messages of about `size` bytes for the session on screen, at once: the
    event loop's longest stall while they are handled (seconds). Asserts every message
    reached the transcript, in order."""
    return (await flood_window_gaps(gui, folder, count, size)).longest


async def flood_window_gaps(gui: Any, folder: Path, count: int, size: int) -> Ticker:
    """As `flood_window`, with the ticker that measured the gaps."""
    ticker = Ticker()
    received: list[str] = []
    session = await gui.actions.sessions.create_session("agent")
    await until(lambda: gui.state.transcript.loaded, what="the session shown")
    line = "a line of a long answer " * 10 + "\n"
    text = line * max(1, size // len(line))
    frames = [appended(session.id, 1000 + i, f"message {i}\n{text}") for i in range(count)]
    flood = FloodHost(str(folder / "flood.sock"), frames)
    client = RpcClient()
    client.notification.connect(lambda name, _params: received.append(name))
    client.notification.connect(gui.main.router.route)
    try:
        await client.connect_to(flood.path, "token")
        gc.freeze()  # as the app does once started (not an earlier test's garbage)
        ticker.start()
        await until(lambda: len(received) == count, 120, "the whole flood handled")
        await gui.frame()
        ticker.stop()
    finally:
        gc.unfreeze()
        client.close()
        flood.close()
    shown = [row.text.split("\n", 1)[0] for row in gui.transcript.model.rows()[-count:]]
    assert shown == [f"message {i}" for i in range(count)]
    return ticker
