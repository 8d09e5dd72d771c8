"""A restore never loses a file, and every request about a folder is answered (issue 46,
items 1-3), through the real host process and socket, on a session of the host's own
agent given a real git repository as its folder.

- a file name that is not UTF-8 is listed in a valid form and restored by that form;
- a file that the checkpoint records but that is over the size limit now, or ignored
  now, is left as it is and named in `skipped`, so the undo gives back every byte."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.host_process import RpcClient, host_env, running_host
from tests.e2e.test_checkpoints import checkpoint_told, repository

ODD = os.fsdecode(b"caf\xe9 \xff.txt")  # a name from an old zip archive
ODD_SHOWN = "caf\\xe9 \\xff.txt"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[RpcClient]:
    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), host_env()) as host:
        yield host.connect()


def turn(client: RpcClient, sid: str) -> dict[str, Any]:
    """A demo turn; its turn-end checkpoint."""
    started = client.call("turns.start", {"sessionId": sid, "text": "demo: 1 steps"})
    assert client.wait_turn_end(started["id"])["state"] == "completed"
    return client.wait_notification(
        lambda n: (
            n["method"] == "checkpoints.changed"
            and n["params"]["checkpoint"]["reason"] == "turn-end"
            and n["params"]["checkpoint"]["turnId"] == started["id"]
        ),
        30.0,
        keep=True,
    )["params"]["checkpoint"]


def test_a_name_that_is_not_utf8_is_shown_and_restored(client: RpcClient, tmp_path: Path) -> None:
    folder = repository(tmp_path / "repo")
    odd = folder / ODD
    odd.write_bytes(b"first\n")
    sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
    before = turn(client, sid)
    odd.write_bytes(b"second\n")
    (folder / "app.py").write_text("print(2)\n")
    after = turn(client, sid)

    for to in (after["id"], None):  # between two checkpoints, and to the folder now
        params = {"sessionId": sid, "from": before["id"], **({"to": to} if to else {})}
        changed = client.call("changes.get", params)
        assert sorted(f["path"] for f in changed["files"]) == ["app.py", ODD_SHOWN]
        [entry] = [f for f in changed["files"] if f["path"] == ODD_SHOWN]
        assert "-first" in entry["diff"] and "+second" in entry["diff"]

    one = client.call(
        "changes.restore", {"sessionId": sid, "checkpointId": before["id"], "paths": [ODD_SHOWN]}
    )
    assert one["restored"] == [ODD_SHOWN] and one["skipped"] == []
    assert odd.read_bytes() == b"first\n" and (folder / "app.py").read_text() == "print(2)\n"
    undone = client.call(
        "changes.restore", {"sessionId": sid, "checkpointId": one["checkpoint"]["id"]}
    )
    assert undone["restored"] == [ODD_SHOWN] and odd.read_bytes() == b"second\n"

    odd.unlink()  # removed since: the whole restore makes it again, under its own bytes
    whole = client.call("changes.restore", {"sessionId": sid, "checkpointId": before["id"]})
    assert sorted(whole["restored"]) == ["app.py", ODD_SHOWN]
    assert odd.read_bytes() == b"first\n" and (folder / "app.py").read_text() == "print(1)\n"
    listed = client.call("checkpoints.list", {"sessionId": sid})["checkpoints"]
    assert listed[0]["id"] == whole["checkpoint"]["id"]  # every answer arrived, in order


def test_a_file_grown_past_the_limit_is_skipped_and_the_undo_loses_nothing(
    client: RpcClient, tmp_path: Path
) -> None:
    folder = repository(tmp_path / "repo")
    results = folder / "results.csv"
    results.write_text("a,b\n1,2")  # 7 bytes: recorded
    sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
    before = turn(client, sid)
    grown = b"a,b\n" + b"1,2\n" * 420_000  # 1.68 MB: over the 1 MiB a record keeps
    results.write_bytes(grown)
    (folder / "app.py").write_text("print(2)\n")

    done = client.call("changes.restore", {"sessionId": sid, "checkpointId": before["id"]})
    assert done["restored"] == ["app.py"] and done["skipped"] == ["results.csv"]
    assert results.read_bytes() == grown  # not written over
    one = client.call(
        "changes.restore",
        {"sessionId": sid, "checkpointId": before["id"], "paths": ["results.csv"]},
    )
    assert one["restored"] == [] and one["skipped"] == ["results.csv"]

    client.call("changes.restore", {"sessionId": sid, "checkpointId": done["checkpoint"]["id"]})
    assert results.read_bytes() == grown  # the undo keeps it too
    assert (folder / "app.py").read_text() == "print(2)\n"


def test_a_file_ignored_since_is_skipped_and_the_undo_loses_nothing(
    client: RpcClient, tmp_path: Path
) -> None:
    folder = repository(tmp_path / "repo")
    secret = folder / "local.env"
    secret.write_text("TOKEN=old\n")
    sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
    before = turn(client, sid)
    (folder / ".gitignore").write_text("build/\n*.log\nlocal.env\n")
    secret.write_text("TOKEN=new\n")

    done = client.call("changes.restore", {"sessionId": sid, "checkpointId": before["id"]})
    assert done["restored"] == [".gitignore"] and done["skipped"] == ["local.env"]
    assert secret.read_text() == "TOKEN=new\n"
    client.call("changes.restore", {"sessionId": sid, "checkpointId": done["checkpoint"]["id"]})
    assert secret.read_text() == "TOKEN=new\n"
    assert "local.env" in (folder / ".gitignore").read_text()


def test_a_folder_where_a_file_was_is_skipped_not_half_restored(
    client: RpcClient, tmp_path: Path
) -> None:
    folder = repository(tmp_path / "repo")
    sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
    before = turn(client, sid)
    (folder / "data.txt").unlink()
    (folder / "data.txt").mkdir()
    (folder / "data.txt" / "inside.log").write_text("kept\n")  # ignored: not recorded
    (folder / "app.py").write_text("print(2)\n")

    done = client.call("changes.restore", {"sessionId": sid, "checkpointId": before["id"]})
    assert done["restored"] == ["app.py"] and done["skipped"] == ["data.txt"]
    assert (folder / "app.py").read_text() == "print(1)\n"
    assert (folder / "data.txt" / "inside.log").read_text() == "kept\n"
    client.call("changes.restore", {"sessionId": sid, "checkpointId": done["checkpoint"]["id"]})
    assert (folder / "app.py").read_text() == "print(2)\n"
    assert (folder / "data.txt" / "inside.log").read_text() == "kept\n"
    assert checkpoint_told(client, sid, "restore")["reason"] == "restore"


def test_a_restore_and_its_undo_leave_files_they_do_not_change_untouched(
    client: RpcClient, tmp_path: Path
) -> None:
    """Issue 46, item 14: a build that goes by modification times is not broken by a
    restore: the files it does not change keep their times, and their inodes."""
    folder = repository(tmp_path / "repo")
    kept = [folder / f"src/m{n}.py" for n in range(5)] + [folder / "README.md"]
    for n, path in enumerate(kept):
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"x = {n}\n")
        os.utime(path, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000 + n))
    stamps = {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in kept}
    sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
    before = turn(client, sid)
    (folder / "app.py").write_text("print(2)\n")

    done = client.call("changes.restore", {"sessionId": sid, "checkpointId": before["id"]})
    assert done["restored"] == ["app.py"]
    assert (folder / "app.py").read_text() == "print(1)\n"
    assert {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in kept} == stamps
    undone = client.call(
        "changes.restore", {"sessionId": sid, "checkpointId": done["checkpoint"]["id"]}
    )
    assert undone["restored"] == ["app.py"] and (folder / "app.py").read_text() == "print(2)\n"
    assert {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in kept} == stamps
