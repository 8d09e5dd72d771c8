"""TodoWrite through validation, authorisation, the transaction and a notification
delivered to a socket client, next to the raw apsw floor measured in the same run.

    python -m bench.host_write [--writes 400]

Latency: one write, then wait until the client has read its todos.changed; each write
follows one of the floor's, so that the machine's drift (the disk's syncs above all)
weighs on both alike (until this session the floor's 400 writes came before the host's
400, and the floor's p50 alone moved from 0.25 to 0.73 ms between runs). Throughput:
writes back to back, until the client has read every notification. The writes are
awaited in one coroutine on the host's loop, as a turn awaits its tool calls (until
round 5 each write was a `run_until_complete` of its own: a task and a turn of the loop
that no write in the host pays, about 20 us of each figure).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.stats import percentile
from host.core import HostCore
from host.execution_path import ExecutionContext, ExecutionPath
from host.handlers import dispatcher
from host.protocol import methods as rpc, models as m
from host.protocol.todo_diff import diff_items
from host.server import RpcServer
from host.store.db import open_database
from host.todos.schema import TodoWriteArgs
from host.todos.service import DIFF_JSON, ITEMS_JSON

TOKEN = "bench"
TOLD_FROM = 10**6  # the revisions of the snapshots told with nothing written


def items(n: int, salt: int) -> list[dict]:
    return [
        {
            "content": f"Step {i} of the benchmark checklist, revision {salt}",
            "status": "in_progress"
            if i == salt % n
            else ("completed" if i < salt % n else "pending"),
            "activeForm": f"Working on step {i}",
        }
        for i in range(n)
    ]


class Floor:
    """The same rows and history on the same schema and pragmas in one transaction, with
    nothing around them (the history's JSON made before the clock starts)."""

    def __init__(self, folder: Path, n: int, writes: int, sync: str) -> None:
        self.db = open_database(folder)
        self.db.execute(f"PRAGMA synchronous = {sync}")
        self.db.execute(
            "INSERT INTO sessions (id, title, mode, origin, created_at, updated_at)"
            " VALUES ('x', 'floor', 'agent', 'local', 'now', 'now')"
        )
        self.n, self.revision = n, 0
        # the history rows hold the very bytes the host writes: its items and its diff
        # against the revision before (until round 5 the floor wrote an empty diff, a
        # smaller row than the host's, which flattered the floor)
        self.histories = []
        previous: tuple[m.TodoItem, ...] = ()
        for w in range(writes):
            listed = TodoWriteArgs.model_validate_json(json.dumps({"todos": items(n, w)})).todos
            self.histories.append(
                (
                    ITEMS_JSON.dump_json(tuple(listed)).decode(),
                    DIFF_JSON.dump_json(
                        diff_items(previous, tuple(listed)), by_alias=True
                    ).decode(),
                )
            )
            previous = tuple(listed)

    def write(self, w: int) -> float:
        """The write of salt `w`, timed."""
        db = self.db
        listed = items(self.n, w)
        rows = [("x", i, d["content"], d["activeForm"], d["status"]) for i, d in enumerate(listed)]
        self.revision += 1
        history = ("x", self.revision, "t", "now", *self.histories[w])
        t0 = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("DELETE FROM session_todo WHERE session_id = 'x'")
        db.executemany("INSERT INTO session_todo VALUES (?, ?, ?, ?, ?)", rows)
        db.execute(
            "UPDATE sessions SET todo_revision = todo_revision + 1, todo_updated_at = 'now'"
            " WHERE id = 'x'"
        )
        db.execute("INSERT INTO todo_revisions VALUES (?, ?, ?, ?, ?, ?)", history)
        db.execute(
            "DELETE FROM todo_revisions WHERE session_id = 'x' AND revision <= ?",
            (self.revision - 1000,),
        )
        db.execute("COMMIT")
        return time.perf_counter() - t0

    def rate(self, writes: int) -> float:
        """Writes a second, back to back."""
        start = time.perf_counter()
        for w in range(writes):
            self.write(w)
        return writes / (time.perf_counter() - start)

    def close(self) -> None:
        self.db.close()


# A separate client process, as the desktop is: it reads notifications off the socket
# and prints "revision monotonic-time" for each todos.changed.
CLIENT = """
import json, socket, sys, time
from host.protocol.framing import FrameDecoder, encode_message
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(sys.argv[1])
sock.sendall(encode_message({"jsonrpc": "2.0", "id": 1, "method": "host.hello",
    "params": {"token": sys.argv[2], "protocolVersion": 1, "client": "bench"}}))
decoder = FrameDecoder()
while True:
    data = sock.recv(1 << 20)
    if not data:
        break
    now = time.perf_counter()
    for body in decoder.feed(data):
        message = json.loads(body)
        if message.get("id") == 1:
            print("0 0", flush=True)
        elif message.get("method") == "todos.changed":
            print(message["params"]["revision"], now, flush=True)
"""


class Client:
    """Reads the client process's lines itself, in this thread, only when waiting for a
    revision: no thread of this process competes with the writes for the interpreter
    (until this session a worker thread waited on them, and its waking and the writes'
    took the interpreter from each other: 0.3-0.6 ms of each latency at 50 items)."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CLIENT, path, TOKEN],
            stdout=subprocess.PIPE,
            cwd=str(Path(__file__).resolve().parent.parent),
        )
        assert self.proc.stdout is not None
        self.fd = self.proc.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.pending = b""
        self.heard: dict[int, float] = {}  # revision: when the client read it

    def read(self) -> None:
        """The lines the client has written so far, without waiting."""
        try:
            data = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return
        if not data:
            raise RuntimeError("the client process ended")
        *lines, self.pending = (self.pending + data).split(b"\n")
        for line in lines:
            revision, at = line.split()
            self.heard[int(revision)] = float(at)

    async def arrive(self, expected: int, timeout: float = 10.0) -> float:
        """When the client read `expected`; the loop turns meanwhile (what the host left
        to the loop runs, and nothing of this process waits on another thread)."""
        deadline = time.monotonic() + timeout
        while expected not in self.heard:
            self.read()
            if time.monotonic() > deadline:
                raise RuntimeError(f"the client never read revision {expected}")
            await asyncio.sleep(0)
        return self.heard.pop(expected)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=400)
    parser.add_argument(
        "--synchronous",
        default="FULL",
        choices=["FULL", "NORMAL"],
        help="for comparison only: the host always writes with FULL",
    )
    args = parser.parse_args()
    loop = asyncio.new_event_loop()
    folder = Path(tempfile.mkdtemp(prefix="nib-bench-"))
    core = HostCore(folder / "data")
    core.db.execute(f"PRAGMA synchronous = {args.synchronous}")
    server = RpcServer(TOKEN, dispatcher(core))
    core.publisher.subscribe(server.broadcast, clients=True)
    sock_path = str(folder / "s")
    loop.run_until_complete(server.listen(sock_path))
    client = Client(sock_path)
    try:
        loop.run_until_complete(client.arrive(0))  # its hello answered
    except RuntimeError:
        print("client never authenticated", file=sys.stderr)
        return 1
    session = core.sessions.create(m.CreateSessionParams(title="bench"))
    turn, _ = core.sessions.turns.begin(session.id, "bench")
    ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
    revision = 0

    payloads: dict[tuple[int, int], str] = {}

    async def write(n: int, salt: int) -> None:
        # the arguments arrive as a model sends them: a JSON string, awaited on the
        # host's loop as a turn awaits its tool calls (no task or loop turn of its own)
        arguments = payloads[n, salt]
        result = await core.runtime.registry.execute(ctx, "TodoWrite", arguments)
        assert not result.is_error, result.content

    async def measure(
        n: int, revision: int, floor: Floor
    ) -> tuple[list[float], list[float], float]:
        """Latencies (to the client's reading), each write after one of the floor's, so
        that the machine's drift (the disk's syncs above all) weighs on both alike; then
        the rate of writes back to back."""
        latencies, floors = [], []
        for w in range(args.writes):
            floors.append(floor.write(w))
            t0 = time.perf_counter()
            await write(n, w)
            revision += 1
            latencies.append(await client.arrive(revision) - t0)
        start = time.perf_counter()
        for w in range(args.writes):
            await write(n, w)
        await client.arrive(revision + args.writes)
        return latencies, floors, args.writes / (time.perf_counter() - start)

    async def delivery(n: int, first: int) -> float:
        """p50 of a committed snapshot of `n` items told to the client with nothing written
        (encoding, the socket, the client's waking): in the latency, not in the floor."""
        listed = TodoWriteArgs.model_validate_json(payloads[n, 0]).todos
        times = []
        for k in range(args.writes):
            snapshot = m.TodoSnapshot(
                session_id=session.id, revision=first + k, updated_at="now", items=tuple(listed)
            )
            t0 = time.perf_counter()
            core.publisher.publish(rpc.TODOS_CHANGED, snapshot)
            times.append(await client.arrive(first + k) - t0)
        return percentile(times, 50)

    print(f"TodoWrite, {args.writes} writes per size, synchronous={args.synchronous}")
    print(
        f"{'items':>5} | {'p50 ms':>7} {'p99 ms':>7} {'writes/s':>9} | {'floor p50':>9} "
        f"{'floor p99':>9} {'floor/s':>8} | {'p50 ratio':>9} {'rate ratio':>10} | {'told p50':>9}"
    )
    for n in (10, 50, 200):
        payloads.update({(n, w): json.dumps({"todos": items(n, w)}) for w in range(args.writes)})
        floor = Floor(folder / f"floor-{n}", n, args.writes, args.synchronous)
        latencies, raw, rate = loop.run_until_complete(measure(n, revision, floor))
        raw_rate = floor.rate(args.writes)
        floor.close()
        revision += 2 * args.writes
        p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
        f50, f99 = percentile(raw, 50), percentile(raw, 99)
        told = loop.run_until_complete(delivery(n, TOLD_FROM * (n + 1)))
        print(
            f"{n:>5} | {p50 * 1e3:7.3f} {p99 * 1e3:7.3f} {rate:9.0f} | {f50 * 1e3:9.3f} "
            f"{f99 * 1e3:9.3f} {raw_rate:8.0f} | {p50 / f50:8.2f}x {rate / raw_rate:9.2f}x"
            f" | {told * 1e3:9.3f}"
        )
    print("targets: p50 <= 2x floor at 50 items; >= 2000 writes/s delivered over the socket")
    print(
        "told p50: the same snapshot told to the client with nothing written (its encoding,"
        " the socket, the client's waking): part of each latency, none of the floor's"
    )
    client.close()
    server.close()
    # the connection's task reads the client's end before the loop closes
    loop.run_until_complete(asyncio.wait(asyncio.all_tasks(loop), timeout=5))
    core.close()
    loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
