"""The asyncio transport's budgets, on a real Unix socket in this process: the handshake
deadline, the pre-authentication frame cap, the connection caps, clients that never read,
and nothing kept after connections close."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from host.core import HostCore
from host.handlers import dispatcher
from host.protocol import models as m
from host.protocol.framing import FrameDecoder, encode_message
from host.server import Limits, RpcServer

TOKEN = "tok"
HELLO = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "host.hello",
    "params": {"token": TOKEN, "protocolVersion": 1, "client": "t"},
}


def serve(
    tmp_path: Path, limits: Limits, body: Callable[[RpcServer, str], Awaitable[None]]
) -> None:
    core = HostCore(tmp_path / "data")
    folder = tempfile.mkdtemp(prefix="nib-")
    path = os.path.join(folder, "s")

    async def main() -> None:
        server = RpcServer(TOKEN, dispatcher(core), limits)
        core.publisher.subscribe(server.broadcast)
        await server.listen(path)
        try:
            await body(server, path)
        finally:
            server.close()

    try:
        asyncio.run(asyncio.wait_for(main(), 30))
    finally:
        core.close()


async def closed(reader: asyncio.StreamReader, timeout: float = 5.0) -> bytes:
    """Everything the server sent before it closed the connection."""
    data = b""
    while chunk := await asyncio.wait_for(reader.read(65536), timeout):
        data += chunk
    return data


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_a_silent_connection_is_closed_at_the_handshake_deadline(tmp_path) -> None:
    async def body(server: RpcServer, path: str) -> None:
        reader, writer = await asyncio.open_unix_connection(path)
        writer.write(b"Content-Le")  # a partial header, then nothing (slowloris)
        # closed by the server with nothing said (without the deadline, the read would
        # wait past `closed`'s own bound and fail)
        assert await closed(reader) == b""
        await until(lambda: server.connection_count == 0)
        writer.close()

    serve(tmp_path, Limits(handshake_s=0.3), body)


def test_a_big_frame_before_the_handshake_is_refused(tmp_path) -> None:
    async def body(server: RpcServer, path: str) -> None:
        reader, writer = await asyncio.open_unix_connection(path)
        writer.write(b"Content-Length: %d\r\n\r\n" % (8 * 1024 * 1024 - 1) + b"x" * 1000)
        answer = json.loads(FrameDecoder().feed(await closed(reader))[0])
        assert answer["error"]["code"] == -32600 and "65536" in answer["error"]["message"]
        await until(lambda: server.connection_count == 0)
        writer.close()

    serve(tmp_path, Limits(), body)


def test_connection_caps(tmp_path) -> None:
    async def body(server: RpcServer, path: str) -> None:
        waiting = [await asyncio.open_unix_connection(path) for _ in range(3)]
        await until(lambda: server.unauthenticated_count == 3)
        reader, fourth = await asyncio.open_unix_connection(path)
        assert await closed(reader) == b""  # the fourth is closed at once
        fourth.close()
        # an authenticated client is still let in once a waiting one goes
        waiting[0][1].close()
        await until(lambda: server.unauthenticated_count == 2)
        reader, writer = await asyncio.open_unix_connection(path)
        writer.write(encode_message(HELLO))
        frames = FrameDecoder().feed(await asyncio.wait_for(reader.read(65536), 5))
        assert "result" in json.loads(frames[0])
        for _, w in waiting:
            w.close()
        writer.close()
        await asyncio.sleep(0)

    serve(tmp_path, Limits(max_unauthenticated=3), body)


def test_a_client_that_never_reads_is_disconnected(tmp_path) -> None:
    async def body(server: RpcServer, path: str) -> None:
        _reader, writer = await asyncio.open_unix_connection(path, limit=1024)
        writer.write(encode_message(HELLO))
        await until(lambda: server.connection_count == 1 and server.unauthenticated_count == 0)
        snapshot = m.TodoSnapshot(
            session_id="s",
            revision=1,
            updated_at=None,
            items=tuple(m.TodoItem(content="x" * 400, status="pending") for _ in range(200)),
        )
        for _ in range(200):  # ~16 MB of notifications the client never reads
            server.broadcast("todos.changed", snapshot)
            await asyncio.sleep(0)
            if server.connection_count == 0:
                break
        await until(lambda: server.connection_count == 0)
        writer.close()

    serve(tmp_path, Limits(max_pending_write=1024 * 1024), body)


def test_nothing_is_kept_after_connections_close(tmp_path) -> None:
    async def body(server: RpcServer, path: str) -> None:
        for _ in range(300):
            reader, writer = await asyncio.open_unix_connection(path)
            writer.write(encode_message(HELLO))
            await reader.read(65536)
            writer.close()
            await writer.wait_closed()
        await until(lambda: server.connection_count == 0)

    serve(tmp_path, Limits(), body)


def test_a_notification_over_the_frame_limit_goes_as_host_stale(tmp_path) -> None:
    """One outbound budget: a notification that would outgrow the frame a client reads
    is replaced by `host.stale` naming it; the client fetches again."""
    import json

    from host.core import HostCore
    from host.protocol import models as m
    from host.protocol.framing import FrameDecoder
    from host.server import RpcServer

    core = HostCore(tmp_path)
    server = RpcServer("token", dispatcher(core))
    sent: list[bytes] = []

    class Recorder:
        def notify_frame(self, frame: bytes) -> None:
            sent.append(frame)

    server._connections.add(Recorder())  # type: ignore[arg-type]
    huge = m.SessionDeleted(session_id="x" * (9 * 1024 * 1024))
    server.broadcast("sessions.deleted", huge)
    server.broadcast("sessions.deleted", m.SessionDeleted(session_id="small"))
    bodies = [json.loads(b) for frame in sent for b in FrameDecoder().feed(frame)]
    assert bodies[0] == {
        "jsonrpc": "2.0",
        "method": "host.stale",
        "params": {"notification": "sessions.deleted"},
    }
    assert bodies[1]["params"] == {"sessionId": "small"}
    core.close()


def test_a_closed_connection_lets_go_of_its_partial_frame(tmp_path) -> None:
    """An authenticated client announces an 8 MiB frame and sends most of it, then goes:
    the buffer is freed when the connection shuts, not whenever the garbage collector
    gets to the connection's reference cycles."""
    import json

    from host.core import HostCore
    from host.protocol.framing import encode_message
    from host.protocol.serving import ServerConnection

    core = HostCore(tmp_path)
    sent: list[bytes] = []
    connection = ServerConnection("token", dispatcher(core), sent.append, lambda: None)
    hello = {"token": "token", "protocolVersion": 1, "client": "test"}
    connection.feed(
        encode_message({"jsonrpc": "2.0", "id": 1, "method": "host.hello", "params": hello})
    )
    assert connection.authenticated and "result" in json.loads(sent[0].split(b"\r\n\r\n")[1])
    connection.feed(b"Content-Length: 8388608\r\n\r\n" + b"x" * (8 * 1024 * 1024 - 1))
    assert len(connection._decoder._buffer) > 8_000_000
    connection.shut()
    assert len(connection._decoder._buffer) == 0
    core.close()
