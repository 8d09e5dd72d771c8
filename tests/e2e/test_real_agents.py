"""Codex, Claude Code and Gemini CLI, the real agents, in Nib sessions through the real host process
(contract section 15). Each runs offline against `ScriptedModels` on 127.0.0.1, the
model being the only thing scripted. Installed by the test set-up (see real_agents)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import real_agents
from harness.agent_calls import AGENTS, plan_call, risky_call
from harness.fake_models import Call, Hold, Reply, ScriptedModels
from harness.host_process import HostProcess, RpcClient, host_env, running_host

# a real agent's start and each model round trip are slow on a loaded machine
# serial: alone, after the parallel part of the suite (two real agents at once, here and
# in the window's tests, interfered with each other's sessions)
pytestmark = [pytest.mark.timeout(180), pytest.mark.serial]


@pytest.fixture(scope="module")
def bin_dir() -> Path:
    return real_agents.installed()


@contextlib.contextmanager
def agent_host(
    tmp_path: Path, bin_dir: Path, agent: str, models: ScriptedModels
) -> Iterator[tuple[HostProcess, RpcClient]]:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    entry = AGENTS[agent](bin_dir, tmp_path / f"{agent}-home", models.url)
    (data / "settings.json").write_text(json.dumps({"agents": {agent: entry}}))
    traces = tmp_path / "traces"  # both sides of the ACP traffic, told when a test fails
    with running_host(data, str(tmp_path / "h.sock"), host_env(NIB_ACP_TRACE=str(traces))) as host:
        try:
            yield host, host.connect()
        except BaseException:
            print(real_agents.told(traces, models))
            raise


def start(client: RpcClient, sid: str, text: str) -> str:
    turn_id: str = client.call("turns.start", {"sessionId": sid, "text": text})["id"]
    return turn_id


@pytest.mark.parametrize("agent", ["codex", "claude"])
def test_a_three_step_plan_is_the_checklist(tmp_path: Path, bin_dir: Path, agent: str) -> None:
    with ScriptedModels() as models:
        models.script = [
            Reply(calls=(plan_call(agent, "in_progress", "pending", "pending"),)),
            Reply(calls=(plan_call(agent, "completed", "in_progress", "pending"),)),
            Reply(calls=(plan_call(agent, "completed", "completed", "completed"),)),
            Reply("All three steps are done."),
        ]
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            work = tmp_path / "work"
            work.mkdir()
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(work)})["id"]
            ended = client.wait_turn_end(start(client, sid, "Do three steps"), 60)
            assert ended["state"] == "completed", ended
            snapshot = client.call("todos.get", {"sessionId": sid})
            assert snapshot["revision"] == 3
            assert [(i["content"], i["status"]) for i in snapshot["items"]] == [
                ("Step 1", "completed"),
                ("Step 2", "completed"),
                ("Step 3", "completed"),
            ]
            history = client.call("todos.history", {"sessionId": sid})["revisions"]
            assert [r["revision"] for r in history] == [3, 2, 1]
            assert history[-1]["diff"]["added"] == ["Step 1", "Step 2", "Step 3"]
            listed = client.call("messages.list", {"sessionId": sid})["messages"]
            assert [m["todo"]["revision"] for m in listed if m["kind"] == "plan"] == [1, 2, 3]
            assert listed[-1]["content"] == "All three steps are done."
            info = client.call("agents.list", {})["agents"][0]
            assert info["state"] == "ready" and info["agentInfo"]["name"]
            # contract 17: what the real agent offers to steer the session, and a mode set
            controls = client.call("agents.controls", {"sessionId": sid})
            modes = controls["modes"]
            assert modes["current"] in [x["id"] for x in modes["available"]]
            assert any(o["id"] == "model" for o in controls["options"]), controls["options"]
            assert controls["prompt"]["image"] and controls["usage"]["used"] > 0
            if agent == "codex":
                assert "review" in [c["name"] for c in controls["commands"]]
            other = next(x["id"] for x in modes["available"] if x["id"] != modes["current"])
            chosen = client.call("agents.setMode", {"sessionId": sid, "modeId": other})
            assert chosen["modes"]["current"] == other


@pytest.mark.parametrize("agent", ["codex", "claude", "gemini"])
@pytest.mark.parametrize("decision", ["allow_once", "deny"])
def test_a_permission_request_is_an_approval(
    tmp_path: Path, bin_dir: Path, agent: str, decision: str
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    with ScriptedModels() as models:
        models.script = [Reply(calls=(risky_call(agent, work),)), Reply("Finished.")]
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(work)})["id"]
            turn_id = start(client, sid, "Make a file")
            asked = client.wait_notification(lambda n: n["method"] == "approvals.requested", 120)
            assert asked["params"]["turnId"] == turn_id
            assert "made" in asked["params"]["tool"] + asked["params"]["arguments"]
            client.call(
                "approvals.respond",
                {"approvalId": asked["params"]["approvalId"], "decision": decision},
            )
            # Codex's only refusal is "abort", which ends its turn
            ends = "cancelled" if (agent, decision) == ("codex", "deny") else "completed"
            assert client.wait_turn_end(turn_id, 120)["state"] == ends
            assert (work / "made.txt").exists() == (decision == "allow_once")
            # every denial leaves a line naming what was denied: the agent's own result
            # for the call, else the host's (Codex just ends its turn)
            listed = client.call("messages.list", {"sessionId": sid})["messages"]
            failed = [
                m
                for m in listed
                if m["role"] == "tool" and m["isError"] and m["toolCallId"] and m["kind"] is None
            ]
            assert bool(failed) == (decision == "deny"), failed
            if agent == "codex" and decision == "deny":
                assert failed[0]["content"].startswith("Denied: you did not allow")


@pytest.mark.parametrize("agent", ["codex", "claude"])
def test_stop_reaches_the_agent(tmp_path: Path, bin_dir: Path, agent: str) -> None:
    with ScriptedModels() as models:
        hold = Hold()
        models.script = [Reply(calls=(plan_call(agent, "in_progress", "pending"),)), hold]
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(tmp_path)})["id"]
            turn_id = start(client, sid, "Two steps, slowly")
            assert hold.started.wait(60), [
                (r.get("model"), len(r.get("tools") or []), str(r)[:200]) for r in models.requests
            ]
            stopped = client.call("turns.cancel", {"sessionId": sid, "turnId": turn_id})
            assert stopped["state"] == "cancelled"
            assert hold.dropped.wait(20), "the agent kept its model request after Stop"
            assert client.call("todos.get", {"sessionId": sid})["revision"] == 1
            models.script = [Reply("Still here.")]
            ended = client.wait_turn_end(start(client, sid, "Go on"), 60)
            assert ended["state"] == "completed"


@pytest.mark.parametrize("agent", ["codex", "claude"])
def test_a_restart_of_nib_hands_the_unfinished_list_back(
    tmp_path: Path, bin_dir: Path, agent: str
) -> None:
    with ScriptedModels() as models:
        models.script = [
            Reply(calls=(plan_call(agent, "completed", "in_progress", "pending"),)),
            Reply("Pausing here."),
        ]
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(tmp_path)})["id"]
            assert client.wait_turn_end(start(client, sid, "Three steps"), 120)["state"] == (
                "completed"
            )
        asked = len(models.requests)
        models.script = [Reply("Going on with step 2.")]
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            ended = client.wait_turn_end(start(client, sid, "Go on"), 60)
            assert ended["state"] == "completed", ended
            after = [json.dumps(r) for r in models.requests[asked:] if r.get("tools")]
            assert after and "Step 2" in after[0] and "Step 3" in after[0]
            assert "Go on" in after[0]
            assert client.call("todos.get", {"sessionId": sid})["revision"] == 1


@pytest.mark.parametrize("agent", ["codex", "claude"])
def test_a_fork_keeps_what_the_agent_knew(tmp_path: Path, bin_dir: Path, agent: str) -> None:
    """Issue 35: a fork's first request to the model holds the parent's conversation,
    by the agent's own session/fork where it offers it, else carried in the prompt; the
    fork's transcript says which."""
    with ScriptedModels() as models:
        models.script = [Reply("Noted: the word is pelican."), Reply("It was pelican.")]
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(tmp_path)})["id"]
            ended = client.wait_turn_end(start(client, sid, "Remember the word pelican"), 120)
            assert ended["state"] == "completed", ended
            fork = client.call("sessions.fork", {"sessionId": sid})["id"]
            asked = len(models.requests)
            ended = client.wait_turn_end(start(client, fork, "What was the word?"), 120)
            assert ended["state"] == "completed", ended
            first = next(json.dumps(r) for r in models.requests[asked:] if r.get("tools"))
            assert "Remember the word pelican" in first and "What was the word?" in first
            listed = client.call("messages.list", {"sessionId": fork})["messages"]
            said = [x["content"] for x in listed if x["content"].startswith("Forked: ")]
            assert len(said) == 1, said
            assert listed[-1]["content"] == "It was pelican."
            parent = client.call("messages.list", {"sessionId": sid})["messages"]
            assert not any(x["content"].startswith("Forked: ") for x in parent)


def test_gemini_runs_turns_and_shares_no_plan(tmp_path: Path, bin_dir: Path) -> None:
    """Gemini CLI sends no plan at all: its turns run, the checklist stays at revision 0
    (the window says the agent shares none)."""
    with ScriptedModels() as models:
        models.script = [Reply("Hello from the scripted Gemini.")]
        with agent_host(tmp_path, bin_dir, "gemini", models) as (_host, client):
            sid = client.call("sessions.create", {"agent": "gemini", "cwd": str(tmp_path)})["id"]
            ended = client.wait_turn_end(start(client, sid, "Say hello"), 60)
            assert ended["state"] == "completed", ended
            listed = client.call("messages.list", {"sessionId": sid})["messages"]
            assert listed[-1]["content"] == "Hello from the scripted Gemini."
            assert client.call("todos.get", {"sessionId": sid})["revision"] == 0
            info = client.call("agents.list", {})["agents"][0]["agentInfo"]
            assert info == {"name": "gemini-cli", "version": "0.61.0"}


def step_calls(agent: str, work: Path) -> list[list[Call]]:
    """A three-step plan's work as the agent's model calls it, each step's calls one by
    one: edit a file (Claude Code reads it first, as it must), add one, and run a command
    that changes a third."""
    change = "import pathlib; pathlib.Path('data.txt').write_text('changed\\n')"
    if agent == "codex":
        edit = "*** Begin Patch\n*** Update File: app.py\n@@\n-print(1)\n+print(2)\n*** End Patch\n"
        add = "*** Begin Patch\n*** Add File: new.txt\n+a new file\n*** End Patch\n"
        return [
            [Call("exec_command", {"cmd": f"apply_patch <<'EOF'\n{edit}EOF\n"})],
            [Call("exec_command", {"cmd": f"apply_patch <<'EOF'\n{add}EOF\n"})],
            [Call("exec_command", {"cmd": f'python3 -c "{change}"'})],
        ]
    app = str(work / "app.py")
    edit = {"file_path": app, "old_string": "print(1)", "new_string": "print(2)"}
    return [
        [Call("Read", {"file_path": app}), Call("Edit", edit)],
        [Call("Write", {"file_path": str(work / "new.txt"), "content": "a new file\n"})],
        [Call("Bash", {"command": f'python3 -c "{change}"', "description": "Change data"})],
    ]


def git_state(repo: Path) -> dict[str, bytes]:
    """Every file of a repository's .git, by path: byte for byte."""
    return {
        str(p.relative_to(repo)): p.read_bytes() for p in (repo / ".git").rglob("*") if p.is_file()
    }


@pytest.mark.parametrize("agent", ["codex", "claude"])
def test_each_step_keeps_its_changes_and_the_transcript_shows_them(
    tmp_path: Path, bin_dir: Path, agent: str
) -> None:
    """Contract 16 with a real agent in a real git repository: each checklist step's
    changes name exactly its files (an edit, a new file, a command's change), a restore
    brings the folder back and is undone, the repository's .git is untouched; the
    transcript holds each tool call with what it did (the edit's diff, the command), and
    the answer, streamed in pieces without newlines, reaches the client as deltas that
    add up to the stored message."""
    import subprocess

    work = tmp_path / "work"
    work.mkdir()
    (work / "app.py").write_text("print(1)\n")
    (work / "data.txt").write_text("original\n")
    (work / ".gitignore").write_text("*.log\n")
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"],
    ):
        subprocess.run(["git", *args], cwd=work, check=True)
    before = git_state(work)
    answer = "## Done\n\nAll **three** steps are done:\n\n1. edited\n2. added\n3. ran\n" * 3
    calls = step_calls(agent, work)
    with ScriptedModels() as models:
        plans = [
            ("in_progress", "pending", "pending"),
            ("completed", "in_progress", "pending"),
            ("completed", "completed", "in_progress"),
        ]
        models.script = []
        for statuses, step in zip(plans, calls, strict=True):
            models.script.append(Reply(calls=(plan_call(agent, *statuses),)))
            models.script += [Reply(calls=(call,)) for call in step]
        models.script += [
            Reply(calls=(plan_call(agent, "completed", "completed", "completed"),)),
            Reply(answer, pieces=12, pace_s=0.05),
        ]
        if agent == "claude":  # its edits and commands allowed by its own settings
            home = tmp_path / "claude-home" / ".claude"
            home.mkdir(parents=True)
            (home / "settings.json").write_text(
                json.dumps({"permissions": {"allow": ["Edit", "Write", "Bash"]}})
            )
        with agent_host(tmp_path, bin_dir, agent, models) as (_host, client):
            config = tmp_path / "codex-home" / "config.toml"
            if agent == "codex":  # its sandbox needs bubblewrap: full access, with approvals
                config.write_text('sandbox_mode = "danger-full-access"\n' + config.read_text())
            sid = client.call("sessions.create", {"agent": agent, "cwd": str(work)})["id"]
            turn_id = start(client, sid, "Do three steps")
            deltas: list[str] = []
            while True:  # every approval allowed; the streamed text kept
                told = client.wait_notification(
                    lambda n: (
                        n["method"] in ("approvals.requested", "messages.delta", "turns.changed")
                    ),
                    120,
                )
                params = told["params"]
                if told["method"] == "approvals.requested":
                    client.call(
                        "approvals.respond",
                        {"approvalId": params["approvalId"], "decision": "allow_once"},
                    )
                elif told["method"] == "messages.delta" and params["kind"] == "text":
                    deltas.append(params["text"])
                elif params["id"] == turn_id and params["state"] not in ("running", "idle"):
                    break
            assert params["state"] == "completed", (params, models.requests[-1:])
            outputs = [
                i
                for r in models.requests
                for i in r.get("input") or []
                if isinstance(i, dict) and "output" in i
            ]
            assert (work / "app.py").read_text() == "print(2)\n", json.dumps(outputs)[:3000]
            assert (work / "new.txt").read_text() == "a new file\n"
            assert (work / "data.txt").read_text() == "changed\n"
            # the transcript: each call's result carries what it did
            listed = client.call("messages.list", {"sessionId": sid})["messages"]
            done = [
                m["activity"]
                for m in listed
                if m["role"] == "tool" and m.get("activity") and m["kind"] != "plan"
            ]
            diffs = {d["path"].rsplit("/", 1)[-1]: d for a in done for d in a["diffs"]}
            # (the file whole, or the part it replaced: as the agent tells it)
            assert "print(1)" in diffs["app.py"]["oldText"], diffs
            assert "print(2)" in diffs["app.py"]["newText"]
            assert diffs["new.txt"]["newText"] == "a new file\n"
            ran = {
                c["id"]
                for m in listed
                for c in m["toolCalls"]
                if "python3" in c["name"] + c["arguments"]
            }
            results = [m for m in listed if m["role"] == "tool" and m["toolCallId"] in ran]
            assert results and results[-1]["activity"]["status"] == "completed", listed
            stored = [m["content"] for m in listed if m["role"] == "assistant" and m["content"]]
            assert len(deltas) > 3 and "".join(deltas).strip() == answer.strip()
            assert stored[-1] == "".join(deltas)  # what streamed is what is kept
            assert client.call("messages.list", {"sessionId": sid})["messages"] == listed
            # each step's changes (contract 16)
            steps = {}
            for step in ("Step 1", "Step 2", "Step 3"):
                change = client.call("changes.step", {"sessionId": sid, "content": step})
                steps[step] = sorted(f["path"] for f in change["files"])
            assert steps == {"Step 1": ["app.py"], "Step 2": ["new.txt"], "Step 3": ["data.txt"]}
            first = client.call("changes.step", {"sessionId": sid, "content": "Step 1"})
            back = {"sessionId": sid, "checkpointId": first["from"]["id"]}
            restored = client.call("changes.restore", back)
            assert sorted(restored["restored"]) == ["app.py", "data.txt", "new.txt"]
            assert (work / "app.py").read_text() == "print(1)\n" and not (work / "new.txt").exists()
            assert (work / "data.txt").read_text() == "original\n"
            undo = {"sessionId": sid, "checkpointId": restored["checkpoint"]["id"]}
            client.call("changes.restore", undo)
            assert (work / "new.txt").read_text() == "a new file\n"
            assert (work / "data.txt").read_text() == "changed\n"
            # a file attached with the message reaches the agent's model (contract 17)
            models.script = [Reply("Seen.")]
            asked = len(models.requests)
            attached = {
                "sessionId": sid,
                "text": "Look at this file",
                "attachments": [{"type": "file", "path": "new.txt"}],
            }
            turned = client.call("turns.start", attached)
            assert client.wait_turn_end(turned["id"], 120)["state"] == "completed"
            sent = json.dumps(models.requests[asked:])
            assert "new.txt" in sent and "Look at this file" in sent
    assert git_state(work) == before  # the user's own repository: never written
