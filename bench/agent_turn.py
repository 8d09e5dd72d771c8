"""Agent turns through the real host process: demo turns (delay 0) of 5 and 20 steps,
and an `openai` turn against a loopback OpenAI-compatible server.

    python -m bench.agent_turn [--runs 5]

Prints wall time per turn and per TodoWrite, and the host's CPU time per turn (from
/proc), next to the floor of a bare `sessions.get` round trip measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness.fake_openai import Call, FakeOpenAI, Reply
from harness.host_process import host_env, running_host


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def numbered(n: int) -> str:
    return "\n".join(f"{i}. Carry out part {i} of the change" for i in range(1, n + 1))


def timed_turn(client, pid: int, text: str) -> tuple[float, float, int]:
    session = client.call("sessions.create", {})
    client.notifications.clear()
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    turn = client.call("turns.start", {"sessionId": session["id"], "text": text})
    end = client.wait_turn_end(turn["id"], timeout=120)
    wall, cpu = time.perf_counter() - t0, cpu_seconds(pid) - cpu0
    assert end["state"] == "completed", end
    writes = sum(1 for n in client.notifications if n["method"] == "todos.changed")
    return wall, cpu, writes


def report(label: str, rows: list[tuple[float, float, int]], floor: float) -> None:
    wall = statistics.median(r[0] for r in rows)
    cpu = statistics.median(r[1] for r in rows)
    writes = rows[0][2]
    print(
        f"{label:<22} {wall * 1e3:9.1f} ms/turn {wall / writes * 1e3:7.2f} ms/TodoWrite "
        f"({writes:2d} writes)  host CPU {cpu * 1e3:7.1f} ms  {wall / floor:7.0f}x a round trip"
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="nib-bench-"))
    with running_host(folder / "demo", str(folder / "s1"), host_env()) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        trips = []
        for _ in range(200):
            t0 = time.perf_counter()
            client.call("sessions.get", {"sessionId": session["id"]})
            trips.append(time.perf_counter() - t0)
        floor = statistics.median(trips)
        print(f"floor: sessions.get round trip {floor * 1e3:.3f} ms (median of 200)")
        for steps in (5, 20):
            rows = [timed_turn(client, host.proc.pid, numbered(steps)) for _ in range(args.runs)]
            report(f"demo, {steps} steps", rows, floor)

    fake = FakeOpenAI().start()
    try:
        env = host_env(NIB_PROVIDER="openai", NIB_OPENAI_BASE_URL=fake.base_url, NIB_MODEL="m")
        with running_host(folder / "openai", str(folder / "s2"), env) as host:
            client = host.connect()
            rows = []
            for _ in range(args.runs):
                todos = [{"content": f"Step {i}", "status": "pending"} for i in range(5)]
                fake.script += [Reply("Planning.", (Call("TodoWrite", {"todos": todos}),))]
                for i in range(5):
                    todos = [dict(t) for t in todos]
                    todos[i]["status"] = "completed"
                    fake.script.append(Reply("", (Call("TodoWrite", {"todos": todos}),)))
                fake.script.append(Reply("Done with all five steps."))
                rows.append(timed_turn(client, host.proc.pid, "five steps please"))
            report("openai (SSE), 5 steps", rows, floor)
    finally:
        fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
