"""Claude Code and Codex on another machine (issue 51): the real agent runs under a remote
host (a second real host process with its own data folder and settings.json, over
`unix:` as a machine on the network would be reached), in a worktree of a real git
repository there; the local host's client sees its plan as the checklist, answers its
approval, reads its step's changes and merges its branch there. The model is the only
thing scripted (`ScriptedModels` on 127.0.0.1)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from harness import real_agents
from harness.agent_calls import AGENTS, plan_call, risky_call
from harness.fake_models import Reply, ScriptedModels
from harness.git_env import git_env
from harness.host_process import host_env, running_host
from tests.e2e.test_checkpoints import repository

pytestmark = [pytest.mark.timeout(180), pytest.mark.serial]
TOKEN = "far-token-4321"


@pytest.fixture(scope="module")
def bin_dir() -> Path:
    return real_agents.installed()


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], env=git_env(), check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_real_agent_on_a_remote_host_works_in_a_worktree_there(
    tmp_path: Path, bin_dir: Path, agent: str
) -> None:
    import tempfile

    short = Path(tempfile.mkdtemp(prefix="far-", dir="/tmp"))  # Unix socket paths are short
    repo = repository(tmp_path / "repo")
    far = tmp_path / "far-data"
    far.mkdir()
    with ScriptedModels() as models:
        entry = AGENTS[agent](bin_dir, tmp_path / f"{agent}-home", models.url)
        (far / "settings.json").write_text(json.dumps({"agents": {agent: entry}}))
        remote_env = host_env(NIB_HOST_TOKEN=TOKEN)
        local_env = host_env(NIB_RACP_TOKEN=TOKEN)
        with (
            running_host(far, str(short / "far.sock"), remote_env),
            running_host(tmp_path / "here", str(short / "here.sock"), local_env) as here,
        ):
            client = here.connect()
            endpoint = f"unix:{short / 'far.sock'}"
            listed = client.call("agents.list", {"remote": {"endpoint": endpoint}})["agents"]
            assert agent in [a["name"] for a in listed]
            session = client.call(
                "sessions.create",
                {
                    "remote": {"endpoint": endpoint},
                    "agent": agent,
                    "cwd": str(repo),
                    "worktree": {},
                },
            )
            sid, tree = session["id"], Path(session["worktree"]["path"])
            assert session["agent"] == agent and tree.is_dir()
            models.script = [
                Reply(calls=(plan_call(agent, "in_progress", "pending"),)),
                Reply(calls=(risky_call(agent, tree),)),
                Reply(calls=(plan_call(agent, "completed", "completed"),)),
                Reply("Made it."),
            ]
            turn = client.call("turns.start", {"sessionId": sid, "text": "Make a file"})
            asked = client.wait_notification(lambda n: n["method"] == "approvals.requested", 120)
            assert asked["params"]["sessionId"] == sid  # asked here, under the local id
            client.call(
                "approvals.respond",
                {"approvalId": asked["params"]["approvalId"], "decision": "allow_once"},
            )
            assert client.wait_turn_end(turn["id"], 120)["state"] == "completed"
            assert (tree / "made.txt").exists() and not (repo / "made.txt").exists()

            snapshot = client.call("todos.get", {"sessionId": sid})
            assert [(i["content"], i["status"]) for i in snapshot["items"]] == [
                ("Step 1", "completed"),
                ("Step 2", "completed"),
            ]
            step = client.call("changes.step", {"sessionId": sid, "content": "Step 1"})
            assert [f["path"] for f in step["files"]] == ["made.txt"]
            controls = client.call("agents.controls", {"sessionId": sid})
            assert controls["sessionId"] == sid and controls["modes"]["available"]
            client.call("worktrees.merge", {"sessionId": sid, "message": "Made a file"})
            assert git(repo, "log", "-1", "--format=%s") == "Made a file"
            assert git(repo, "ls-files", "made.txt") == "made.txt"  # merged by git there
