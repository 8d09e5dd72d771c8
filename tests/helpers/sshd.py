"""A real OpenSSH server on 127.0.0.1 on a free high port, with throwaway host and client
keys, for the RACP-over-ssh tests. It needs root (sshd's privilege separation) and the
openssh-server package, which the test set-up installs when run as root; otherwise the
tests that use it are skipped with the reason."""

from __future__ import annotations

import contextlib
import getpass
import os
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
        check=True,
        capture_output=True,
    )


def _wait_listening(process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    """Until sshd says it listens (its -e log on stderr), then the rest goes to `log`."""
    assert process.stderr is not None
    stream = process.stderr
    deadline = time.monotonic() + timeout
    seen = b""
    while b"Server listening" not in seen:
        remaining = deadline - time.monotonic()
        readable, _, _ = select.select([stream], [], [], max(0.0, remaining))
        if not readable:
            raise RuntimeError(f"sshd did not listen in time: {seen.decode(errors='replace')}")
        chunk = os.read(stream.fileno(), 4096)
        if not chunk:
            raise RuntimeError(f"sshd exited: {seen.decode(errors='replace')}")
        seen += chunk

    def drain() -> None:
        with stream, log.open("ab") as out:
            out.write(seen)
            for line in stream:
                out.write(line)

    threading.Thread(target=drain, daemon=True).start()


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
    port = _free_port()
    known = folder / "known_hosts"
    known.write_text(f"[127.0.0.1]:{port} {host_key.with_suffix('.pub').read_text()}")
    config = folder / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {host_key}\n"
        f"PidFile {folder / 'sshd.pid'}\nAuthorizedKeysFile {authorized}\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        "PubkeyAuthentication yes\nPermitRootLogin prohibit-password\n"
        "StrictModes no\nUsePAM no\nPrintMotd no\n"
    )
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # privilege separation
    process = subprocess.Popen(
        [SSHD, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    try:
        _wait_listening(process, folder / "sshd.log", 15.0)
        yield SshServer(port, getpass.getuser(), folder, client_key, known)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
