"""The transport adapter: asyncio streams carry bytes to and from `ServerConnection`, on a
Unix socket (the desktop's QLocalSocket connects to it) or over standard input and output
(`nib-host --stdio`, one client, e.g. through ssh). Nothing else in the host knows about
sockets, and the host needs no Qt at all.

Budgets, as local servers such as sshd and PostgreSQL keep them: a connection must say
`host.hello` within HANDSHAKE_S and in a frame of at most PRE_AUTH_FRAME bytes; at most
MAX_UNAUTHENTICATED connections may be waiting for their handshake and MAX_CONNECTIONS be
open at all (more are closed at once); a client that leaves MAX_PENDING_WRITE bytes unread
is disconnected, not only ignored; each read hands at most READ_CHUNK bytes of frames to
the dispatcher before other clients get their turn. If accepting fails (no descriptors
left), asyncio pauses the listener and retries, and the socket file stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
from asyncio import constants as asyncio_constants
from typing import NamedTuple

from host.listening import ACCEPT_BATCH, listening_socket
from host.protocol import models as m
from host.protocol.endpoint import encode_notification
from host.protocol.framing import MAX_FRAME_BYTES
from host.protocol.serving import Dispatcher, ServerConnection

log = logging.getLogger(__name__)


class Limits(NamedTuple):
    handshake_s: float = 10.0
    pre_auth_frame: int = 64 * 1024  # a hello is a few hundred bytes
    max_unauthenticated: int = 32
    max_connections: int = 512
    max_pending_write: int = 64 * 1024 * 1024
    read_chunk: int = 64 * 1024


# asyncio pauses accepting for this long when it runs out of descriptors (its default is
# a whole second); a client is let in this soon after descriptors are free again
ACCEPT_RETRY_S = 0.1


class RpcServer:
    def __init__(self, token: str, dispatcher: Dispatcher, limits: Limits | None = None) -> None:
        self._token = token
        self._dispatcher = dispatcher
        self.limits = limits or Limits()
        self._connections: set[ServerConnection] = set()
        self._server: asyncio.AbstractServer | None = None
        self._path: str | None = None
        self._left: asyncio.Event | None = None  # set as a connection goes

    @property
    def connection_count(self) -> int:
        return len(self._connections)

    @property
    def dispatcher(self) -> Dispatcher:
        return self._dispatcher

    async def all_gone(self) -> None:
        """Until no connection is left."""
        while self._connections:
            self._left = self._left or asyncio.Event()
            self._left.clear()
            await self._left.wait()

    @property
    def unauthenticated_count(self) -> int:
        return sum(1 for c in self._connections if not c.authenticated)

    async def listen(self, path: str) -> str:
        """Listen on the Unix socket `path` (see `host.listening`) and serve it."""
        return await self.serve_socket(listening_socket(path))

    async def serve_socket(self, sock: socket.socket) -> str:
        """Serve `sock`, a Unix socket already listening (`host.listening`); its path,
        which `close` removes."""
        asyncio_constants.ACCEPT_RETRY_DELAY = ACCEPT_RETRY_S  # type: ignore[misc,assignment]
        self._server = await asyncio.start_unix_server(self._serve, sock=sock, backlog=ACCEPT_BATCH)
        self._path = str(sock.getsockname())
        return self._path

    async def serve_stdio(self) -> None:
        """One client over standard input and output, until either side ends."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=self.limits.read_chunk)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, sys.stdout
        )
        writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        await self._serve(reader, writer)

    def broadcast(self, name: str, params: m.Wire) -> None:
        """Every notification within the one outbound budget (the frame limit, as for
        answers): one that would exceed it goes as `host.stale`, naming it."""
        frame = encode_notification(name, params)
        if len(frame) > MAX_FRAME_BYTES:
            log.warning("%s of %.1f MiB sent as host.stale", name, len(frame) / 2**20)
            frame = encode_notification("host.stale", m.Stale(notification=name))
        for connection in list(self._connections):
            connection.notify_frame(frame)

    def close(self) -> None:
        for connection in list(self._connections):
            connection.shut()
        if self._server is not None:
            self._server.close()
        if self._path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._path)

    # ---------------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        limits = self.limits
        if (
            len(self._connections) >= limits.max_connections
            or self.unauthenticated_count >= limits.max_unauthenticated
        ):
            log.warning("refused a connection: %d open", len(self._connections))
            writer.transport.abort()
            return
        transport = writer.transport

        def send(data: bytes) -> None:
            if transport.is_closing():
                return
            if transport.get_write_buffer_size() + len(data) > limits.max_pending_write:
                log.warning("disconnected a client that does not read its messages")
                transport.abort()
                connection.shut()
                return
            writer.write(data)

        def close() -> None:
            # what is written goes out first; a client that never reads is cut off
            transport.close()
            if transport.get_write_buffer_size():
                asyncio.get_running_loop().call_later(5.0, transport.abort)

        connection = ServerConnection(
            self._token, self._dispatcher, send, close, pre_auth_frame=limits.pre_auth_frame
        )
        self._connections.add(connection)
        loop = asyncio.get_running_loop()

        def deadline() -> None:
            if not connection.authenticated and not connection.closed:
                log.info("closed a connection that did not say host.hello in time")
                transport.abort()
                connection.shut()

        timer = loop.call_later(limits.handshake_s, deadline)
        try:
            while not connection.closed:
                data = await reader.read(limits.read_chunk)
                if not data:
                    break
                connection.feed(data)
                await asyncio.sleep(0)  # the other clients' turn
        except (ConnectionError, OSError):
            pass
        except asyncio.CancelledError:  # the host stops: a connection's end, not an error
            pass
        finally:
            timer.cancel()
            connection.shut()
            self._connections.discard(connection)
            if self._left is not None:
                self._left.set()
            if not transport.is_closing():
                transport.close()
            self._give_back_memory()

    def _give_back_memory(self) -> None:
        """After connections close, the C allocator returns freed memory to the system
        (read buffers are freed, but glibc keeps the pages otherwise, and a flood of
        connections would leave the host large for good)."""
        from host.memory import TRIMMER  # ctypes: not on the way to the ready line

        TRIMMER.give_back()
