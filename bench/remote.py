"""Remote sessions (RACP): how late a remote checklist write reaches a client.

    python -m bench.remote [--turns 3] [--steps 20]

A host runs demo turns (each step a TodoWrite, 20 ms apart). For every revision the
figure is its arrival at a client minus its commit time (the snapshot's `updatedAt`, in
milliseconds, same clock: all on this machine), p50 and p99:

- the local path (the floor): a client connected to the host that commits;
- the remote path over `unix:`: a client of a second host that links to the first;
- the remote path over ssh to 127.0.0.1: the second host reaches `nib-host --stdio`
  through a real sshd (needs root to start sshd; skipped otherwise).

Then the re-link: the remote host stops, stays down for 3, 10 and 20 s (long enough for
a doubling back-off to reach 8-16 s), and starts again; the figure is the time from its
listening again to the local host saying the session is connected (target: 1 s).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.stats import percentile
from harness.host_process import HostProcess, RpcClient, host_env, running_host

TOKEN = "bench-remote-token"


def arrivals(client: RpcClient, out: dict[int, float]) -> None:
    """Arrival time (wall clock) of each todos.changed revision until a turn ended."""
    while True:
        message = client.receive(120)
        if message is None:
            return
        if message.get("method") == "todos.changed":
            out[message["params"]["revision"]] = time.time()
        elif message.get("method") == "turns.changed" and message["params"]["state"] != "running":
            return


def since_commit(
    starter: RpcClient, session_id: str, listeners: list[tuple[RpcClient, str]], steps: int
) -> list[list[float]]:
    """One demo turn started by `starter`; for each listener (a client and the id it knows
    the session by), each revision's arrival minus its commit time."""
    got: list[dict[int, float]] = [{} for _ in listeners]
    threads = [
        threading.Thread(target=arrivals, args=(client, out))
        for (client, _sid), out in zip(listeners, got, strict=True)
    ]
    for thread in threads:
        thread.start()
    plan = "\n".join(f"{i}. Step number {i}" for i in range(1, steps + 1))
    starter.send(
        {
            "jsonrpc": "2.0",
            "id": 10**6,
            "method": "turns.start",
            "params": {"sessionId": session_id, "text": plan},
        }
    )
    for thread in threads:
        thread.join(120)
    client, sid = listeners[-1]
    # the listener threads are done with the sockets: asking is safe again
    history = client.call("todos.history", {"sessionId": sid, "limit": 100})
    committed = {r["revision"]: _seconds(r["createdAt"]) for r in history["revisions"]}
    return [[at - committed[rev] for rev, at in out.items() if rev in committed] for out in got]


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


@contextmanager
def two_hosts(
    folder: Path, ssh_env: dict[str, str] | None = None
) -> Iterator[tuple[HostProcess, HostProcess]]:
    with ExitStack() as stack:
        remote = stack.enter_context(
            running_host(
                folder / "remote",
                str(folder / "r.sock"),
                host_env(NIB_HOST_TOKEN=TOKEN, NIB_DEMO_STEP_DELAY_MS="20"),
            )
        )
        env = host_env(NIB_RACP_TOKEN=TOKEN, **(ssh_env or {}))
        local = stack.enter_context(running_host(folder / "local", str(folder / "l.sock"), env))
        yield remote, local


def relink(folder: Path, down_s: float) -> float:
    """Seconds from a restarted remote host listening to its session linked again."""
    sock = str(folder / "r.sock")
    remote_env = host_env(NIB_HOST_TOKEN=TOKEN)
    local_env = host_env(NIB_RACP_TOKEN=TOKEN)
    with running_host(folder / "local", str(folder / "l.sock"), local_env) as local:
        client = local.connect()
        with running_host(folder / "remote", sock, remote_env):
            session = client.call("sessions.create", {"remote": {"endpoint": f"unix:{sock}"}})

        def state_is(state: str) -> Callable[[dict[str, Any]], bool]:
            return lambda n: (
                n["method"] == "sessions.changed"
                and n["params"]["id"] == session["id"]
                and n["params"]["remote"]["state"] == state
            )

        client.wait_notification(state_is("unreachable"), 30)
        time.sleep(down_s)  # down: the local host keeps trying meanwhile
        client.notifications.clear()
        with running_host(folder / "remote", sock, remote_env):
            back = time.monotonic()  # running_host returns once the host listens
            client.wait_notification(state_is("connected"), 60)
            return time.monotonic() - back


def line(label: str, values: list[float], floor: float | None = None) -> float:
    p50, p99 = percentile(values, 50) * 1000, percentile(values, 99) * 1000
    ratio = f"  {p50 / floor:.2f}x the local path" if floor else ""
    print(f"{label:<34} n={len(values):<4} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms{ratio}")
    return p50


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="nib-bench-", dir="/tmp"))
    print("todos.changed, commit (updatedAt, ms resolution) to the client's socket")
    near: list[float] = []
    via_unix: list[float] = []
    via_ssh: list[float] = []
    try:
        with two_hosts(folder / "unix") as (remote, local):
            direct = remote.connect(hello=False)
            direct.hello(TOKEN)
            client = local.connect()
            endpoint = f"unix:{remote.socket_path}"
            session = client.call("sessions.create", {"remote": {"endpoint": endpoint}})
            rid = session["remote"]["remoteSessionId"]
            for _ in range(args.turns):
                a, b = since_commit(
                    direct, rid, [(client, session["id"]), (direct, rid)], args.steps
                )
                via_unix += a
                near += b
        try:
            import pytest

            from harness.sshd import remote_command, running_sshd

            with running_sshd(folder / "sshd") as server:
                far = folder / "far"
                ssh_env = {
                    "NIB_SSH_COMMAND": server.ssh_command(),
                    "NIB_REMOTE_HOST_COMMAND": remote_command(far, NIB_DEMO_STEP_DELAY_MS="20"),
                }
                with two_hosts(folder / "ssh", ssh_env) as (_remote, local):
                    client = local.connect()
                    endpoint = server.endpoint()
                    session = client.call("sessions.create", {"remote": {"endpoint": endpoint}})
                    for _ in range(args.turns):
                        via_ssh += since_commit(
                            client, session["id"], [(client, session["id"])], args.steps
                        )[0]
        except pytest.skip.Exception as skipped:
            print(f"over ssh: skipped ({skipped})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    floor = line("local path (a client of the host)", near)
    line("remote path over unix:", via_unix, floor)
    if via_ssh:
        line("remote path over ssh to 127.0.0.1", via_ssh, floor)
    print("re-link after the remote host restarts (target <= 1.0 s)")
    for down_s in (3.0, 10.0, 20.0):
        folder = Path(tempfile.mkdtemp(prefix="nib-bench-", dir="/tmp"))
        try:
            print(f"  down {down_s:4.0f} s: linked {relink(folder, down_s):.2f} s after it listens")
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
