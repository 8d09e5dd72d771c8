"""Checkpoints of a session's folder (contract section 16) through the real host process
and socket, on the scripted ACP agent in a real git repository: a three-step plan whose
steps edit a file, add one and run a command that changes a third."""

from __future__ import annotations

import hashlib
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from harness.host_process import RpcClient, RpcErrorReply
from tests.e2e.test_acp import agent_host, new_session


def until_note(client: RpcClient, predicate: Any, timeout: float = 30.0) -> dict[str, Any]:
    return client.wait_notification(predicate, timeout, keep=True)


def checkpoint_told(client: RpcClient, sid: str, reason: str, revision: int | None = None) -> Any:
    return until_note(
        client,
        lambda n: (
            n["method"] == "checkpoints.changed"
            and n["params"]["sessionId"] == sid
            and n["params"]["checkpoint"]["reason"] == reason
            and (revision is None or n["params"]["checkpoint"]["revision"] == revision)
        ),
    )["params"]["checkpoint"]


def git(folder: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(
        ["git", *args], cwd=folder, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout


def repository(path: Path) -> Path:
    """A git repository with a commit, a .gitignore, an info/exclude and ignored files."""
    path.mkdir()
    git(path, "init", "-q")
    (path / "app.py").write_text("print(1)\n")
    (path / "data.txt").write_text("original\n")
    (path / ".gitignore").write_text("build/\n*.log\n")
    git(path, "add", "-A")
    git(path, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "start")
    (path / ".git" / "info" / "exclude").write_text("private.txt\n")
    (path / "build").mkdir()
    (path / "build" / "out.bin").write_bytes(b"\0" * 10)
    (path / "run.log").write_text("log\n")
    (path / "private.txt").write_text("mine\n")
    return path


def tree_of(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (the repository's .git included)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def digest(folder: Path) -> str:
    hashed = hashlib.sha256()
    for name, data in tree_of(folder).items():
        hashed.update(name.encode() + b"\0" + data)
    return hashed.hexdigest()


def run_steps(client: RpcClient, sid: str) -> dict[str, Any]:
    """The scripted three-step turn; each step's change is allowed only once the
    checkpoint of the revision that started it is stored, so every change falls into its
    own step."""
    started = client.call("turns.start", {"sessionId": sid, "text": "steps"})
    for step in range(3):
        title = f"Step {step + 1}"
        asked = until_note(
            client,
            lambda n, title=title: (
                n["method"] == "approvals.requested" and n["params"]["tool"] == title
            ),
        )
        checkpoint_told(client, sid, "revision", step + 1)
        client.call(
            "approvals.respond",
            {"approvalId": asked["params"]["approvalId"], "decision": "allow_once"},
        )
    ended: dict[str, Any] = until_note(
        client,
        lambda n: (
            n["method"] == "turns.changed"
            and n["params"]["id"] == started["id"]
            and n["params"]["state"] != "running"
        ),
    )["params"]
    checkpoint_told(client, sid, "turn-end")
    return ended


def files_of(changes: dict[str, Any]) -> list[tuple[str, str, int, int]]:
    return [(f["path"], f["status"], f["additions"], f["deletions"]) for f in changes["files"]]


def test_each_step_keeps_its_changes_and_a_restore_is_undone(tmp_path: Path) -> None:
    folder = repository(tmp_path / "repo")
    git_before = digest(folder / ".git")
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client, cwd=str(folder))["id"]
        assert run_steps(client, sid)["state"] == "completed"

        listed = client.call("checkpoints.list", {"sessionId": sid})
        order = [(c["reason"], c["revision"]) for c in reversed(listed["checkpoints"])]
        assert order == [
            ("turn-start", 0),
            ("revision", 1),
            ("revision", 2),
            ("revision", 3),
            ("revision", 4),
            ("turn-end", 4),
        ]
        assert listed["hasMore"] is False
        created = [c["createdAt"] for c in reversed(listed["checkpoints"])]
        assert created == sorted(created)
        # what was recorded: the folder's files but the ignored ones and .git
        assert listed["checkpoints"][-1]["files"] == 3  # app.py, data.txt, .gitignore
        assert not listed["checkpoints"][-1]["partial"]

        # each revision's todos.changed came before its checkpoints.changed
        told = [
            (
                n["method"],
                n["params"].get("revision", n["params"].get("checkpoint", {}).get("revision")),
            )
            for n in client.notifications
            if n["method"] in ("todos.changed", "checkpoints.changed")
        ]
        for revision in (1, 2, 3, 4):
            assert told.index(("todos.changed", revision)) < told.index(
                ("checkpoints.changed", revision)
            )

        step1 = client.call("changes.step", {"sessionId": sid, "content": "Step 1"})
        assert files_of(step1) == [("app.py", "modified", 1, 1)]
        assert "-print(1)\n+print(2)\n" in step1["files"][0]["diff"]
        assert step1["files"][0]["diff"].startswith("--- a/app.py\n+++ b/app.py\n@@ ")
        assert (step1["from"]["revision"], step1["to"]["revision"]) == (1, 2)
        step2 = client.call("changes.step", {"sessionId": sid, "content": "Step 2"})
        assert files_of(step2) == [("new.txt", "added", 1, 0)]
        step3 = client.call("changes.step", {"sessionId": sid, "content": "Step 3"})
        assert files_of(step3) == [("data.txt", "modified", 1, 1)]
        assert (step3["from"]["revision"], step3["to"]["revision"]) == (3, 4)

        start = listed["checkpoints"][-1]["id"]
        whole = client.call("changes.get", {"sessionId": sid, "from": start})
        assert [f["path"] for f in whole["files"]] == ["app.py", "data.txt", "new.txt"]
        assert whole["to"] is None

        # the folder back to before step 1, then that undone
        after = tree_of(folder)
        before_step1 = {"sessionId": sid, "checkpointId": step1["from"]["id"]}
        restored = client.call("changes.restore", before_step1)
        assert restored["restored"] == ["app.py", "data.txt", "new.txt"]
        assert restored["checkpoint"]["reason"] == "restore"
        assert (folder / "app.py").read_text() == "print(1)\n"
        assert (folder / "data.txt").read_text() == "original\n"
        assert not (folder / "new.txt").exists()
        assert (folder / "run.log").read_text() == "log\n"  # ignored: left alone
        assert (folder / "private.txt").read_text() == "mine\n"
        undo = {"sessionId": sid, "checkpointId": restored["checkpoint"]["id"]}
        undone = client.call("changes.restore", undo)
        assert undone["restored"] == ["app.py", "data.txt", "new.txt"]
        assert tree_of(folder) == after

        # one file only
        one = client.call(
            "changes.restore",
            {
                "sessionId": sid,
                "checkpointId": step1["from"]["id"],
                "paths": [str(folder / "app.py")],
            },
        )
        assert one["restored"] == ["app.py"]
        assert (folder / "app.py").read_text() == "print(1)\n"
        assert (folder / "new.txt").exists()
    assert digest(folder / ".git") == git_before


def test_bad_requests_are_refused_in_words(tmp_path: Path) -> None:
    folder = repository(tmp_path / "repo")
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client, cwd=str(folder))["id"]
        nib = client.call("sessions.create", {})["id"]
        started = client.call("turns.start", {"sessionId": sid, "text": "wait"})
        first = checkpoint_told(client, sid, "turn-start")
        checkpoint_told(client, sid, "revision", 1)  # its plan: Step 1 in progress
        cases: list[tuple[str, dict[str, Any], int, str]] = [
            ("checkpoints.list", {"sessionId": "nobody"}, -32010, "nobody"),
            ("checkpoints.list", {"sessionId": nib}, -32602, "no folder"),
            ("checkpoints.list", {"sessionId": sid, "limit": 201}, -32602, "invalid params"),
            ("changes.get", {"sessionId": sid, "from": "x"}, -32602, "no checkpoint 'x'"),
            ("changes.get", {"sessionId": nib, "from": first["id"]}, -32602, "no folder"),
            ("changes.step", {"sessionId": sid, "content": "Never"}, -32602, "'Never'"),
            ("changes.restore", {"sessionId": sid, "checkpointId": first["id"]}, -32020, "working"),
        ]
        for method, params, code, words in cases:
            with pytest.raises(RpcErrorReply) as error:
                client.call(method, params)
            assert error.value.code == code and words in str(error.value), (method, params)
        client.call("turns.cancel", {"sessionId": sid, "turnId": started["id"]})
        checkpoint_told(client, sid, "turn-end")
        for paths, words in [
            (["../outside.txt"], "outside"),
            (["/etc/passwd"], "outside"),
            (["run.log"], "recorded neither"),
            ([".git/config"], ".git"),
        ]:
            with pytest.raises(RpcErrorReply) as error:
                client.call(
                    "changes.restore",
                    {"sessionId": sid, "checkpointId": first["id"], "paths": paths},
                )
            assert error.value.code == -32602 and words in str(error.value), paths
        # a step still running has changes up to now; the folder gone keeps the records
        step = client.call("changes.step", {"sessionId": sid, "content": "Step 1"})
        assert step["to"]["reason"] == "turn-end"
        other = client.call("checkpoints.list", {"sessionId": sid})["checkpoints"]
        # another session's checkpoint ids are unknown here
        sid2 = new_session(client, cwd=str(folder))["id"]
        with pytest.raises(RpcErrorReply) as error:
            client.call("changes.get", {"sessionId": sid2, "from": other[0]["id"]})
        assert error.value.code == -32602


def test_a_fork_has_none_a_delete_reclaims_and_a_gone_folder_keeps_its_records(
    tmp_path: Path,
) -> None:
    folder = repository(tmp_path / "repo")
    with agent_host(tmp_path) as (_host, client):
        sid = new_session(client, cwd=str(folder))["id"]
        assert run_steps(client, sid)["state"] == "completed"
        store = tmp_path / "data" / "checkpoints" / sid
        assert (store / "objects").is_dir()
        fork = client.call("sessions.fork", {"sessionId": sid})["id"]
        assert client.call("checkpoints.list", {"sessionId": fork})["checkpoints"] == []

        listed = client.call("checkpoints.list", {"sessionId": sid, "limit": 2})
        assert len(listed["checkpoints"]) == 2 and listed["hasMore"]
        older = {"sessionId": sid, "beforeId": listed["checkpoints"][-1]["id"]}
        rest = client.call("checkpoints.list", older)
        assert len(rest["checkpoints"]) == 4 and not rest["hasMore"]
        first, last = rest["checkpoints"][-1], listed["checkpoints"][0]

        subprocess.run(["rm", "-rf", str(folder)], check=True)
        kept = client.call("changes.get", {"sessionId": sid, "from": first["id"], "to": last["id"]})
        assert [f["path"] for f in kept["files"]] == ["app.py", "data.txt", "new.txt"]
        for method, params in [
            ("changes.get", {"sessionId": sid, "from": first["id"]}),
            ("changes.restore", {"sessionId": sid, "checkpointId": first["id"]}),
        ]:
            with pytest.raises(RpcErrorReply) as error:
                client.call(method, params)
            assert error.value.code == -32602 and "no longer exists" in str(error.value), method
        assert not folder.exists()  # a restore never makes the folder again

        client.call("sessions.delete", {"sessionId": sid})
        until_note(client, lambda n: n["method"] == "sessions.deleted")
        client.call("sessions.list", {})
        deadline = time.monotonic() + 10
        while store.exists() and time.monotonic() < deadline:
            client.call("sessions.list", {})  # the removal is off the loop, right after
        assert not store.exists()


def test_the_hosts_own_agent_keeps_checkpoints_when_given_a_folder(tmp_path: Path) -> None:
    from harness.host_process import host_env, running_host

    folder = repository(tmp_path / "repo")
    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), host_env()) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
        plain = client.call("sessions.create", {})["id"]
        for session in (sid, plain):
            started = client.call("turns.start", {"sessionId": session, "text": "demo: 3 steps"})
            assert client.wait_turn_end(started["id"])["state"] == "completed"
        checkpoint_told(client, sid, "turn-end")
        listed = client.call("checkpoints.list", {"sessionId": sid})["checkpoints"]
        revision = client.call("todos.get", {"sessionId": sid})["revision"]
        assert revision >= 2
        assert [c["reason"] for c in reversed(listed)] == (
            ["turn-start"] + ["revision"] * revision + ["turn-end"]
        )
        assert all(c["files"] == 3 for c in listed)
        assert not [
            n
            for n in client.notifications
            if n["method"] == "checkpoints.changed" and n["params"]["sessionId"] == plain
        ]


def test_one_hunk_of_a_change_is_reverted_where_the_file_still_matches(tmp_path: Path) -> None:
    """`changes.revertHunk` (the project's): the second of a file's two hunks undone in
    the file as it is now, the first kept; a hunk whose lines changed since is refused in
    words, and so is a hunk the diff does not have; the revert is a restore checkpoint
    and is undone like one."""
    from harness.host_process import host_env, running_host

    folder = repository(tmp_path / "repo")
    original = "".join(f"line {i}\n" for i in range(1, 31))
    (folder / "notes.txt").write_text(original)
    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), host_env()) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"cwd": str(folder)})["id"]

        def turn() -> dict[str, Any]:
            started = client.call("turns.start", {"sessionId": sid, "text": "demo: 1 steps"})
            assert client.wait_turn_end(started["id"])["state"] == "completed"
            return until_note(
                client,
                lambda n: (
                    n["method"] == "checkpoints.changed"
                    and n["params"]["checkpoint"]["reason"] == "turn-end"
                    and n["params"]["checkpoint"]["turnId"] == started["id"]
                ),
            )["params"]["checkpoint"]

        before = turn()
        changed = original.replace("line 2\n", "line two\n").replace("line 25\n", "25!\n")
        (folder / "notes.txt").write_text(changed)
        after = turn()
        diff = client.call(
            "changes.get", {"sessionId": sid, "from": before["id"], "to": after["id"]}
        )
        [notes] = [f for f in diff["files"] if f["path"] == "notes.txt"]
        assert notes["diff"].count("@@ -") == 2  # two hunks
        (folder / "notes.txt").write_text(changed + "line 31\n")  # changed elsewhere since
        asked = {"sessionId": sid, "from": before["id"], "to": after["id"], "path": "notes.txt"}
        done = client.call("changes.revertHunk", {**asked, "hunk": 1})
        assert done["restored"] == ["notes.txt"] and done["checkpoint"]["reason"] == "restore"
        assert (folder / "notes.txt").read_text() == (
            original.replace("line 2\n", "line two\n") + "line 31\n"
        )
        (folder / "notes.txt").write_text(changed.replace("line two\n", "line 2 again\n"))
        for hunk, words in ((0, "has changed there since"), (5, "there is no hunk 6")):
            with pytest.raises(RpcErrorReply) as refused:
                client.call("changes.revertHunk", {**asked, "hunk": hunk})
            assert refused.value.code == -32602 and words in refused.value.error["message"]
        client.call("changes.restore", {"sessionId": sid, "checkpointId": done["checkpoint"]["id"]})
        assert (folder / "notes.txt").read_text() == changed + "line 31\n"  # undone


def test_a_checkpoint_that_cannot_be_taken_is_told_in_words(tmp_path: Path) -> None:
    """Issue 46, item 14 (a full disk, a store that cannot be written): the host tells
    `checkpoints.failed` with why, each time, and the turn still runs."""
    from harness.host_process import host_env, running_host

    folder = repository(tmp_path / "repo")
    data = tmp_path / "data"
    with running_host(data, str(tmp_path / "h.sock"), host_env()) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
        (data / "checkpoints").mkdir(exist_ok=True)
        (data / "checkpoints" / sid).write_text("a file where its store would be")
        started = client.call("turns.start", {"sessionId": sid, "text": "demo: 1 steps"})
        assert client.wait_turn_end(started["id"])["state"] == "completed"
        failed = until_note(
            client,
            lambda n: n["method"] == "checkpoints.failed" and n["params"]["reason"] == "turn-end",
        )["params"]
        assert failed["sessionId"] == sid and failed["turnId"] == started["id"]
        assert failed["error"].startswith("git ")  # git's own words for what failed
        reasons = [
            n["params"]["reason"]
            for n in client.notifications
            if n["method"] == "checkpoints.failed"
        ]
        assert reasons[0] == "turn-start" and reasons[-1] == "turn-end"
        assert client.call("checkpoints.list", {"sessionId": sid})["checkpoints"] == []
