"""The real agents, turn after turn, under load: do their turns ever hang?

    python -m bench.agents_soak [--turns 50] [--load 2] [--agents codex,claude,gemini]

For each real agent (installed by the tests' set-up into `.cache/acp-agents`), one host
process and one session run `--turns` turns in a row against the scripted model endpoint,
while `--load` processes keep the machine's cores busy (the suite runs two workers).
A turn is: the agent's plan (Codex and Claude Code; Gemini CLI shares none), every fifth
turn a call the agent asks permission for (allowed), then its answer. A turn not ended
within DEADLINE_S is a hang: the ACP traffic of both sides (`NIB_ACP_TRACE`) and the
model's requests are written to `soak-<agent>-hang-<n>.txt` in the current folder.

Prints per agent: turns, hangs, turn time p50 / p99 / max, and the floor: the same turn's
time on the scripted ACP agent in the same run (`harness/acp_agent.py`, no model).
Target: 0 hangs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stats import percentile
from harness import ACP_AGENT, real_agents
from harness.agent_calls import AGENTS, plan_call, risky_call
from harness.fake_models import Reply, ScriptedModels
from harness.host_process import RpcClient, host_env, running_host

DEADLINE_S = 120.0
AGENT = ACP_AGENT


def burn() -> None:
    while True:
        pass


def turn(client: RpcClient, sid: str, text: str) -> dict[str, Any]:
    """One turn to its end, approving what the agent asks; raises TimeoutError on a hang."""
    turn_id = client.call("turns.start", {"sessionId": sid, "text": text})["id"]
    deadline = time.monotonic() + DEADLINE_S
    while True:
        note = client.wait_notification(
            lambda n: (
                (n["method"] == "approvals.requested")
                or (
                    n["method"] == "turns.changed"
                    and n["params"]["id"] == turn_id
                    and n["params"]["state"] != "running"
                )
            ),
            max(0.1, deadline - time.monotonic()),
        )
        if note["method"] == "turns.changed":
            params: dict[str, Any] = note["params"]
            return params
        client.call(
            "approvals.respond",
            {"approvalId": note["params"]["approvalId"], "decision": "allow_once"},
        )


def soak(agent: str, folder: Path, turns: int) -> tuple[list[float], int, list[str]]:
    """Turn times, hangs and other ends (not completed) of one agent's `turns` turns; the
    model requests the agent sent again are among the other ends."""
    traces = folder / f"{agent}-traces"
    times: list[float] = []
    hangs, other = 0, []
    with ScriptedModels() as models:
        data = folder / f"{agent}-data"
        data.mkdir()
        work = folder / f"{agent}-work"
        work.mkdir()
        if agent == "scripted":
            entry: dict[str, Any] = {"command": sys.executable, "args": [str(AGENT)]}
        else:
            bin_dir = real_agents.installed()
            entry = AGENTS[agent](bin_dir, folder / f"{agent}-home", models.url)
        (data / "settings.json").write_text(json.dumps({"agents": {agent: entry}}))
        env = host_env(NIB_ACP_TRACE=str(traces))
        with running_host(data, str(folder / f"{agent}.sock"), env) as host:
            client = host.connect()
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(work)})["id"]
            for n in range(turns):
                script: list[Reply] = []
                if agent not in ("gemini", "scripted"):
                    script.append(Reply(calls=(plan_call(agent, "in_progress", "pending"),)))
                if n % 5 == 4 and agent != "scripted":
                    (work / "made.txt").unlink(missing_ok=True)
                    script.append(Reply(calls=(risky_call(agent, work),)))
                if agent not in ("gemini", "scripted"):
                    script.append(Reply(calls=(plan_call(agent, "completed", "completed"),)))
                script.append(Reply(f"Turn {n + 1} done."))
                models.script = script
                started = time.monotonic()
                try:
                    ended = turn(client, sid, "plan" if agent == "scripted" else f"Turn {n + 1}")
                except TimeoutError:
                    hangs += 1
                    told = real_agents.told(traces, models, lines=200)
                    Path(f"soak-{agent}-hang-{hangs}.txt").write_text(told)
                    print(f"  {agent} turn {n + 1}: no end within {DEADLINE_S:g} s", flush=True)
                    client.call("turns.cancel", {"sessionId": sid})
                    continue
                times.append(time.monotonic() - started)
                if ended["state"] != "completed":
                    other.append(f"turn {n + 1}: {ended['state']} {ended.get('error')}")
            if models.retries:
                other.append(f"{models.retries} model requests sent again (answered again)")
    return times, hangs, other


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--load", type=int, default=2)
    parser.add_argument("--agents", default="codex,claude,gemini")
    args = parser.parse_args()
    burners = [multiprocessing.Process(target=burn, daemon=True) for _ in range(args.load)]
    for burner in burners:
        burner.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            floor, _, _ = soak("scripted", Path(tmp), min(args.turns, 20))
            base = percentile(floor, 50)
            print(
                f"floor, the scripted ACP agent: p50 {base * 1000:.0f} ms, "
                f"p99 {percentile(floor, 99) * 1000:.0f} ms ({len(floor)} turns, "
                f"{args.load} cores kept busy)",
                flush=True,
            )
            for agent in args.agents.split(","):
                times, hangs, other = soak(agent, Path(tmp), args.turns)
                p50, p99 = percentile(times, 50), percentile(times, 99)
                print(
                    f"{agent}: {len(times) + hangs} turns, {hangs} hangs (target 0), "
                    f"p50 {p50:.1f} s ({p50 / base:.1f}x the floor), p99 {p99:.1f} s, "
                    f"max {max(times):.1f} s",
                    flush=True,
                )
                for line in other:
                    print(f"  {line}")
    finally:
        for burner in burners:
            burner.terminate()


if __name__ == "__main__":
    main()
