"""A real OpenSSH server on 127.0.0.1, with throwaway host and client keys, for the
RACP-over-ssh tests. The test holds the listening socket itself (bound to port 0, so no
other program can take the port between choosing and listening) and hands each accepted
connection to `sshd -i`, OpenSSH's inetd mode: one sshd per connection. It needs root
(sshd's privilege separation) and the openssh-server package, which the test set-up
installs when run as root; otherwise the tests that use it are skipped with the reason."""

from __future__ import annotations

import contextlib
import getpass
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SSHD = "/usr/sbin/sshd"


@dataclass(frozen=True)
class SshServer:
    port: int
    user: str
    folder: Path
    client_key: Path
    known_hosts: Path

    def endpoint(self) -> str:
        return f"ssh://{self.user}@127.0.0.1:{self.port}"

    def ssh_command(self, key: Path | None = None) -> str:
        """What NIB_SSH_COMMAND holds for the host under test: only these keys and hosts."""
        return (
            f"ssh -F /dev/null -i {key or self.client_key} -o IdentitiesOnly=yes"
            f" -o UserKnownHostsFile={self.known_hosts} -o StrictHostKeyChecking=yes"
        )


def remote_command(data_dir: Path, **env: str) -> str:
    """The `nib-host --stdio` the ssh session runs: this interpreter, its own folder."""
    settings = " ".join(f"{k}={v}" for k, v in env.items())
    return f"env {settings} {sys.executable} -m host --stdio --data-dir {data_dir}".strip()


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
        check=True,
        capture_output=True,
    )


class _Inetd:
    """Accepts on `listener` and runs one `sshd -i` per connection until closed."""

    def __init__(self, listener: socket.socket, config: Path, log: Path) -> None:
        self._listener = listener
        self._command = [SSHD, "-i", "-e", "-f", str(config)]
        self._log = log
        self._children: list[subprocess.Popen[bytes]] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        with self._log.open("ab") as log:
            while True:
                try:
                    conn, _ = self._listener.accept()
                except OSError:  # closed: the server is done
                    return
                with conn:
                    child = subprocess.Popen(self._command, stdin=conn, stdout=conn, stderr=log)
                self._children.append(child)

    def close(self) -> None:
        self._listener.close()
        self._thread.join(10)
        for child in self._children:
            child.terminate()
        for child in self._children:
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(10)


@contextlib.contextmanager
def running_sshd(folder: Path) -> Iterator[SshServer]:
    if os.geteuid() != 0:
        pytest.skip("the ssh tests start a real sshd, which needs root")
    if not os.path.exists(SSHD) or shutil.which("ssh") is None:
        pytest.skip("the ssh tests need openssh-server and openssh-client installed")
    folder.mkdir(parents=True, exist_ok=True)
    host_key, client_key = folder / "host_key", folder / "client_key"
    _keygen(host_key)
    _keygen(client_key)
    authorized = folder / "authorized_keys"
    authorized.write_text(client_key.with_suffix(".pub").read_text())
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))  # held from here on: the port cannot be taken
    listener.listen(16)
    port = int(listener.getsockname()[1])
    known = folder / "known_hosts"
    known.write_text(f"[127.0.0.1]:{port} {host_key.with_suffix('.pub').read_text()}")
    config = folder / "sshd_config"
    config.write_text(
        f"HostKey {host_key}\nAuthorizedKeysFile {authorized}\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        "PubkeyAuthentication yes\nPermitRootLogin prohibit-password\n"
        "StrictModes no\nUsePAM no\nPrintMotd no\n"
    )
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # privilege separation
    check = subprocess.run([SSHD, "-t", "-f", str(config)], capture_output=True, text=True)
    if check.returncode != 0:
        listener.close()
        raise RuntimeError(f"sshd refused its configuration: {check.stderr.strip()}")
    server = _Inetd(listener, config, folder / "sshd.log")
    try:
        yield SshServer(port, getpass.getuser(), folder, client_key, known)
    finally:
        server.close()
