"""The real host process and a plain-socket JSON-RPC client, as an independent client
would use them: no Qt, only the contract's bytes."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.protocol.framing import FrameDecoder, encode_frame, encode_message

TOKEN = "test-token-1234"
READY_TIMEOUT = 20.0


class HostFailed(Exception):
    pass


@dataclass
class HostProcess:
    proc: subprocess.Popen[bytes]
    socket_path: str
    data_dir: Path
    ready: dict[str, Any]
    clients: list[RpcClient] = field(default_factory=list)
    stderr_lines: list[str] = field(default_factory=list)

    def drain_stderr(self) -> None:
        """Keep reading stderr so a chatty host never blocks on a full pipe."""

        def pump() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.stderr_lines.append(line.decode(errors="replace"))

        self._pump = threading.Thread(target=pump, daemon=True)
        self._pump.start()

    def connect(self, hello: bool = True) -> RpcClient:
        client = RpcClient(self.socket_path)
        self.clients.append(client)
        if hello:
            client.hello()
        return client

    def wait(self, timeout: float = 20.0) -> int:
        return self.proc.wait(timeout)

    def stop(self) -> None:
        for client in self.clients:
            client.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        pump = getattr(self, "_pump", None)
        if pump is not None:
            pump.join(10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def host_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    env.update({"NIB_HOST_TOKEN": TOKEN, "NIB_DEMO_STEP_DELAY_MS": "0"})
    env.update(extra)
    return env


def model_env(base_url: str, **extra: str) -> dict[str, str]:
    """A host whose agent is the `openai` provider at `base_url` (the scripted loopback
    endpoint in the tests)."""
    return host_env(
        NIB_PROVIDER="openai",
        NIB_OPENAI_BASE_URL=base_url,
        NIB_OPENAI_API_KEY="sk-secret-test-key",
        NIB_MODEL="test-model",
        **extra,
    )


def spawn(
    data_dir: Path,
    socket_path: str,
    env: dict[str, str] | None = None,
    args: list[str] | None = None,
) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "host", "--socket", socket_path, "--data-dir", str(data_dir)]
    return subprocess.Popen(
        command + (args or []),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env if env is not None else host_env(),
    )


def read_ready(proc: subprocess.Popen[bytes], timeout: float = READY_TIMEOUT) -> dict[str, Any]:
    """Wait for the ready line on stdout (bounded), or fail with the host's stderr."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise HostFailed("host did not become ready in time")
        readable, _, _ = select.select([proc.stdout], [], [], remaining)
        if not readable:
            continue
        chunk = os.read(proc.stdout.fileno(), 1)
        if not chunk:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise HostFailed(f"host exited ({proc.wait()}): {err}")
        line += chunk
    ready: dict[str, Any] = json.loads(line)
    return ready


@contextlib.contextmanager
def running_host(
    data_dir: Path, socket_path: str, env: dict[str, str] | None = None
) -> Iterator[HostProcess]:
    proc = spawn(data_dir, socket_path, env)
    host = HostProcess(proc, socket_path, data_dir, {})
    try:
        host.ready = read_ready(proc)
        host.drain_stderr()
        yield host
    finally:
        host.stop()


class RpcClient:
    """A blocking client on the Unix socket. `call` returns the result or raises
    RpcErrorReply; notifications received meanwhile are kept in `notifications`."""

    def __init__(self, path: str, timeout: float = 15.0) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(path)
        except OSError:
            self.sock.close()
            raise
        self.decoder = FrameDecoder()
        self.inbox: list[dict[str, Any]] = []
        self.notifications: list[dict[str, Any]] = []
        self.next_id = 1
        self.timeout = timeout

    def close(self) -> None:
        self.sock.close()

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(encode_message(message))

    def send_body(self, body: bytes) -> None:
        self.send_raw(encode_frame(body))

    def receive(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next message, or None if the host closed the connection."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while not self.inbox:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no message from the host")
            self.sock.settimeout(remaining)
            data = self.sock.recv(65536)
            if not data:
                return None
            self.inbox.extend(json.loads(body) for body in self.decoder.feed(data))
        return self.inbox.pop(0)

    def is_closed(self, timeout: float = 10.0) -> bool:
        """True once the host has closed the connection (all pending messages read)."""
        try:
            while True:
                message = self.receive(timeout)
                if message is None:
                    return True
        except TimeoutError:
            return False

    def request(self, method: str, params: Any = None) -> dict[str, Any]:
        """Send a request and return its raw response, keeping notifications aside."""
        request_id = self.next_id
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            reply = self.receive()
            if reply is None:
                raise ConnectionError(f"host closed the connection during {method}")
            if "method" in reply and "id" not in reply:
                self.notifications.append(reply)
                continue
            assert reply.get("id") == request_id, reply
            return reply

    def call(self, method: str, params: Any = None) -> Any:
        reply = self.request(method, params if params is not None else {})
        if "error" in reply:
            raise RpcErrorReply(reply["error"])
        return reply["result"]

    def hello(self, token: str = TOKEN) -> dict[str, Any]:
        result: dict[str, Any] = self.call(
            "host.hello", {"token": token, "protocolVersion": 1, "client": "tests"}
        )
        return result

    def wait_notification(
        self, predicate: Any, timeout: float = 15.0, keep: bool = False
    ) -> dict[str, Any]:
        """The first notification (already received or arriving) matching `predicate`;
        `keep`: left in `notifications`, so their order can be read afterwards."""
        deadline = time.monotonic() + timeout
        while True:
            for index, note in enumerate(self.notifications):
                if predicate(note):
                    return note if keep else self.notifications.pop(index)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("notification did not arrive")
            message = self.receive(remaining)
            if message is None:
                raise ConnectionError("host closed the connection")
            if "method" in message:
                self.notifications.append(message)

    def wait_turn_end(self, turn_id: str, timeout: float = 30.0) -> dict[str, Any]:
        note = self.wait_notification(
            lambda n: (
                n["method"] == "turns.changed"
                and n["params"]["id"] == turn_id
                and n["params"]["state"] != "running"
            ),
            timeout,
        )
        params: dict[str, Any] = note["params"]
        return params


class RpcErrorReply(Exception):
    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.code: int = error["code"]
        self.error = error
