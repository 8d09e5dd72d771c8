"""What a hostile ACP agent costs the host (issue 36), each figure beside the one the issue
measured before the fixes. The scripted agent (`harness/acp_agent.py`) plays the
agent; a second client asks `sessions.list` every 20 ms throughout (its longest wait is
the stall other clients see); the host's RSS is read before and after.

    python -m bench.peers

- 5,000 plans after the turn ended (point 10): transcript rows written, the other
  client's longest wait (the issue: 5,000 rows, stalls up to 531 ms);
- 16 updates of 1 MiB for a session whose `session/new` is never answered (point 11):
  host RSS (the issue: 40 -> 439 MB, held);
- 100,000 requests of an unknown method while the agent reads nothing (point 12): host
  RSS (the issue: 49 -> 375 MB);
- the host's first seconds and its first agent's start: the other client's longest wait
  (the ACP SDK, about 0.7 s of imports, is preloaded on a worker thread);
- a permission request titled with 4 MiB and an agent name of 4 MiB (point 8): the
  title and name as told, in characters (the issue: told whole, 4 MiB each).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from bench.reliability import with_health
from bench.stats import rss_mb
from harness import ACP_AGENT
from harness.host_process import RpcClient, host_env, running_host

AGENT = ACP_AGENT


def turn(client: RpcClient, sid: str, text: str, timeout: float = 120.0) -> dict[str, object]:
    started = client.call("turns.start", {"sessionId": sid, "text": text})
    return client.wait_turn_end(started["id"], timeout)


def scenario(
    folder: Path, name: str, flags: list[str], text: str, warm: bool = True
) -> tuple[float, float, float, RpcClient, str]:
    """The host's RSS once connected, after the turn (and a moment), the other client's
    longest wait; and the client and session, for what is read afterwards."""
    data = folder / name
    data.mkdir()
    agent = {"command": sys.executable, "args": [str(AGENT), *flags]}
    (data / "settings.json").write_text(json.dumps({"agents": {"scripted": agent}}))
    home = folder / f"{name}-home"
    home.mkdir()
    host = running_host(data, str(folder / f"{name}.sock"), host_env(HOME=str(home)))
    process = host.__enter__()
    client = process.connect()
    sid = client.call("sessions.create", {"agent": "scripted"})["id"]
    if warm:  # the agent started (and the SDK loaded) before what is measured
        assert turn(client, sid, "hello")["state"] == "completed"
    before = rss_mb(process.proc.pid)

    def work() -> None:
        if not warm:  # as a user would: a few seconds after the start (the SDK preloads)
            time.sleep(3.0)
        turn(client, sid, text)

    waits = with_health(process.socket_path, work)
    time.sleep(1.0)
    after = rss_mb(process.proc.pid)
    scenario.hosts.append(host)  # type: ignore[attr-defined]
    scenario.peak = rss_mb(process.proc.pid, "VmHWM")  # type: ignore[attr-defined]
    return before, after, max(waits or [0.0]), client, sid


scenario.hosts = []  # type: ignore[attr-defined]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        try:
            _b, _a, stall, client, sid = scenario(folder, "late", [], "lateflood")
            time.sleep(2.0)  # the flood after the turn's end
            listed = client.call("messages.list", {"sessionId": sid})["messages"]
            rows = sum(1 for m in listed if "after the turn ended" in m["content"])
            print(
                f"5,000 plans after the turn: {rows} transcript row (issue: 5,000); other "
                f"client's longest wait {stall * 1000:.0f} ms (issue: 531 ms)"
            )
            early = scenario(folder, "early", ["--early-flood"], "hello", warm=False)
            before, after = early[0], early[1]
            print(
                f"16 x 1 MiB early updates: host RSS {before:.0f} -> {after:.0f} MB "
                "(issue: 40 -> 439 MB)"
            )
            before, after, _s, _c, _i = scenario(
                folder, "dense", ["--early-dense"], "hello", warm=False
            )
            peak = scenario.peak  # type: ignore[attr-defined]
            print(
                f"3.6 MB of dense JSON held before session/new is answered: host peak RSS "
                f"{peak - before:+.0f} MB over its start (bound +150 MB; issue: +165-184 MB)"
            )
            before, after, _s, _c, _i = scenario(folder, "unknowns", [], "unknowns")
            print(
                f"100,000 unknown requests, nothing read: host RSS {before:.0f} -> "
                f"{after:.0f} MB (issue: 49 -> 375 MB)"
            )
            _b, _a, first, client, sid = scenario(
                folder, "huge", ["--huge-name"], "hello", warm=False
            )
            print(
                f"the host's first 3 s (the ACP SDK preloaded) and the first agent's start: "
                f"other client's longest wait {first * 1000:.0f} ms (loaded on the loop at "
                "the first turn: 543 ms)"
            )
            [agent] = client.call("agents.list", {})["agents"]
            print(
                f"a 4 MiB agent name told as {len(agent['agentInfo']['name'])} characters "
                "(issue: 4 MiB); the 4 MiB approval title is bounded the same way "
                "(tests/e2e/test_acp.py)"
            )
        finally:
            for host in scenario.hosts:  # type: ignore[attr-defined]
                host.__exit__(None, None, None)


if __name__ == "__main__":
    main()
