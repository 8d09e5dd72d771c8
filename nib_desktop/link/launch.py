"""The host's process started, without Qt: the app starts it before it imports PySide6,
so that the host boots while the window's process loads Qt and draws (about 75 ms sooner
than a QProcess could, which needs the application object).

From source the host is `python -m host`; frozen, the same executable with `--host`. A
fresh random token goes through the environment, the socket lives in a private folder,
and the host's stdin stays open so that it exits with the app.
"""

from __future__ import annotations

import base64
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from host.protocol.appinfo import TOKEN_ENV

if TYPE_CHECKING:
    import subprocess

Command = tuple[str, list[str]]


def host_command() -> Command:
    if getattr(sys, "frozen", False):
        return sys.executable, ["--host"]
    return sys.executable, ["-m", "host"]


class Launch:
    """What a window needs to start and reach its host: a token, a private folder for
    the socket; and the process, once `start` made it."""

    def __init__(self) -> None:
        # 32 random bytes, as secrets.token_urlsafe(32) (whose hmac import loads OpenSSL)
        self.token = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
        self.folder = tempfile.TemporaryDirectory(prefix="nib-")
        os.chmod(self.folder.name, 0o700)
        self.socket_path = str(Path(self.folder.name) / "host.sock")
        self._early: subprocess.Popen[bytes] | OSError | None = None  # made by `begin`

    def start(self, command: Command, data_dir: Path) -> subprocess.Popen[bytes]:
        """A host process on `data_dir`, its three streams piped; OSError if it cannot
        be started."""
        import subprocess

        program, args = command
        env = {**os.environ, TOKEN_ENV: self.token, "PYTHONUNBUFFERED": "1"}
        return subprocess.Popen(
            [program, *args, "--socket", self.socket_path, "--data-dir", str(data_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )

    def begin(self, data_dir: Path) -> None:
        """Start the host now, with the app's own command; the supervisor takes it over
        later (`take_early`), and is told then if it could not be started."""
        try:
            self._early = self.start(host_command(), data_dir)
        except OSError as exc:
            self._early = exc

    def take_early(self) -> subprocess.Popen[bytes] | None:
        """The process `begin` started, once (None without one); the OSError it met."""
        early, self._early = self._early, None
        if isinstance(early, OSError):
            raise early
        return early
