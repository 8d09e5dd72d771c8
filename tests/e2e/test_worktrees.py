"""A worktree per session, merged back (contract section 18, first half), through the real
host process and socket, against real git repositories made here: every method and
refusal, the user's checkout untouched by a session's turns, squash, merge and rebase each
giving git's own history shape, conflicts found before anything is written."""

from __future__ import annotations

import hashlib
import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.git_env import IDENTITY, git_env
from harness.host_process import RpcClient, RpcErrorReply, host_env, running_host


def git(folder: Path, *args: str) -> str:
    env = git_env()
    done = subprocess.run(
        ["git", "-C", str(folder), *args], env=env, check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


def repository(path: Path) -> Path:
    """main with two commits; a .gitignore; an ignored build/ and .env; a subfolder."""
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "app.py").write_text("def main():\n    return 1\n")
    (path / "notes.txt").write_text("one\ntwo\nthree\n")
    (path / ".gitignore").write_text("build/\n.env\n")
    (path / "src").mkdir()
    (path / "src" / "lib.py").write_text("X = 1\n")
    git(path, "add", "-A")
    git(path, "commit", "-qm", "start")
    (path / "app.py").write_text("def main():\n    return 2\n")
    git(path, "commit", "-qam", "two")
    (path / "build").mkdir()
    (path / "build" / "out.bin").write_bytes(b"\0" * 8)
    (path / ".env").write_text("TOKEN=secret\n")
    return path


def fingerprint(folder: Path) -> str:
    """Every file of the checkout (its .git included) and every ref, hashed."""
    hashed = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink() and "index" not in p.name:
            hashed.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes())
    hashed.update(git(folder, "show-ref").encode())
    return hashed.hexdigest()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[RpcClient]:
    env = host_env(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", **IDENTITY)
    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), env) as host:
        yield host.connect()


def refused(client: RpcClient, method: str, params: dict[str, Any], code: int = -32602) -> Any:
    with pytest.raises(RpcErrorReply) as error:
        client.call(method, params)
    assert error.value.code == code, (method, params, error.value.error)
    return error.value.error


def demo_turn(client: RpcClient, sid: str) -> None:
    started = client.call("turns.start", {"sessionId": sid, "text": "demo: 2 steps"})
    assert client.wait_turn_end(started["id"])["state"] == "completed"


def test_a_session_in_its_worktree_never_touches_the_checkout(
    client: RpcClient, tmp_path: Path
) -> None:
    repo = repository(tmp_path / "repo")
    (repo / "notes.txt").write_text("one\ntwo\nthree\nfour\n")  # uncommitted
    (repo / "draft.md").write_text("an idea\n")  # untracked
    (repo / ".worktreeinclude").write_text(".env\n")
    head = git(repo, "rev-parse", "HEAD")

    session = client.call(
        "sessions.create", {"cwd": str(repo / "src"), "worktree": {"carry": True}}
    )
    tree = session["worktree"]
    path = Path(tree["path"])
    assert tree == {
        "repo": str(repo),
        "path": tree["path"],
        "branch": f"nib/{session['id'][:8]}",
        "base": "main",
        "baseCommit": head,
        "state": "active",
    }
    assert path.is_relative_to(tmp_path / "data") and session["cwd"] == str(path / "src")
    assert (path / "notes.txt").read_text() == "one\ntwo\nthree\nfour\n"  # carried
    assert (path / "draft.md").read_text() == "an idea\n"
    assert (path / ".env").read_text() == "TOKEN=secret\n"  # named by .worktreeinclude
    assert not (path / "build").exists()  # ignored, not named
    assert str(path) in git(repo, "worktree", "list")
    assert client.call("sessions.get", {"sessionId": session["id"]})["worktree"] == tree
    assert (repo / "notes.txt").read_text() == "one\ntwo\nthree\nfour\n"  # left as it was

    before = fingerprint(repo)
    demo_turn(client, session["id"])
    (path / "app.py").write_text("def main():\n    return 3\n")  # the agent's work
    assert fingerprint(repo) == before  # the checkout, its .git and refs: untouched

    status = client.call("worktrees.status", {"sessionId": session["id"]})
    assert status["head"] == head and status["baseHead"] == head
    assert (status["ahead"], status["behind"], status["dirty"]) == (0, 0, True)
    assert sorted(f["path"] for f in status["files"]) == [
        ".worktreeinclude",
        "app.py",
        "draft.md",
        "notes.txt",
    ]
    assert "+    return 3" in next(f for f in status["files"] if f["path"] == "app.py")["diff"]
    assert status["conflicts"] == []
    assert fingerprint(repo) == before  # reading it wrote nothing into the repository


def test_refusals_name_why(client: RpcClient, tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo")
    plain = tmp_path / "plain"
    plain.mkdir()
    git(repo, "branch", "taken")
    cases = [
        ({"cwd": str(plain), "worktree": {}}, "not inside a git work tree"),
        ({"cwd": str(repo), "worktree": {"branch": "taken"}}, "exists already"),
        ({"cwd": str(repo), "worktree": {"branch": "a..b"}}, "refuses"),
        ({"cwd": str(repo), "worktree": {"base": "nowhere"}}, "no branch, tag or commit"),
        ({"worktree": {}}, "give cwd"),
    ]
    for params, words in cases:
        error = refused(client, "sessions.create", params)
        assert words in error["message"], (params, error)
    assert [s for s in client.call("sessions.list", {})["sessions"]] == []
    assert git(repo, "worktree", "list").count("\n") == 0  # nothing was made
    plain_session = client.call("sessions.create", {"cwd": str(repo)})["id"]
    for method in ("worktrees.status", "worktrees.merge", "worktrees.remove"):
        assert "no worktree" in refused(client, method, {"sessionId": plain_session})["message"]
        refused(client, method, {"sessionId": "nobody"}, -32010)
    tagged = client.call("sessions.create", {"cwd": str(repo), "worktree": {"base": "HEAD~1"}})
    error = refused(client, "worktrees.merge", {"sessionId": tagged["id"]})
    assert "not a branch" in error["message"]


def test_status_counts_ahead_and_behind_and_finds_conflicts_first(
    client: RpcClient, tmp_path: Path
) -> None:
    repo = repository(tmp_path / "repo")
    sid = client.call("sessions.create", {"cwd": str(repo), "worktree": {}})["id"]
    path = Path(client.call("sessions.get", {"sessionId": sid})["worktree"]["path"])
    (path / "notes.txt").write_text("one\nTWO\nthree\n")
    git(path, "commit", "-qam", "the agent's")
    (repo / "notes.txt").write_text("one\n2\nthree\n")
    git(repo, "commit", "-qam", "the user's")
    before = fingerprint(repo)
    status = client.call("worktrees.status", {"sessionId": sid})
    assert (status["ahead"], status["behind"], status["dirty"]) == (1, 1, False)
    assert status["conflicts"] == ["notes.txt"]
    for how in ("squash", "merge", "rebase"):
        error = refused(client, "worktrees.merge", {"sessionId": sid, "how": how})
        assert error["data"] == {"conflicts": ["notes.txt"]}, how
        assert fingerprint(repo) == before  # nothing changed anywhere
    assert git(path, "status", "--porcelain") == ""


MADE = itertools.count(1)


def merged_session(client: RpcClient, repo: Path) -> tuple[str, Path]:
    """A worktree session whose branch has one commit and an uncommitted change, while the
    user committed elsewhere on main meanwhile."""
    sid = client.call("sessions.create", {"cwd": str(repo), "worktree": {}})["id"]
    path = Path(client.call("sessions.get", {"sessionId": sid})["worktree"]["path"])
    made = next(MADE)  # each one's own content
    (path / "app.py").write_text(f"def main():\n    return {made + 2}\n")
    git(path, "commit", "-qam", "three")
    (path / "src" / "new.py").write_text(f"Y = {made + 1}\n")  # uncommitted, untracked
    (repo / "src" / "lib.py").write_text(f"X = {made + 9}\n")
    git(repo, "commit", "-qam", "the user's")
    return sid, path


@pytest.mark.parametrize("how", ["squash", "merge", "rebase"])
def test_each_merge_gives_gits_own_history_shape(
    client: RpcClient, tmp_path: Path, how: str
) -> None:
    repo = repository(tmp_path / "repo")
    sid, path = merged_session(client, repo)
    app, new = (path / "app.py").read_text(), (path / "src" / "new.py").read_text()
    user_head = git(repo, "rev-parse", "HEAD")
    (repo / "notes.txt").write_text("one\ntwo\nthree\nmine\n")  # the user's own, uncommitted
    done = client.call("worktrees.merge", {"sessionId": sid, "how": how, "message": "Do it"})
    commit = done["commit"]
    assert git(repo, "rev-parse", "main") == commit
    parents = git(repo, "rev-list", "--parents", "-n", "1", commit).split()[1:]
    if how == "squash":
        assert parents == [user_head] and git(repo, "log", "-1", "--format=%s", commit) == "Do it"
    elif how == "merge":
        assert parents[0] == user_head and len(parents) == 2
    else:  # rebased: a line of the branch's two commits on the user's
        assert len(parents) == 1
        assert git(repo, "rev-list", "--count", f"{user_head}..{commit}") == "2"
        assert git(repo, "merge-base", "--is-ancestor", user_head, commit) == ""
    # the checkout brought along, the user's own uncommitted work kept
    assert (repo / "app.py").read_text() == app and (repo / "src" / "new.py").read_text() == new
    assert (repo / "notes.txt").read_text() == "one\ntwo\nthree\nmine\n"
    assert git(repo, "status", "--porcelain") == "M notes.txt"
    assert done["status"]["dirty"] is False and done["status"]["conflicts"] == []
    session = client.call("sessions.get", {"sessionId": sid})
    assert session["worktree"]["state"] == "merged"
    told = client.wait_notification(
        lambda n: n["method"] == "worktrees.changed" and n["params"]["sessionId"] == sid, 10
    )["params"]
    assert all(f["diff"] == "" for f in told["files"])


def test_a_checkout_dirty_in_a_merged_file_is_refused(client: RpcClient, tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo")
    sid, _path = merged_session(client, repo)
    (repo / "app.py").write_text("the user's own edit\n")
    before = fingerprint(repo)
    error = refused(client, "worktrees.merge", {"sessionId": sid})
    assert error["data"] == {"files": ["app.py"]}
    assert fingerprint(repo) == before


def test_remove_refuses_unmerged_work_and_delete_asks(client: RpcClient, tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo")
    sid, path = merged_session(client, repo)
    error = refused(client, "worktrees.remove", {"sessionId": sid})
    assert error["data"] == {"files": ["app.py", "src/new.py"]}
    error = refused(client, "sessions.delete", {"sessionId": sid})
    assert str(path) in error["message"] and f"nib/{sid[:8]}" in error["message"]
    client.call("worktrees.merge", {"sessionId": sid})  # squashed: nothing unmerged after
    removed = client.call("worktrees.remove", {"sessionId": sid})
    assert removed == {"removed": str(path)} and not path.exists()
    assert f"nib/{sid[:8]}" not in git(repo, "branch")
    assert client.call("sessions.get", {"sessionId": sid})["worktree"]["state"] == "removed"
    client.call("sessions.delete", {"sessionId": sid})  # its worktree is gone: no question

    kept, kept_path = merged_session(client, repo)
    client.call("sessions.delete", {"sessionId": kept, "worktree": "keep"})
    assert kept_path.is_dir() and str(kept_path) in git(repo, "worktree", "list")
    forced, forced_path = merged_session(client, repo)
    refused(client, "sessions.delete", {"sessionId": forced, "worktree": "remove"})
    assert forced_path.is_dir()  # remove's refusal holds for a delete too
    client.call("worktrees.remove", {"sessionId": forced, "force": True, "keepBranch": True})
    assert not forced_path.exists() and f"nib/{forced[:8]}" in git(repo, "branch")


def test_a_fork_works_in_the_same_worktree(client: RpcClient, tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo")
    session = client.call("sessions.create", {"cwd": str(repo), "worktree": {}})
    fork = client.call("sessions.fork", {"sessionId": session["id"]})
    assert fork["worktree"] == session["worktree"] and fork["cwd"] == session["cwd"]


def test_checkpoints_in_a_worktree_read_the_exclude_file_git_names(
    client: RpcClient, tmp_path: Path
) -> None:
    """In a worktree `.git` is a file: the repository's exclude file is the one git names
    (`git rev-parse --git-path info/exclude`), and a checkpoint leaves out what it names."""
    repo = repository(tmp_path / "repo")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("private.txt\n")
    session = client.call("sessions.create", {"cwd": str(repo), "worktree": {}})
    path = Path(session["worktree"]["path"])
    assert (path / ".git").is_file()
    (path / "private.txt").write_text("mine\n")
    (path / "more.txt").write_text("the agent's\n")
    demo_turn(client, session["id"])
    tracked = len(git(path, "ls-files").splitlines())
    listed = client.call("checkpoints.list", {"sessionId": session["id"]})["checkpoints"]
    assert listed[0]["files"] == tracked + 1  # more.txt, not private.txt


def test_a_turn_tells_its_worktree_and_one_turn_runs_in_it_at_a_time(tmp_path: Path) -> None:
    env = host_env(NIB_DEMO_STEP_DELAY_MS="5000", GIT_CONFIG_GLOBAL=os.devnull, **IDENTITY)
    repo = repository(tmp_path / "repo")
    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), env) as host:
        client = host.connect()
        session = client.call("sessions.create", {"cwd": str(repo), "worktree": {}})
        fork = client.call("sessions.fork", {"sessionId": session["id"]})
        started = client.call("turns.start", {"sessionId": session["id"], "text": "demo: 3 steps"})
        error = refused(client, "turns.start", {"sessionId": fork["id"], "text": "hi"}, -32020)
        assert "one at a time" in error["message"]
        client.call("turns.cancel", {"sessionId": session["id"], "turnId": started["id"]})
        client.wait_turn_end(started["id"])
        told = client.wait_notification(
            lambda n: (
                n["method"] == "worktrees.changed" and n["params"]["sessionId"] == session["id"]
            ),
            10,
        )["params"]
        assert told["branch"] == session["worktree"]["branch"] and told["base"] == "main"
        done = client.call("turns.start", {"sessionId": fork["id"], "text": "demo: 1 steps"})
        assert done["state"] == "running"


def test_a_worktree_removed_by_hand_is_said_so_and_forgotten(
    client: RpcClient, tmp_path: Path
) -> None:
    repo = repository(tmp_path / "repo")
    session = client.call("sessions.create", {"cwd": str(repo), "worktree": {}})
    path = Path(session["worktree"]["path"])
    subprocess.run(["rm", "-rf", str(path)], check=True)
    error = refused(client, "worktrees.status", {"sessionId": session["id"]})
    assert "no longer exists" in error["message"] and str(path) in error["message"]
    removed = client.call("worktrees.remove", {"sessionId": session["id"]})
    assert removed == {"removed": str(path)}
    assert str(path) not in git(repo, "worktree", "list")  # pruned
    assert f"nib/{session['id'][:8]}" not in git(repo, "branch")


def test_a_repositorys_setup_runs_in_a_new_worktree_before_its_first_turn(
    tmp_path: Path,
) -> None:
    """Issue 49, point 1: the set-up the user named for the repository in settings.json
    runs in the new worktree, without Nib's own variables, its output in the transcript,
    and the first turn waits for it; a failing one is said in words."""
    import json
    import sys

    repo = repository(tmp_path / "repo")
    data = tmp_path / "data"
    data.mkdir()
    script = (
        "import os, time; time.sleep(0.5); open('ready.txt', 'w').write('set up');"
        " print('installed', os.environ.get('NIB_HOST_TOKEN', 'no token'))"
    )
    setup = f'{sys.executable} -c "{script}"'
    (data / "settings.json").write_text(json.dumps({"worktreeSetup": {str(repo): setup}}))
    env = host_env(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", **IDENTITY)
    with running_host(data, str(tmp_path / "h.sock"), env) as host:
        client = host.connect()
        session = client.call("sessions.create", {"cwd": str(repo), "worktree": {}})
        path = Path(session["worktree"]["path"])
        demo_turn(client, session["id"])  # waits for the set-up first
        listed = client.call("messages.list", {"sessionId": session["id"]})["messages"]
        said = [(x["role"], x["content"]) for x in listed]
        assert said[0][1].startswith("Setting up the worktree: ")
        done = next(i for i, (_r, text) in enumerate(said) if "is set up" in text)
        assert "installed no token" in said[done][1]
        first_answer = next(i for i, (role, _t) in enumerate(said) if role == "assistant")
        assert done < first_answer  # the agent is prompted once the set-up ended
        assert (path / "ready.txt").read_text() == "set up"
        assert not (repo / "ready.txt").exists()

        (data / "settings.json").write_text(json.dumps({"worktreeSetup": {str(repo): "false"}}))
        failing = client.call("sessions.create", {"cwd": str(repo), "worktree": {}})
        demo_turn(client, failing["id"])
        told = client.call("messages.list", {"sessionId": failing["id"]})["messages"]
        [failed] = [x for x in told if x["content"] == "The set-up false failed (exit status 1)"]
        assert failed["isError"]


def test_a_worktree_is_told_in_a_pause_of_its_checklist_never_amid_it(tmp_path: Path) -> None:
    """`worktrees.changed` after a burst of checklist revisions: told once the revisions
    pause, with the last state, never while they come (reading the worktree costs git a
    pass over it, which would share the processor with the revisions' own way out)."""
    import json

    from harness import ACP_AGENT

    data = tmp_path / "data"
    data.mkdir()
    times = str(tmp_path / "times.json")
    entry = {"command": sys.executable, "args": [str(ACP_AGENT)], "env": {"BENCH_TIMES": times}}
    (data / "settings.json").write_text(json.dumps({"agents": {"scripted": entry}}))
    repo = repository(tmp_path / "repo")
    env = host_env(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", **IDENTITY)
    with running_host(data, str(tmp_path / "h.sock"), env) as host:
        client = host.connect()
        session = client.call(
            "sessions.create", {"agent": "scripted", "cwd": str(repo), "worktree": {}}
        )
        sid = session["id"]
        turn = client.call("turns.start", {"sessionId": sid, "text": "bench 12"})  # 0.24 s
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
        told = client.wait_notification(
            lambda n: n["method"] == "worktrees.changed" and n["params"]["sessionId"] == sid,
            10,
            keep=True,
        )
        order = [
            n["method"]
            for n in client.notifications
            if n["method"] in ("todos.changed", "worktrees.changed")
            and n["params"]["sessionId"] == sid
        ]
    revisions = [i for i, name in enumerate(order) if name == "todos.changed"]
    assert len(revisions) == 12
    # none told between the burst's first revision and its last
    assert "worktrees.changed" not in order[revisions[0] : revisions[-1]], order
    assert told["params"]["head"] and told["params"]["branch"] == session["worktree"]["branch"]
