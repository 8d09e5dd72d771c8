"""One task, several agents (contract section 18, second half), through the real host
process and socket: the scripted ACP agent and the host's own agent each run the task in
a worktree of one real repository from one base commit; their runs are told, checked,
compared, and one is kept."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from harness.host_process import RpcClient, RpcErrorReply
from tests.e2e.test_acp import agent_host
from tests.e2e.test_worktrees import git, repository

CHECK = [
    sys.executable,
    "-c",
    "import os; print('token:', os.environ.get('NIB_HOST_TOKEN', 'none'));"
    " print('app:', open('app.py').read().strip()); raise SystemExit(0)",
]


def settled(client: RpcClient, attempt_id: str) -> dict[str, Any]:
    """The attempt once every run's turn ended and its check ran."""

    def done(note: dict[str, Any]) -> bool:
        told = note["params"]
        return (
            note["method"] == "attempts.changed"
            and told["attemptId"] == attempt_id
            and all(r["turn"] and r["turn"]["state"] != "running" for r in told["sessions"])
            and all(r["check"]["state"] in ("passed", "failed", "error") for r in told["sessions"])
        )

    client.wait_notification(done, 60, keep=True)
    attempt: dict[str, Any] = client.call("attempts.get", {"attemptId": attempt_id})
    return attempt


def test_one_task_two_agents_compared_and_one_kept(tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo")
    head = git(repo, "rev-parse", "HEAD")
    with agent_host(tmp_path) as (_host, client):
        started = client.call(
            "attempts.start",
            {
                "cwd": str(repo),
                "text": "demo: 2 steps",
                "agents": ["scripted", "nib"],
                "check": CHECK,
            },
        )
        attempt_id = started["attemptId"]
        runs = started["sessions"]
        assert [s["agent"] for s in runs] == ["scripted", "nib"]
        assert all(s["attemptId"] == attempt_id for s in runs)
        trees = [s["worktree"] for s in runs]
        assert {t["baseCommit"] for t in trees} == {head} and trees[0]["path"] != trees[1]["path"]

        attempt = settled(client, attempt_id)
        assert (attempt["cwd"], attempt["base"], attempt["baseCommit"]) == (str(repo), "main", head)
        by_agent = {r["agent"]: r for r in attempt["sessions"]}
        todos = by_agent["nib"]["todos"]
        assert todos["total"] > 0 and todos["completed"] == todos["total"]
        for run in attempt["sessions"]:
            assert run["turn"]["state"] == "completed" and run["durationMs"] is not None
            check = run["check"]
            assert check["state"] == "passed" and check["exitCode"] == 0, check
            # run in its worktree, without the host's token
            assert "token: none" in check["output"] and "app: def main():" in check["output"]
        assert [a["attemptId"] for a in client.call("attempts.list", {})["attempts"]] == [
            attempt_id
        ]

        a, b = (s["id"] for s in runs)
        (Path(trees[0]["path"]) / "app.py").write_text("print('a')\n")  # run a's own work
        (Path(trees[1]["path"]) / "app.py").write_text("print('b')\n")  # and b's, uncommitted
        past = time.time() - 60  # (git trusts what each reading wrote of it, so hashes it once)
        for run_tree, run in zip(trees, (a, b), strict=True):
            os.utime(Path(run_tree["path"]) / "app.py", (past, past))
            for _ in range(2):  # the second reading starts from the first's index
                client.call("worktrees.status", {"sessionId": run})
        compared = client.call("attempts.compare", {"attemptId": attempt_id, "a": a, "b": b})
        assert [(f["path"], f["status"]) for f in compared["files"]] == [("app.py", "modified")]
        assert "-print('a')\n+print('b')" in compared["files"][0]["diff"]

        # keep one: the other is removed
        client.call("worktrees.remove", {"sessionId": b, "force": True})
        assert not Path(trees[1]["path"]).exists()
        assert client.call("sessions.get", {"sessionId": a})["worktree"]["state"] == "active"


def test_an_unknown_agent_makes_nothing(tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo")
    with agent_host(tmp_path) as (_host, client):
        cases: list[tuple[dict[str, Any], str]] = [
            ({"agents": ["scripted", "ghost"]}, "ghost"),
            ({"agents": ["nib"]}, "invalid params"),
            ({"agents": ["nib", "nib"], "cwd": str(tmp_path)}, "not inside a git work tree"),
        ]
        for extra, words in cases:
            params = {"cwd": str(repo), "text": "task", **extra}
            with pytest.raises(RpcErrorReply) as error:
                client.call("attempts.start", params)
            assert error.value.code == -32602 and words in str(error.value), params
        assert client.call("sessions.list", {})["sessions"] == []
        assert git(repo, "worktree", "list").count("\n") == 0
        with pytest.raises(RpcErrorReply) as error:
            client.call("attempts.get", {"attemptId": "nothing"})
        assert error.value.code == -32602
