"""A remote host outlives its ssh link (issue 51, as tmux does for a terminal): the host a
`nib-host --stdio` started keeps its turns running when the link drops, and what ssh runs
there on the next link joins it instead of being refused for the data folder's lock.

The first `--stdio` host also listens on `DIR/stdio.sock` (0600, in the 0700 data folder)
with a token of its own, written to `DIR/stdio.token` (0600). A later `nib-host --stdio`
that finds the folder locked relays its standard input and output to that socket: the
client's `host.hello` goes with the running host's token (whoever may run `nib-host` on
that folder may read it), everything else byte for byte. The running host stops once its
turns have ended and no client of either kind is left; until then, a new link joins it.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import selectors
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

from host.listening import listening_socket
from host.protocol.framing import encode_message

JOIN_SOCKET = "stdio.sock"
JOIN_TOKEN = "stdio.token"
HEADER_END = b"\r\n\r\n"
MAX_HELLO = 64 * 1024  # a hello is a few hundred bytes
CONNECT_TRIES_S = 10.0  # a host about to stop: its lock is free again within this


def offer(data_dir: Path) -> tuple[socket.socket, str]:
    """The socket and token a later `--stdio` on this folder joins through."""
    sock = listening_socket(str(data_dir / JOIN_SOCKET))
    token = secrets.token_urlsafe(32)
    path = data_dir / JOIN_TOKEN
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(token)
    return sock, token


def withdraw(data_dir: Path) -> None:
    for name in (JOIN_SOCKET, JOIN_TOKEN):
        with contextlib.suppress(OSError):
            (data_dir / name).unlink()


def connect(data_dir: Path) -> tuple[socket.socket, str] | None:
    """The running `--stdio` host's socket and token, or None when none answers."""
    try:
        token = (data_dir / JOIN_TOKEN).read_text().strip()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(data_dir / JOIN_SOCKET))
        except OSError:
            sock.close()
            raise
    except OSError:
        return None
    return sock, token


def first_frame(read: int) -> tuple[bytes, bytes]:
    """The first frame's body read from the descriptor `read`, and what followed it."""
    data = b""
    while HEADER_END not in data:
        chunk = os.read(read, 4096)
        if not chunk or len(data) > MAX_HELLO:
            raise EOFError("the client left before its host.hello")
        data += chunk
    head, rest = data.split(HEADER_END, 1)
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        -1,
    )
    if not 0 <= length <= MAX_HELLO:
        raise EOFError("the client's first frame is not a host.hello")
    while len(rest) < length:
        chunk = os.read(read, length - len(rest))
        if not chunk:
            raise EOFError("the client left before its host.hello")
        rest += chunk
    return rest[:length], rest[length:]


def relay(sock: socket.socket, token: str) -> int:
    """This process's standard input and output relayed to `sock` until either ends;
    the client's hello carries `token`."""
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    try:
        body, rest = first_frame(stdin)
        hello = json.loads(body)
        if isinstance(hello, dict) and isinstance(hello.get("params"), dict):
            hello["params"]["token"] = token
        sock.sendall(encode_message(hello) + rest)
    except (EOFError, ValueError, OSError):
        return 0
    selector = selectors.DefaultSelector()
    selector.register(stdin, selectors.EVENT_READ)
    selector.register(sock, selectors.EVENT_READ)
    try:
        while True:
            for key, _ in selector.select():
                if key.fileobj == stdin:
                    data = os.read(stdin, 65536)
                    if not data:
                        return 0
                    sock.sendall(data)
                else:
                    data = sock.recv(65536)
                    if not data:
                        return 0
                    os.write(stdout, data)
    except OSError:
        return 0
    finally:
        sock.close()


def join(data_dir: Path, held: type[Exception], acquire: Callable[[], None]) -> int | None:
    """With the folder locked by another host: relay to it if it is a `--stdio` host
    that answers (its exit code), or None once the lock is ours (`acquire()` succeeded
    while that host stopped). Raises `held` if a host that offers no joining holds it."""
    deadline = time.monotonic() + CONNECT_TRIES_S
    while True:
        linked = connect(data_dir)
        if linked is not None:
            return relay(*linked)
        try:
            acquire()
            return None
        except held:
            if not (data_dir / JOIN_SOCKET).exists() or time.monotonic() > deadline:
                raise
        time.sleep(0.1)  # a host between its last turn and its exit
