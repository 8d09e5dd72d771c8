"""ACP agents (contract section 15): how late an agent's plan reaches a client, how fast
real agents start, and what the host adds to their memory.

    python -m bench.acp [--steps 20] [--runs 3]

- Plan latency: the scripted agent (harness/acp_agent.py) sends `--steps` plan
  updates; each one's time on the agent's side just before it goes to its stdout, to the
  `todos.changed` of that revision at a client of the host. The floor, in the same run:
  the built-in runtime writing the same list with TodoWrite, from the scripted model
  endpoint's last byte of each answer to the same notification. p50 and p99 over all
  runs; the target is a ratio <= 1.5.
- Start (Codex, Claude Code; when the test set-up installed them in .cache): from
  `turns.start` to the agent's `ready` in `agents.changed` (process start and
  `initialize`) and to the first `todos.changed`.
- Memory: the host's RSS after start, then with both real agents running (the scripted
  agent when they are absent), and the agents' own process trees beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stats import percentile, rss_mb
from harness import ACP_AGENT, real_agents
from harness.fake_models import ScriptedModels
from harness.fake_openai import Call, FakeOpenAI, Reply
from harness.host_process import RpcClient, host_env, model_env, running_host

AGENT = ACP_AGENT


def arrivals(client: RpcClient, turn_id: str) -> dict[int, float]:
    """Each todos.changed revision's arrival (wall clock) until the turn ends."""
    got: dict[int, float] = {}
    while True:
        message = client.receive(120)
        assert message is not None
        if message.get("method") == "todos.changed":
            got[message["params"]["revision"]] = time.time()
        elif (
            message.get("method") == "turns.changed"
            and message["params"]["id"] == turn_id
            and message["params"]["state"] != "running"
        ):
            return got


def steps_list(n: int, done: int) -> list[dict[str, str]]:
    return [
        {
            "content": f"Step {i + 1}",
            "status": "completed" if i < done else "in_progress" if i == done else "pending",
        }
        for i in range(n)
    ]


def builtin_run(folder: Path, steps: int) -> list[float]:
    """The floor: the runtime's TodoWrite of the same lists, from the endpoint's answer."""
    server = FakeOpenAI().start()
    try:
        server.script = [
            Reply(calls=(Call("TodoWrite", {"todos": steps_list(steps, k)}),)) for k in range(steps)
        ] + [Reply("Done.")]
        with running_host(folder, str(folder / "h.sock"), model_env(server.base_url)) as host:
            client = host.connect()
            sid = client.call("sessions.create", {})["id"]
            turn = client.call("turns.start", {"sessionId": sid, "text": "go"})
            got = arrivals(client, turn["id"])
        return [got[k + 1] - server.sent_at[k] for k in range(steps) if k + 1 in got]
    finally:
        server.stop()


def acp_run(
    folder: Path,
    steps: int,
    cwd: Path | None = None,
    worktree: bool = False,
    warm: bool = False,
    turns: int = 1,
) -> list[float]:
    """Each plan update's latency; the session's folder `cwd` (the host's small home
    folder when None), in a new worktree of its repository when `worktree`. With `warm`,
    a first turn of the same plan runs unmeasured (the session's first checkpoint and
    agent start in it). Then `turns` measured turns, each started as the last ends."""
    times = folder / "times.json"
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(AGENT)], "env": {"BENCH_TIMES": str(times)}}
    (folder / "settings.json").write_text(json.dumps({"agents": {"scripted": entry}}))
    (folder / "home").mkdir(exist_ok=True)  # the sessions' folder, as checkpoints read it
    late: list[float] = []
    with running_host(folder, str(folder / "h.sock"), host_env(HOME=str(folder / "home"))) as host:
        client = host.connect()
        place: dict[str, Any] = {"cwd": str(cwd)} if cwd is not None else {}
        if worktree:
            place["worktree"] = {}
        sid = client.call("sessions.create", {"agent": "scripted", **place})["id"]
        if worktree:  # its files on disk, as a while later when its user types a prompt
            os.sync()
        before = 0
        if warm:
            turn = client.call("turns.start", {"sessionId": sid, "text": f"bench {steps}"})
            before = max(arrivals(client, turn["id"]), default=0)
        for _ in range(turns):
            turn = client.call("turns.start", {"sessionId": sid, "text": f"bench {steps}"})
            got = arrivals(client, turn["id"])
            sent = json.loads(times.read_text())  # written by the agent before its turn ends
            late += [got[before + k + 1] - sent[k] for k in range(steps) if before + k + 1 in got]
            before = max(got, default=before)
    return late


def tree_rss(pid: int) -> float:
    """The RSS of a process and all its descendants, MB."""
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        try:
            total += rss_mb(current)
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo += [int(c) for c in children.read().split()]
        except OSError:
            continue
    return total


def real_start(folder: Path) -> None:
    """Start to ready and to the first plan for each real agent; then the memory."""
    bin_dir = real_agents.CACHE / "node_modules" / ".bin"
    present = (bin_dir / "codex-acp").exists() and (bin_dir / "claude-agent-acp").exists()
    with ScriptedModels() as models:
        if present:
            entries = {
                "codex": real_agents.codex(bin_dir, folder / "codex-home", models.url),
                "claude": real_agents.claude(bin_dir, folder / "claude-home", models.url),
            }
        else:
            print("real agents: not installed (run the tests once); the scripted agent only")
            entries = {"scripted": {"command": sys.executable, "args": [str(AGENT)]}}
        data = folder / "real"
        data.mkdir(parents=True)
        (data / "settings.json").write_text(json.dumps({"agents": entries}))
        from harness.agent_calls import plan_call

        with running_host(data, str(folder / "r.sock"), host_env()) as host:
            client = host.connect()
            host_before = rss_mb(host.proc.pid)
            print(f"host RSS after start: {host_before:.1f} MB")
            for name in entries:
                if name != "scripted":
                    models.script = [
                        Reply(calls=(plan_call(name, "in_progress", "pending"),)),
                        Reply("ok"),
                    ]
                sid = client.call("sessions.create", {"agent": name, "cwd": str(folder)})["id"]
                started = time.monotonic()
                text = "plan" if name == "scripted" else "Two steps"
                turn = client.call("turns.start", {"sessionId": sid, "text": text})
                ready = first = None
                while first is None or ready is None:
                    message = client.receive(120)
                    assert message is not None
                    method, params = message.get("method"), message.get("params", {})
                    if method == "agents.changed" and ready is None:
                        states = {a["name"]: a["state"] for a in params["agents"]}
                        if states.get(name) == "ready":
                            ready = time.monotonic() - started
                    elif method == "todos.changed" and first is None:
                        first = time.monotonic() - started
                client.wait_turn_end(turn["id"], 120)
                print(
                    f"{name}: start to initialize answered {ready * 1000:.0f} ms, "
                    f"to the first plan {first * 1000:.0f} ms"
                )
            host_rss = rss_mb(host.proc.pid)
            agents_rss = tree_rss(host.proc.pid) - host_rss
            print(
                f"host RSS with {len(entries)} agents running: {host_rss:.1f} MB "
                f"(+{host_rss - host_before:.1f} MB over its start; the agents' own "
                f"processes: {agents_rss:.1f} MB)"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    floor: list[float] = []
    agent: list[float] = []
    with tempfile.TemporaryDirectory(prefix="nib-bench-acp-") as tmp:
        root = Path(tmp)
        for run in range(args.runs):
            floor += builtin_run(root / f"builtin{run}", args.steps)
            agent += acp_run(root / f"acp{run}", args.steps)
        ms: dict[str, Any] = {}
        for label, values in (("built-in TodoWrite (floor)", floor), ("ACP agent plan", agent)):
            ms[label] = (percentile(values, 50) * 1000, percentile(values, 99) * 1000)
            p50, p99 = ms[label]
            print(f"{label}: p50 {p50:.2f} ms, p99 {p99:.2f} ms ({len(values)} revisions)")
        (f50, f99), (a50, a99) = ms.values()
        print(f"ratio (target <= 1.5): p50 {a50 / f50:.2f}x, p99 {a99 / f99:.2f}x")
        real_start(root)


if __name__ == "__main__":
    main()
