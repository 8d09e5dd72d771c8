"""Real Claude Code and Codex each in a worktree of its own of one repository, at the same
time (contract section 18, issue 49), through the real host process, each offline against
its own `ScriptedModels` on 127.0.0.1: neither touches the other's files nor the user's
checkout; then one is merged into the checkout's branch and the other removed."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness import real_agents
from harness.agent_calls import AGENTS, plan_call, risky_call
from harness.fake_models import Hold, Reply, ScriptedModels
from harness.git_env import IDENTITY
from harness.host_process import HostProcess, RpcClient, host_env, running_host
from tests.e2e.test_real_agents import bin_dir
from tests.e2e.test_worktrees import git, repository

__all__ = ["bin_dir"]  # the module's fixture, used here by name

pytestmark = [pytest.mark.timeout(300), pytest.mark.serial]


def script(agent: str, work: Path) -> list[Reply]:
    """A three-step plan, one file made in `work` (asked first), the plan done."""
    return [
        Reply(calls=(plan_call(agent, "in_progress", "pending", "pending"),)),
        Reply(calls=(risky_call(agent, work),)),
        Reply(calls=(plan_call(agent, "completed", "completed", "completed"),)),
        Reply("Done."),
    ]


def run_all(
    client: RpcClient, turns: set[str], timeout: float = 180.0, host: HostProcess | None = None
) -> dict[str, Any]:
    """Every approval asked meanwhile allowed once, until each of `turns` has ended: the
    turns as they ended. A wait that ends with none of them told names those still
    running, and the host's last lines."""
    ended: dict[str, Any] = {}
    while set(ended) != turns:
        try:
            note = client.receive(timeout)
        except TimeoutError:
            said = "".join(host.stderr_lines[-60:]) if host is not None else ""
            raise AssertionError(
                f"nothing from the host in {timeout:g} s; still running: {turns - set(ended)}"
                f"\nthe host's last lines:\n{said}"
            ) from None
        assert note is not None, f"the turns did not end: {turns - set(ended)}"
        params = note.get("params", {})
        if note.get("method") == "approvals.requested":
            client.call(
                "approvals.respond", {"approvalId": params["approvalId"], "decision": "allow_once"}
            )
        elif note.get("method") == "turns.changed" and params.get("id") in turns:
            ended.update({params["id"]: params} if params["state"] != "running" else {})
    return ended


@contextlib.contextmanager
def two_agents(
    tmp_path: Path, bin_dir: Path
) -> Iterator[tuple[RpcClient, ScriptedModels, ScriptedModels]]:
    with ScriptedModels() as claude, ScriptedModels() as codex:
        data = tmp_path / "data"
        data.mkdir()
        agents = {
            "claude": AGENTS["claude"](bin_dir, tmp_path / "claude-home", claude.url),
            "codex": AGENTS["codex"](bin_dir, tmp_path / "codex-home", codex.url),
        }
        (data / "settings.json").write_text(json.dumps({"agents": agents}))
        traces = tmp_path / "traces"
        env = host_env(
            NIB_ACP_TRACE=str(traces),
            GIT_CONFIG_GLOBAL=os.devnull,
            GIT_CONFIG_NOSYSTEM="1",
            **IDENTITY,
        )
        with running_host(data, str(tmp_path / "h.sock"), env) as host:
            try:
                yield host.connect(), claude, codex
            except BaseException:
                print(real_agents.told(traces, claude), real_agents.told(traces, codex))
                raise


def test_two_real_agents_in_worktrees_of_one_repository(tmp_path: Path, bin_dir: Path) -> None:
    repo = repository(tmp_path / "repo")
    checkout = sorted(
        p.relative_to(repo).as_posix() for p in repo.rglob("*") if ".git" not in p.parts
    )
    with two_agents(tmp_path, bin_dir) as (client, claude_models, codex_models):
        sessions = {
            agent: client.call(
                "sessions.create", {"agent": agent, "cwd": str(repo), "worktree": {}}
            )
            for agent in ("claude", "codex")
        }
        places = {agent: Path(s["cwd"]) for agent, s in sessions.items()}
        assert places["claude"] != places["codex"] and repo not in places["claude"].parents
        claude_models.script = script("claude", places["claude"])
        codex_models.script = script("codex", places["codex"])
        turns = {
            client.call("turns.start", {"sessionId": s["id"], "text": "Do three steps"})["id"]
            for s in sessions.values()
        }
        ended = run_all(client, turns)
        assert all(t["state"] == "completed" for t in ended.values()), ended
        for agent, session in sessions.items():
            assert (places[agent] / "made.txt").exists(), agent
            todos = client.call("todos.get", {"sessionId": session["id"]})
            assert [i["status"] for i in todos["items"]] == ["completed"] * 3, agent
            status = client.call("worktrees.status", {"sessionId": session["id"]})
            assert [f["path"] for f in status["files"]] == ["made.txt"], agent
        # neither touched the user's checkout
        assert not (repo / "made.txt").exists()
        assert checkout == sorted(
            p.relative_to(repo).as_posix() for p in repo.rglob("*") if ".git" not in p.parts
        )
        merged = client.call(
            "worktrees.merge", {"sessionId": sessions["claude"]["id"], "message": "Claude's file"}
        )
        assert git(repo, "rev-parse", "HEAD") == merged["commit"]
        assert git(repo, "log", "-1", "--format=%s") == "Claude's file"
        assert (repo / "made.txt").read_text() == "made\n"
        removed = client.call(
            "worktrees.remove", {"sessionId": sessions["codex"]["id"], "force": True}
        )
        assert removed["removed"] == str(places["codex"]) and not places["codex"].exists()
        branches = git(repo, "branch", "--format=%(refname:short)").split()
        assert sessions["codex"]["worktree"]["branch"] not in branches


def test_one_task_tried_by_three_real_agents(tmp_path: Path, bin_dir: Path) -> None:
    """Issue 50: Claude Code, Codex and Gemini CLI in one attempt, three worktrees from
    one base commit; Claude's and Codex's plans their checklists (Gemini CLI shares none);
    two runs' files compared; Claude's kept and merged, the others removed; the checkout
    untouched until the merge."""
    repo = repository(tmp_path / "repo")
    names = ("claude", "codex", "gemini")
    with contextlib.ExitStack() as stack:
        models = {agent: stack.enter_context(ScriptedModels()) for agent in names}
        data = tmp_path / "data"
        data.mkdir()
        agents = {a: AGENTS[a](bin_dir, tmp_path / f"{a}-home", models[a].url) for a in names}
        (data / "settings.json").write_text(json.dumps({"agents": agents}))
        env = host_env(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", **IDENTITY)
        # each first request waits until the worktrees (and so the paths) are known
        holds = {agent: Hold() for agent in names}
        for agent in names:
            models[agent].script = [holds[agent]]
        with running_host(data, str(tmp_path / "h.sock"), env) as host:
            client = host.connect()
            started = client.call(
                "attempts.start",
                {"cwd": str(repo), "text": "Make the file", "agents": list(names)},
            )
            runs = {s["agent"]: s for s in started["sessions"]}
            assert {Path(s["worktree"]["baseCommit"]) for s in runs.values()} == {
                Path(git(repo, "rev-parse", "HEAD"))
            }
            for agent, session in runs.items():
                steps = script(agent, Path(session["cwd"]))
                if agent == "gemini":  # it has no plan tool: the file, then its word
                    steps = [steps[1], steps[3]]
                holds[agent].then = steps[0]
                models[agent].script.extend(steps[1:])
                holds[agent].release.set()
            turns = {s["runningTurnId"] for s in runs.values()}
            ended = run_all(client, turns, 240, host)
            assert all(t["state"] == "completed" for t in ended.values()), ended
            for agent in ("claude", "codex"):
                todos = client.call("todos.get", {"sessionId": runs[agent]["id"]})
                assert [i["status"] for i in todos["items"]] == ["completed"] * 3, agent
            assert client.call("todos.get", {"sessionId": runs["gemini"]["id"]})["revision"] == 0
            assert not (repo / "made.txt").exists()
            compared = client.call(
                "attempts.compare",
                {
                    "attemptId": started["attemptId"],
                    "a": runs["claude"]["id"],
                    "b": runs["codex"]["id"],
                },
            )
            assert [f["path"] for f in compared["files"]] == ["made.txt"]  # "made" and empty
            client.call("worktrees.merge", {"sessionId": runs["claude"]["id"]})
            assert (repo / "made.txt").read_text() == "made\n"
            for agent in ("codex", "gemini"):
                client.call("worktrees.remove", {"sessionId": runs[agent]["id"], "force": True})
                assert not Path(runs[agent]["cwd"]).exists()
