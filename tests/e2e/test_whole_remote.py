"""Remote sessions are whole sessions (contract section 19), for real: a local host process
linked over `unix:` to a remote host process whose own settings.json names the scripted
ACP agent, working in a real git repository on the remote side, in a worktree there."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.git_env import git_env
from harness.host_process import HostProcess, RpcClient, RpcErrorReply
from harness.relay import Relay
from tests.e2e.test_acp import settings
from tests.e2e.test_checkpoints import repository, run_steps
from tests.e2e.test_racp import local_host, remote_hello, remote_host, short, wait_state

__all__ = ["short"]  # the fixture, used by name


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], env=git_env(), check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


@contextlib.contextmanager
def linked(
    short: Path, endpoint_path: Path | None = None, **remote_env: str
) -> Iterator[tuple[HostProcess, RpcClient, RpcClient, str]]:
    """The remote host (the scripted agent in its settings.json) and the local host; the
    local client, a client of the remote host itself, and the endpoint."""
    settings(short / "remote-data")
    with remote_host(short, **remote_env) as remote, local_host(short) as local:
        endpoint = f"unix:{endpoint_path or short / 'remote.sock'}"
        yield local, local.connect(), remote_hello(remote), endpoint


def refused(client: RpcClient, method: str, params: dict[str, Any]) -> str:
    with pytest.raises(RpcErrorReply) as info:
        client.call(method, params)
    assert info.value.code == -32011, info.value
    return str(info.value.error["message"])


def test_an_agent_session_on_a_remote_host_is_a_whole_session(short: Path) -> None:
    repo = repository(short / "repo")
    with linked(short) as (_local, client, direct, endpoint):
        listed = client.call("agents.list", {"remote": {"endpoint": endpoint}})
        assert "scripted" in [agent["name"] for agent in listed["agents"]]

        remote = {"endpoint": endpoint}
        session = client.call(
            "sessions.create",
            {"remote": remote, "agent": "scripted", "cwd": str(repo), "worktree": {}},
        )
        sid, remote_id = session["id"], session["remote"]["remoteSessionId"]
        assert (session["origin"], session["agent"]) == ("remote", "scripted")
        there = direct.call("sessions.get", {"sessionId": remote_id})
        assert there["agent"] == "scripted" and there["worktree"] == session["worktree"]
        tree = Path(session["worktree"]["path"])
        assert tree.is_dir() and tree != repo

        # the turn runs there; its approvals, checklist and checkpoints are told here
        assert run_steps(client, sid)["state"] == "completed"
        assert (repo / "app.py").read_text() == "print(1)\n"  # the checkout untouched
        assert (tree / "app.py").read_text() == "print(2)\n"
        snapshot = client.call("todos.get", {"sessionId": sid})
        assert snapshot == {**direct.call("todos.get", {"sessionId": remote_id}), "sessionId": sid}

        checkpoints = client.call("checkpoints.list", {"sessionId": sid})["checkpoints"]
        assert {c["sessionId"] for c in checkpoints} == {sid}
        assert [c["id"] for c in checkpoints] == [
            c["id"]
            for c in direct.call("checkpoints.list", {"sessionId": remote_id})["checkpoints"]
        ]
        step = client.call("changes.step", {"sessionId": sid, "content": "Step 1"})
        assert [(f["path"], f["status"]) for f in step["files"]] == [("app.py", "modified")]
        status = client.call("worktrees.status", {"sessionId": sid})
        assert status["sessionId"] == sid and {f["path"] for f in status["files"]} == {
            "app.py",
            "new.txt",
            "data.txt",
        }
        controls = client.call("agents.controls", {"sessionId": sid})
        assert controls["sessionId"] == sid
        # "@": the remote folder's files, listed by its host (the project's files.list)
        listed = client.call("files.list", {"sessionId": sid})
        assert {"app.py", "new.txt"} <= set(listed["files"]) and not listed["truncated"]
        assert listed == direct.call("files.list", {"sessionId": remote_id})

        # named here and there; written out on this machine; merged there by git
        renamed = client.call("sessions.rename", {"sessionId": sid, "title": "Far steps"})
        assert renamed["title"] == "Far steps"
        assert direct.call("sessions.get", {"sessionId": remote_id})["title"] == "Far steps"
        exported = client.call("sessions.export", {"sessionId": sid, "path": str(short / "far.md")})
        text = (short / "far.md").read_text()
        assert exported["bytes"] == len(text.encode()) and "Step 3" in text
        merged = client.call("worktrees.merge", {"sessionId": sid, "message": "Far steps"})
        assert git(repo, "log", "-1", "--format=%s") == "Far steps"
        assert merged["commit"] == git(repo, "rev-parse", "HEAD")
        assert (repo / "app.py").read_text() == "print(2)\n"


def test_an_approval_still_waiting_is_told_again_after_a_reconnect(short: Path) -> None:
    """The link drops while the remote agent waits for the user: after the reconnect the
    approval is asked again (once in the window: same id), answered here, and the turn
    ends there. A window that connects anew is asked too."""
    relay = Relay(str(short / "relay.sock"), str(short / "remote.sock"))
    with linked(short, short / "relay.sock") as (local, client, _direct, endpoint):
        relay.start()
        (short / "small").mkdir()  # its folder: small, as checkpoints read it
        made = {"remote": {"endpoint": endpoint}, "agent": "scripted", "cwd": str(short / "small")}
        sid = client.call("sessions.create", made)["id"]
        turn = client.call("turns.start", {"sessionId": sid, "text": "ask"})
        asked = client.wait_notification(lambda n: n["method"] == "approvals.requested", 30)
        approval = asked["params"]["approvalId"]
        assert asked["params"]["sessionId"] == sid

        relay.cut()
        wait_state(client, sid, "unreachable")
        relay.start()
        wait_state(client, sid, "connected")
        again = client.wait_notification(lambda n: n["method"] == "approvals.requested", 30)
        assert again["params"] == asked["params"]

        window = local.connect()  # a window that comes back is asked as well
        told = window.wait_notification(lambda n: n["method"] == "approvals.requested")
        assert told["params"] == asked["params"]

        client.call("approvals.respond", {"approvalId": approval, "decision": "allow_once"})
        assert client.wait_turn_end(turn["id"], 30)["state"] == "completed"
        texts = [m["content"] for m in client.call("messages.list", {"sessionId": sid})["messages"]]
        assert "permission: yes" in texts
        relay.cut()


def test_an_older_remote_host_says_what_it_does_not_share(short: Path) -> None:
    """A remote host that names no capabilities (RACP v1) runs turns; the rest is refused
    with -32011, in words naming what it lacks, and nothing is made there."""
    repo = repository(short / "repo")
    with linked(short, NIB_RACP_V1="1") as (_local, client, direct, endpoint):
        words = refused(
            client, "sessions.create", {"remote": {"endpoint": endpoint}, "agent": "scripted"}
        )
        assert "does not share its agents" in words
        words = refused(
            client,
            "sessions.create",
            {"remote": {"endpoint": endpoint}, "cwd": str(repo), "worktree": {}},
        )
        assert "does not share its worktree" in words
        assert direct.call("sessions.list", {})["sessions"] == []
        sid = client.call("sessions.create", {"remote": {"endpoint": endpoint}})["id"]
        for method, need in (
            ("checkpoints.list", "its checkpoints"),
            ("agents.controls", "its agents"),
            ("worktrees.status", "its worktree"),
            ("sessions.fork", "forks"),
            ("files.list", "its files"),
        ):
            assert need in refused(client, method, {"sessionId": sid}), method


def test_an_ssh_link_killed_while_an_approval_waits_comes_back_to_it(short: Path) -> None:
    """Issue 51: over a real sshd, the ssh client killed while the remote agent waits for
    the user: the next link joins the host that still runs the turn, the approval is
    asked again (the same one), answered here, and the turn ends there."""
    import os
    import signal

    from harness.host_process import host_env, running_host
    from harness.sshd import remote_command, running_sshd

    settings(short / "far-data")
    with running_sshd(short / "ssh") as server:
        env = host_env(
            NIB_SSH_COMMAND=server.ssh_command(),
            NIB_REMOTE_HOST_COMMAND=remote_command(short / "far-data"),
        )
        with running_host(short / "local-data", str(short / "local.sock"), env) as local:
            client = local.connect()
            (short / "small").mkdir()  # its folder: small, as checkpoints read it
            there = {"remote": {"endpoint": server.endpoint()}, "agent": "scripted"}
            sid = client.call("sessions.create", {**there, "cwd": str(short / "small")})["id"]
            turn = client.call("turns.start", {"sessionId": sid, "text": "ask"})
            asked = client.wait_notification(lambda n: n["method"] == "approvals.requested", 60)
            children = Path(f"/proc/{local.proc.pid}/task/{local.proc.pid}/children")
            ssh = [
                int(pid)
                for pid in children.read_text().split()
                if Path(f"/proc/{pid}/comm").read_text().strip() == "ssh"
            ]
            assert len(ssh) == 1
            os.kill(ssh[0], signal.SIGKILL)
            wait_state(client, sid, "unreachable")
            back = wait_state(client, sid, "connected", timeout=60)
            assert back["runningTurnId"] == turn["id"]  # the same host, still at it
            again = client.wait_notification(lambda n: n["method"] == "approvals.requested", 30)
            assert again["params"] == asked["params"]
            approval = asked["params"]["approvalId"]
            client.call("approvals.respond", {"approvalId": approval, "decision": "allow_once"})
            assert client.wait_turn_end(turn["id"], 60)["state"] == "completed"
            listed = client.call("messages.list", {"sessionId": sid})["messages"]
            assert "permission: yes" in [m["content"] for m in listed]


def test_two_remote_hosts_are_told_apart_and_one_failing_leaves_the_other_be(
    short: Path,
) -> None:
    """Issue 51, point 3: several remote hosts at once; one killed mid-turn says so in its
    own sessions only, while the other's turn runs on and ends, told under its own id."""
    import os
    import signal

    from harness.host_process import host_env, running_host

    token_env = {"NIB_HOST_TOKEN": "remote-token-5678", "NIB_DEMO_STEP_DELAY_MS": "300"}
    with (
        running_host(short / "a-data", str(short / "a.sock"), host_env(**token_env)) as a,
        running_host(short / "b-data", str(short / "b.sock"), host_env(**token_env)),
        local_host(short) as local,
    ):
        client = local.connect()
        first = client.call("sessions.create", {"remote": {"endpoint": f"unix:{short / 'a.sock'}"}})
        second = client.call(
            "sessions.create", {"remote": {"endpoint": f"unix:{short / 'b.sock'}"}}
        )
        assert first["remote"]["endpoint"] != second["remote"]["endpoint"]
        plan = "Do these: 1. Read 2. Write 3. Check"
        one = client.call("turns.start", {"sessionId": first["id"], "text": plan})
        two = client.call("turns.start", {"sessionId": second["id"], "text": plan})
        client.wait_notification(lambda n: n["method"] == "todos.changed")
        os.kill(a.proc.pid, signal.SIGKILL)
        a.proc.wait(10)
        gone = wait_state(client, first["id"], "unreachable")
        assert gone["remote"]["error"]
        assert client.wait_turn_end(two["id"], 30)["state"] == "completed"
        states = {
            s["id"]: s["remote"]["state"] for s in client.call("sessions.list", {})["sessions"]
        }
        assert states == {first["id"]: "unreachable", second["id"]: "connected"}
        told = [
            n["params"]["sessionId"]
            for n in client.notifications
            if n["method"] == "turns.changed" and n["params"]["id"] == one["id"]
        ]
        assert set(told) <= {first["id"]}  # never under the other host's session


def test_a_form_a_remote_agent_asks_for_is_answered_here(short: Path) -> None:
    """Issue 51 with 52's forms: the remote host's agent asks for a form; it is told here
    under the local session's id, answered here, and the answer goes to that host."""
    import json

    with linked(short) as (_local, client, _direct, endpoint):
        remote = {"endpoint": endpoint}
        (short / "small").mkdir()
        made = {"remote": remote, "agent": "scripted", "cwd": str(short / "small")}
        sid = client.call("sessions.create", made)["id"]
        turn = client.call("turns.start", {"sessionId": sid, "text": "form"})
        asked = client.wait_notification(lambda n: n["method"] == "agents.asked", 30)["params"]
        assert asked["sessionId"] == sid and asked["message"] == "Some details, please"
        values = {"name": "Ada", "count": "3", "sure": True, "colour": "green"}
        client.call(
            "agents.answer", {"askId": asked["askId"], "action": "accept", "values": values}
        )
        ended = client.wait_notification(lambda n: n["method"] == "agents.answered", 30)
        assert ended["params"] == {"askId": asked["askId"], "sessionId": sid, "action": "accept"}
        assert client.wait_turn_end(turn["id"], 30)["state"] == "completed"
        content = {"colour": "green", "count": 3, "name": "Ada", "sure": True}
        listed = client.call("messages.list", {"sessionId": sid})["messages"]
        assert f"form: accept {json.dumps(content, sort_keys=True)}" in [
            m["content"] for m in listed
        ]


def test_a_folder_typed_for_a_remote_session_is_checked_on_its_host(short: Path) -> None:
    """The project's `folders.check` (issue 51, point 1): a folder typed for a new session
    is checked where it would be used, on the remote host's machine, in words; here too."""
    repo = repository(short / "repo")
    (short / "a-file").write_text("x")
    with linked(short) as (_local, client, _direct, endpoint):
        remote = {"endpoint": endpoint}

        def check(cwd: str, **where: Any) -> dict[str, Any]:
            told: dict[str, Any] = client.call("folders.check", {"cwd": cwd, **where})
            return told

        assert check(str(repo), remote=remote) == {"problem": "", "repository": True}
        assert check(str(short), remote=remote) == {"problem": "", "repository": False}
        missing = check(str(short / "nowhere"), remote=remote)
        assert missing["problem"] == f"There is no folder {short / 'nowhere'}"
        assert check(str(short / "a-file"), remote=remote)["problem"].endswith(
            "a file, not a folder"
        )
        assert check("src/app", remote=remote)["problem"] == "Give the whole path: from / or ~"
        assert check(str(repo)) == {"problem": "", "repository": True}  # this machine's


def test_a_form_its_host_settled_while_the_link_was_down_is_settled_here(short: Path) -> None:
    """A remote agent's form still waiting after a reconnect is asked again and stays; one
    its host cancelled while the link was down (its turn stopped there) is told here as
    cancelled, not left waiting in the window."""
    relay = Relay(str(short / "relay.sock"), str(short / "remote.sock"))
    with linked(short, short / "relay.sock") as (_local, client, direct, endpoint):
        relay.start()
        (short / "small").mkdir()
        made = {"remote": {"endpoint": endpoint}, "agent": "scripted", "cwd": str(short / "small")}
        sid = client.call("sessions.create", made)["id"]
        client.call("turns.start", {"sessionId": sid, "text": "form"})
        asked = client.wait_notification(lambda n: n["method"] == "agents.asked", 30)["params"]

        relay.cut()  # still waiting there: asked again, and still waiting here
        wait_state(client, sid, "unreachable")
        relay.start()
        wait_state(client, sid, "connected")
        again = client.wait_notification(lambda n: n["method"] == "agents.asked", 30)["params"]
        assert again == asked

        relay.cut()  # stopped there while the link is down
        wait_state(client, sid, "unreachable")
        [there] = direct.call("sessions.list", {})["sessions"]
        direct.call("turns.cancel", {"sessionId": there["id"], "turnId": there["runningTurnId"]})
        relay.start()
        wait_state(client, sid, "connected")
        ended = client.wait_notification(lambda n: n["method"] == "agents.answered", 30)
        assert ended["params"] == {"askId": asked["askId"], "sessionId": sid, "action": "cancel"}
        relay.cut()
