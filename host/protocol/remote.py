"""Remote endpoints (contract section 14): `ssh://[user@]host[:port]` or
`unix:/absolute/path`. One parser, used by the host to refuse a malformed endpoint
(-32602) and by the desktop to say what is wrong before anything is sent."""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

_HOST = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.\-]*[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]+\]$")
_USER = re.compile(r"^[A-Za-z0-9._][A-Za-z0-9._\-]*$")

EXAMPLES = "ssh://user@host:22 or unix:/path/to/socket"


class RemoteEndpoint(NamedTuple):
    kind: Literal["ssh", "unix"]
    host: str = ""
    user: str = ""
    port: int = 22
    path: str = ""

    def label(self) -> str:
        """Short and human: `user@host`, `host:2222` or the socket path."""
        if self.kind == "unix":
            return self.path
        who = f"{self.user}@{self.host}" if self.user else self.host
        return who if self.port == 22 else f"{who}:{self.port}"


def parse_endpoint(text: str) -> RemoteEndpoint:
    """The endpoint `text` names; ValueError saying what is wrong otherwise."""
    text = text.strip()
    if text.startswith("unix:"):
        path = text[len("unix:") :]
        if not path.startswith("/") or "\x00" in path or len(path) < 2:
            raise ValueError(f"a unix endpoint needs an absolute path, e.g. {EXAMPLES}")
        return RemoteEndpoint("unix", path=path)
    if not text.startswith("ssh://"):
        raise ValueError(f"not a remote endpoint: use {EXAMPLES}")
    rest = text[len("ssh://") :].rstrip("/")
    user, _, hostport = rest.rpartition("@")
    if "@" in rest and not _USER.match(user):
        raise ValueError(f"not a valid user name: {user!r}")
    host, port = hostport, 22
    if hostport.startswith("["):
        end = hostport.find("]")
        host, tail = hostport[: end + 1], hostport[end + 1 :]
        if tail:
            if not tail.startswith(":"):
                raise ValueError(f"not a remote endpoint: use {EXAMPLES}")
            port = _port(tail[1:])
    elif ":" in hostport:
        host, _, digits = hostport.partition(":")
        port = _port(digits)
    if not host or not _HOST.match(host):
        raise ValueError(f"not a valid host name: {host!r}")
    return RemoteEndpoint("ssh", host=host.strip("[]"), user=user, port=port)


def _port(digits: str) -> int:
    if not digits.isdigit() or not 0 < int(digits) < 65536:
        raise ValueError(f"not a valid port: {digits!r}")
    return int(digits)
