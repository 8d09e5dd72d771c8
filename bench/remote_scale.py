"""Remote sessions at scale (issue 51): what a reconnect costs, and what each remote
session costs the local host.

    python -m bench.remote_scale [--sessions 50] [--steps 10]

- **Catching up**: a remote session's link drops (a relay cut), its host runs demo turns
  meanwhile (about 1,000 messages; the demo writes its checklist at every step, so some
  500 revisions rather than the issue's 50: only the newest is told), and the link comes
  back. Figure: from the relay accepting the new
  link (the retry's wait is not counted) to the local client having every missed
  message and the newest revision told. Floor, the same run, through the same relay: a
  fresh client of the remote host fetching the same transcript (`messages.list`, pages
  of 200) and the checklist's history (`todos.history`, pages of 100). Target <= 1.5x.
- **Memory**: the local host's resident memory with `--sessions` remote sessions
  attached (each linked, caught up, one turn's checklist told), over the same host with
  none, per session. Target <= 2 MB.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stats import rss_mb
from harness.host_process import RpcClient, host_env, running_host
from harness.relay import Relay

TOKEN = "bench-scale-token"


def demo_turns(client: RpcClient, session_id: str, turns: int, steps: int) -> None:
    plan = "\n".join(f"{i}. Step number {i}" for i in range(1, steps + 1))
    for _ in range(turns):
        turn = client.call("turns.start", {"sessionId": session_id, "text": plan})
        client.wait_turn_end(turn["id"], 120)


def fetch_fresh(client: RpcClient, session_id: str) -> tuple[int, int]:
    """The whole transcript and checklist history, as a client new to it reads them."""
    messages, before = 0, None
    while True:
        params: dict[str, Any] = {"sessionId": session_id, "limit": 200}
        if before is not None:
            params["beforeSeq"] = before
        page = client.call("messages.list", params)
        messages += len(page["messages"])
        if not page["hasMore"] or not page["messages"]:
            break
        before = page["messages"][0]["seq"]
    revisions, older = 0, None
    while True:
        asked: dict[str, Any] = {"sessionId": session_id, "limit": 100}
        if older is not None:
            asked["beforeRevision"] = older
        listed = client.call("todos.history", asked)
        revisions += len(listed["revisions"])
        if not listed["hasMore"] or not listed["revisions"]:
            break
        older = listed["revisions"][-1]["revision"]
    return messages, revisions


def catch_up(folder: Path, turns: int, steps: int) -> tuple[float, float, int, int]:
    relay = Relay(str(folder / "relay.sock"), str(folder / "far.sock"))
    far_env = host_env(NIB_HOST_TOKEN=TOKEN)
    with (
        running_host(folder / "far", str(folder / "far.sock"), far_env) as far,
        running_host(
            folder / "here", str(folder / "here.sock"), host_env(NIB_RACP_TOKEN=TOKEN)
        ) as here,
    ):
        relay.start()
        client = here.connect()
        endpoint = f"unix:{folder / 'relay.sock'}"
        session = client.call("sessions.create", {"remote": {"endpoint": endpoint}})
        remote_id = session["remote"]["remoteSessionId"]
        direct = far.connect(hello=False)
        direct.hello(TOKEN)
        relay.cut()
        client.wait_notification(
            lambda n: (
                n["method"] == "sessions.changed"
                and n["params"]["remote"]["state"] == "unreachable"
            ),
            30,
        )
        demo_turns(direct, remote_id, turns, steps)  # missed while the link is down
        newest = direct.call("todos.get", {"sessionId": remote_id})["revision"]
        last = direct.call("messages.list", {"sessionId": remote_id, "limit": 1})
        total, last_seq = last["total"], last["messages"][-1]["seq"]
        client.notifications.clear()
        relay.start()
        told_revision = told_message = False
        while not (told_revision and told_message):  # read as they come, each once
            note = client.receive(120)
            assert note is not None, "the local host went away"
            params = note.get("params") or {}
            if note.get("method") == "todos.changed":
                told_revision = told_revision or params["revision"] == newest
            elif note.get("method") == "messages.appended":
                told_message = told_message or params["message"]["seq"] == last_seq
        caught = time.monotonic() - relay.accepted[-1]
        fresh = RpcClient(str(folder / "relay.sock"))  # through the same relay
        fresh.hello(TOKEN)
        began = time.monotonic()
        fetch_fresh(fresh, remote_id)
        floor = time.monotonic() - began
        relay.cut()
        return caught, floor, total, newest


def memory(folder: Path, sessions: int) -> tuple[float, float]:
    far_env = host_env(NIB_HOST_TOKEN=TOKEN, NIB_DEMO_STEP_DELAY_MS="0")
    with (
        running_host(folder / "far2", str(folder / "far2.sock"), far_env) as far,
        running_host(
            folder / "here2", str(folder / "here2.sock"), host_env(NIB_RACP_TOKEN=TOKEN)
        ) as here,
    ):
        direct = far.connect(hello=False)
        direct.hello(TOKEN)
        ids = [direct.call("sessions.create", {"title": f"s{i}"})["id"] for i in range(sessions)]
        for remote_id in ids:
            demo_turns(direct, remote_id, 1, 5)
        client = here.connect()
        client.call("sessions.list", {})
        before = rss_mb(here.proc.pid)
        endpoint = f"unix:{folder / 'far2.sock'}"
        for remote_id in ids:
            target = {"endpoint": endpoint, "remoteSessionId": remote_id}
            session = client.call("sessions.create", {"remote": target})
            client.call("todos.get", {"sessionId": session["id"]})
        after = rss_mb(here.proc.pid)
        return before, after


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--turns", type=int, default=24, help="demo turns missed")
    parser.add_argument("--steps", type=int, default=10, help="steps of each turn's plan")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="nib-bench-", dir="/tmp"))
    caught, floor, messages, revisions = catch_up(folder, args.turns, args.steps)
    print(
        f"caught up {messages} messages and {revisions} revisions missed: {caught:.3f} s;"
        f" a fresh fetch of them {floor:.3f} s: {caught / floor:.2f}x (target <= 1.5x)"
    )
    before, after = memory(folder, args.sessions)
    per = (after - before) / args.sessions
    print(
        f"local host RSS {before:.1f} MB, with {args.sessions} remote sessions {after:.1f} MB:"
        f" {per:.2f} MB a session (target <= 2 MB)"
    )


if __name__ == "__main__":
    main()
