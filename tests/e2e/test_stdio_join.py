"""`nib-host --stdio` outlives its link and is joined by the next one (issue 51): two real
`nib-host --stdio` processes on one data folder, as ssh runs them on a remote machine,
each spoken to over its own standard input and output."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from harness.host_process import host_env
from host.protocol.framing import FrameDecoder, encode_message

ROOT = Path(__file__).resolve().parents[2]
PLAN = "Do these: 1. Read the code 2. Write the tests 3. Fix the bug"


class StdioClient:
    """One `nib-host --stdio` and the client at the other end of its pipes."""

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host", "--stdio", "--data-dir", str(data_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**host_env(**env), "NIB_HOST_TOKEN": ""},  # ssh let it in
            cwd=ROOT,
        )
        self._decoder = FrameDecoder()
        self._next = 0
        self.notifications: list[dict[str, Any]] = []
        self.answers: dict[int, dict[str, Any]] = {}

    def _read(self, until: float) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], max(0.0, until - time.monotonic()))
        if not ready:
            raise TimeoutError("the host said nothing in time")
        data = self.proc.stdout.read1(1 << 16)
        if not data:
            raise EOFError("the host closed its output")
        for body in self._decoder.feed(data):
            message = json.loads(body)
            if "method" in message:
                self.notifications.append(message)
            else:
                self.answers[message["id"]] = message

    def call(self, method: str, params: dict[str, Any], timeout: float = 30.0) -> Any:
        assert self.proc.stdin is not None
        self._next += 1
        ident = self._next
        self.proc.stdin.write(
            encode_message({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        )
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while ident not in self.answers:
            self._read(deadline)
        answer = self.answers.pop(ident)
        assert "error" not in answer, answer
        return answer["result"]

    def hello(self) -> Any:
        return self.call("host.hello", {"token": "", "protocolVersion": 1, "client": "test"})

    def wait(self, predicate: Any, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for note in self.notifications:
                if predicate(note):
                    return note
            self._read(deadline)

    def hang_up(self) -> None:
        """The link drops: this end's pipes close, as ssh's do."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def ended(self) -> int:
        """The host's exit code, once it ended by itself."""
        code = self.proc.wait(30)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        return code


def test_a_second_link_joins_the_host_still_running_the_turn(tmp_path: Path) -> None:
    data = tmp_path / "far"
    first = StdioClient(data, NIB_DEMO_STEP_DELAY_MS="1500")
    first.hello()
    session = first.call("sessions.create", {"title": "far"})
    turn = first.call("turns.start", {"sessionId": session["id"], "text": PLAN})
    first.wait(lambda n: n["method"] == "todos.changed")
    owner = (data / "host.lock").read_text()
    first.hang_up()  # the ssh link drops mid-turn

    second = StdioClient(data)
    hello = second.hello()
    assert "sessions" in hello["capabilities"]
    again = second.call("sessions.get", {"sessionId": session["id"]})
    assert again["runningTurnId"] == turn["id"]  # joined the host that runs it
    assert (data / "host.lock").read_text() == owner
    ended = second.wait(
        lambda n: (
            n["method"] == "turns.changed"
            and n["params"]["id"] == turn["id"]
            and n["params"]["state"] != "running"
        ),
        60,
    )
    assert ended["params"]["state"] == "completed"
    assert second.call("todos.get", {"sessionId": session["id"]})["revision"] >= 3

    # no turn left and no link left: the host stops, and takes its socket with it
    second.hang_up()
    assert second.ended() == 0 and first.ended() == 0
    assert not (data / "stdio.sock").exists() and not (data / "stdio.token").exists()
    third = StdioClient(data)  # the next link starts a host of its own
    third.hello()
    assert third.call("sessions.get", {"sessionId": session["id"]})["runningTurnId"] is None
    third.hang_up()
    assert third.ended() == 0


def test_nib_host_says_its_version_for_a_check_over_ssh() -> None:
    """`ssh user@host nib-host --version`: what the README asks a user to try first."""
    done = subprocess.run(
        [sys.executable, "-m", "host", "--version"],
        capture_output=True,
        text=True,
        env=host_env(),
        cwd=ROOT,
        timeout=30,
    )
    assert done.returncode == 0 and done.stdout.startswith("nib-host ")
    assert "protocol 1" in done.stdout
