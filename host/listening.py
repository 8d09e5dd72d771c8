"""The host's listening socket, made without asyncio.

The contract's ready line says the server listens. A socket that is bound and listening
does: the kernel accepts a client's connection and keeps what it sends until the event
loop reads it. So the host binds and listens here, writes its ready line, and only then
imports asyncio (about 25 ms, a tenth of its start) and serves the socket it made.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat

# how many connections the kernel holds before the loop accepts them; also how many one
# turn of the loop accepts: a flood of new connections then delays an existing client by
# little
ACCEPT_BATCH = 32


class ListenError(Exception):
    pass


def listening_socket(path: str) -> socket.socket:
    """A Unix socket listening at `path`, made 0600; a stale socket there is replaced,
    anything else that exists there is refused untouched (ListenError)."""
    if os.path.lexists(path):
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            raise ListenError(f"cannot listen on {path}: it exists and is not a socket")
        os.unlink(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    previous = os.umask(0o077)
    try:
        sock.bind(path)
        os.chmod(path, 0o600)
        sock.listen(ACCEPT_BATCH)
    except OSError as exc:
        sock.close()
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(os.lstat(path).st_mode):
                os.unlink(path)
        raise ListenError(f"cannot listen on {path}: {exc.strerror or exc}") from None
    finally:
        os.umask(previous)
    sock.setblocking(False)
    return sock
