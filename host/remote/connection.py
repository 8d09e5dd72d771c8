"""One RACP connection (contract section 14): this host as the client of a remote host,
speaking the same framing, handshake and methods. The transport is a Unix socket
(`unix:/path`) or the system's OpenSSH client running `nib-host --stdio` on the other
machine (`ssh://[user@]host[:port]`): keys, the agent and known_hosts are ssh's business,
and BatchMode means ssh fails with its reason rather than prompting where nobody sees.

A connection that breaks the protocol (garbage, a frame over the cap, another protocol
version, a close during the handshake) is closed with the reason in words; the reason is
what the user sees as "remote unreachable: ...".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shlex
import socket
import struct
from collections.abc import Callable
from typing import TypeVar

from host.protocol import PROTOCOL_VERSION, errors, models as m
from host.protocol.appinfo import TOKEN_ENV, app_version
from host.protocol.endpoint import ClientEndpoint, ConnectionLost
from host.protocol.framing import FramingError
from host.protocol.methods import HELLO, Method
from host.protocol.remote import RemoteEndpoint

log = logging.getLogger(__name__)

P = TypeVar("P", bound=m.Wire)
R = TypeVar("R", bound=m.Wire)

RACP_TOKEN_ENV = "NIB_RACP_TOKEN"  # the token presented to a `unix:` remote
SSH_COMMAND_ENV = "NIB_SSH_COMMAND"  # the ssh client and options, default "ssh"
REMOTE_COMMAND_ENV = "NIB_REMOTE_HOST_COMMAND"  # run there; default "nib-host --stdio"
DEFAULT_REMOTE_COMMAND = "nib-host --stdio"
HANDSHAKE_S = 15.0  # ssh's own connect timeout is 10 s
READ_CHUNK = 256 * 1024
# never handed to ssh (and so never to a remote shell): this machine's secrets
PRIVATE_ENV = (TOKEN_ENV, RACP_TOKEN_ENV, "NIB_OPENAI_API_KEY", "OPENAI_API_KEY")

NotificationSink = Callable[["RacpConnection", str, m.Wire], None]


# a line of the remote host's own log, as it writes it to stderr (host/process.py)
_LOG_LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: (.*)$"
)


def reason_in(line: str) -> str:
    """What a line of ssh's stderr says about the link, or "": ssh's own words and the
    remote host's refusals ("nib-host: …") are reasons; the remote host's log lines are
    not, unless they are its errors (a log line is not why a link went)."""
    logged = _LOG_LINE.match(line)
    if logged is None:
        return line
    return logged.group(2) if logged.group(1) in ("ERROR", "CRITICAL") else ""


class RemoteDown(Exception):
    """The remote host cannot be used; `reason` says why, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def ssh_command(endpoint: RemoteEndpoint) -> list[str]:
    """The OpenSSH invocation for `endpoint`: no terminal, no prompts, keep-alives so a
    dead link is noticed within a minute."""
    base = shlex.split(os.environ.get(SSH_COMMAND_ENV) or "ssh")
    remote = os.environ.get(REMOTE_COMMAND_ENV) or DEFAULT_REMOTE_COMMAND
    options = [
        "-T",
        "-o",
        "BatchMode=yes",
        "-o",
        "ConnectTimeout=10",
        "-o",
        "ServerAliveInterval=15",
        "-o",
        "ServerAliveCountMax=3",
        "-p",
        str(endpoint.port),
    ]
    if endpoint.user:
        options += ["-l", endpoint.user]
    return [*base, *options, "--", endpoint.host, remote]


class RacpConnection:
    """Requests to one remote host and its notifications. `on_lost` runs once, with the
    reason, when the connection ends for any reason but `close()`."""

    def __init__(
        self,
        endpoint: RemoteEndpoint,
        on_notification: NotificationSink,
        on_lost: Callable[[str], None],
    ) -> None:
        self.endpoint = endpoint
        self._on_lost = on_lost
        self._client = ClientEndpoint(
            self._send,
            lambda name, params: on_notification(self, name, params),
            on_bad=self._protocol_broken,
        )
        self._writer: asyncio.StreamWriter | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._read_task: asyncio.Task[None] | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._stderr_tail = ""
        self._ended = False
        self._end_reason: str | None = None
        self._greeted = False
        self.capabilities: tuple[str, ...] = ()

    async def open(self) -> m.HelloResult:
        """Connect and say hello; RemoteDown with the reason otherwise."""
        try:
            reader = await self._connect()
        except OSError as exc:
            raise RemoteDown(self._describe_os_error(exc)) from None
        self._read_task = asyncio.ensure_future(self._read(reader))
        token = os.environ.get(RACP_TOKEN_ENV, "")
        stranger = self._peer_stranger() if token else None
        if stranger is not None:  # the token proves who we are to our own host only
            self._end(None)
            raise RemoteDown(stranger)
        hello = m.HelloParams(
            token=token, protocol_version=PROTOCOL_VERSION, client=f"nib-host {app_version()}"
        )
        try:
            result = await self._client.request(HELLO, hello, timeout=HANDSHAKE_S)
        except (errors.RpcError, TimeoutError) as exc:  # ConnectionLost is an RpcError
            self._end(None)
            raise RemoteDown(await self._refusal(exc)) from None
        self.capabilities = tuple(result.capabilities)
        self._greeted = True
        return result

    async def _refusal(self, exc: BaseException) -> str:
        """Why the handshake did not succeed, in words."""
        if isinstance(exc, ConnectionLost):
            return self._end_reason or await self._lost_reason()
        if isinstance(exc, TimeoutError):
            return f"the remote host did not answer the handshake within {HANDSHAKE_S:.0f} s"
        message = getattr(exc, "message", str(exc))
        if isinstance(exc, errors.ProtocolVersionError):
            return f"the remote host speaks another protocol version ({message})"
        if isinstance(exc, errors.NotAuthenticated):
            hint = f"; set {RACP_TOKEN_ENV} to its token" if self.endpoint.kind == "unix" else ""
            return f"the remote host refused this host ({message}){hint}"
        return f"the remote host refused the handshake: {message}"

    async def call(self, method: Method[P, R], params: P, timeout: float = 30.0) -> R:
        """The remote's typed result or its error (the contract's typed exception);
        RemoteDown if the connection is gone or goes."""
        if self._ended:
            raise RemoteDown("the connection to the remote host is closed")
        try:
            return await self._client.request(method, params, timeout)
        except ConnectionLost as exc:
            raise RemoteDown(exc.message) from None
        except TimeoutError:
            raise RemoteDown(
                f"the remote host did not answer {method.name} within {timeout:.0f} s"
            ) from None

    def drop(self, reason: str) -> None:
        """End the connection for `reason`, reported as its loss (and as the error of
        what waits on it)."""
        self._end(reason)

    def close(self) -> None:
        """End the connection without reporting it lost."""
        self._ended = True
        self._teardown("closed by this host")

    # ---------------------------------------------------------------------------------

    def _peer_stranger(self) -> str | None:
        """Why the process at a `unix:` socket must not be given the token (it runs as
        another user than this host's, per the kernel's SO_PEERCRED), or None."""
        if self.endpoint.kind != "unix" or self._writer is None:
            return None
        sock = self._writer.get_extra_info("socket")
        try:
            raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        except (AttributeError, OSError):
            return None  # no such check on this system
        _pid, uid, _gid = struct.unpack("3i", raw)
        if uid in (os.getuid(), 0):
            return None
        return (
            f"the process at {self.endpoint.path} runs as another user (uid {uid}): "
            f"{RACP_TOKEN_ENV} is given only to a host of your own"
        )

    async def _connect(self) -> asyncio.StreamReader:
        if self.endpoint.kind == "unix":
            path = self.endpoint.path
            reader, writer = await asyncio.open_unix_connection(path, limit=READ_CHUNK)
            self._writer = writer
            return reader
        env = {k: v for k, v in os.environ.items() if k not in PRIVATE_ENV}
        command = ssh_command(self.endpoint)
        log.info("connecting: %s", shlex.join(command))
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            start_new_session=True,  # a Ctrl+C in the host's terminal is not ssh's
            limit=READ_CHUNK,
        )
        self._process = process
        assert process.stdin is not None and process.stdout is not None
        self._writer = process.stdin
        self._stderr_task = asyncio.ensure_future(self._read_stderr())
        return process.stdout

    async def _read(self, reader: asyncio.StreamReader) -> None:
        reason: str | None = None
        try:
            while not self._ended:
                data = await reader.read(READ_CHUNK)
                if not data:
                    break
                self._client.feed(data)
        except FramingError as exc:
            reason = f"the remote host sent an unreadable stream ({exc})"
        except (ConnectionError, OSError) as exc:
            reason = f"the connection to the remote host failed ({exc})"
        if not self._ended:
            self._end(reason or await self._lost_reason())

    async def _read_stderr(self) -> None:
        """ssh's own messages (and the remote host's stderr) go to the host log; the last
        line is the best reason to show when the connection ends."""
        process = self._process
        if process is None or process.stderr is None:
            return
        while True:
            line = await process.stderr.readline()
            if not line:
                return
            text = line.decode("utf-8", "replace").strip()
            if text:
                log.info("%s: %s", self.endpoint.label(), text[:1000])
                said = reason_in(text)
                if said:
                    self._stderr_tail = said[:300]

    async def _lost_reason(self) -> str:
        """Why the connection closed: for ssh, its last word once it has exited."""
        process = self._process
        if process is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 3.0)
            if self._stderr_task is not None:
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(self._stderr_task), 1.0)
            if self._stderr_tail:
                return self._stderr_tail
            if process.returncode not in (None, 0):
                return f"ssh exited with status {process.returncode}"
        if not self._greeted:
            return "the remote host closed the connection during the handshake"
        return "the remote host closed the connection"

    def _protocol_broken(self, what: str) -> None:
        log.warning("%s %s; disconnecting", self.endpoint.label(), what)
        self._end(f"the remote host {what}")

    def _send(self, data: bytes) -> None:
        if self._writer is None or self._writer.is_closing():
            raise ConnectionLost("the connection to the remote host is closed")
        self._writer.write(data)

    def _end(self, reason: str | None) -> None:
        """The connection is over; `reason` (if any) is reported once."""
        if self._ended:
            return
        self._ended = True
        self._end_reason = reason
        self._teardown(reason or "closed")
        if reason is not None:
            self._on_lost(reason)

    def _teardown(self, reason: str) -> None:
        self._client.close(reason)
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        if self._process is not None and self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._process.terminate()
        task = self._read_task
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    @staticmethod
    def _describe_os_error(exc: OSError) -> str:
        words = exc.strerror or str(exc)
        return f"cannot connect: {words}"
