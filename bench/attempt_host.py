"""What each run of an attempt adds to the host's memory (issue 50: target <= 5 MB a run,
the agent's own process not counted), on a real host process over its socket: the
scripted ACP agent (`harness/acp_agent.py`, a process of its own) tries one task in a
repository of `--files` files, `--runs` at a time, after a first attempt of two runs has
loaded what any attempt needs (the floor is the host's memory then).

    python -m bench.attempt_host [--runs 6] [--files 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.stats import rss_mb
from harness import ACP_AGENT
from harness.git_env import IDENTITY, git_env
from harness.host_process import RpcClient, host_env, running_host


def repository(root: Path, files: int) -> Path:
    root.mkdir(parents=True)
    for i in range(files):
        folder = root / f"d{i % 20}"
        folder.mkdir(exist_ok=True)
        (folder / f"f{i}.txt").write_text(f"file {i}\n" * 20)
    for args in (("init", "-q", "-b", "main"), ("add", "."), ("commit", "-qm", "first")):
        subprocess.run(["git", "-C", str(root), *args], env=git_env(), check=True)
    return root


def attempt(client: RpcClient, repo: Path, runs: int) -> None:
    started = client.call(
        "attempts.start", {"cwd": str(repo), "text": "plan", "agents": ["scripted"] * runs}
    )
    for session in started["sessions"]:
        ended = client.wait_turn_end(session["runningTurnId"], 120)
        assert ended["state"] == "completed", ended


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        repo = repository(folder / "repo", args.files)
        data = folder / "data"
        data.mkdir()
        entry = {"command": sys.executable, "args": [str(ACP_AGENT)], "env": {}}
        (data / "settings.json").write_text(json.dumps({"agents": {"scripted": entry}}))
        env = host_env(HOME=str(folder), GIT_CONFIG_GLOBAL=os.devnull, **IDENTITY)
        with running_host(data, str(folder / "h.sock"), env) as host:
            client = RpcClient(host.socket_path, timeout=120)
            client.hello()
            attempt(client, repo, 2)  # what any attempt needs, loaded
            client.notifications.clear()
            floor = rss_mb(host.proc.pid)
            attempt(client, repo, args.runs)
            after = rss_mb(host.proc.pid)
            client.close()
    per = (after - floor) / args.runs
    print(f"an attempt of {args.runs} runs in a repository of {args.files:,} files")
    print(f"  host memory {floor:.1f} MB after a first attempt, {after:.1f} MB after this one")
    print(f"  {per:.2f} MB a run (target <= 5 MB; the agents' own processes not counted)")


if __name__ == "__main__":
    main()
