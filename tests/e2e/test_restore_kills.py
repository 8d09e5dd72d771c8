"""Kill -9 during restores and checkpoints loses nothing (issue 46): the real host process,
killed 100 times at moments spread over a restore's and a turn's work, started again on
the same data folder each time. After each start the folder is wholly as it was before
the restore or wholly as the restore makes it (a restore a kill stopped part-way is
finished at the start, and its session's transcript says so), no temporary file of the
restore's is left in it, and the next restore and checkpoints work."""

from __future__ import annotations

import json
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from harness.host_process import RpcClient, host_env, running_host
from harness.waiting import until_now
from tests.e2e.test_restore_safety import turn

KILLS = 100
FILES = 300

pytestmark = pytest.mark.timeout(600)


def state(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def written(folder: Path, version: str) -> None:
    """Each file as `version` has it: A has f0..f299, B changes them, drops ten and adds
    ten more."""
    for i in range(FILES):
        path = folder / f"d{i % 7}" / f"f{i}.txt"
        path.parent.mkdir(exist_ok=True)
        if version == "B" and i < 10:
            path.unlink(missing_ok=True)
        else:
            path.write_text(f"{version} {i}\n" * 300)
    for i in range(10):
        extra = folder / f"new{i}.txt"
        if version == "B":
            extra.write_text(f"B extra {i}\n" * 300)
        else:
            extra.unlink(missing_ok=True)


def journals(data: Path) -> list[Path]:
    return list((data / "checkpoints").glob("*/nib-restoring.json"))


def notes(client: RpcClient, sid: str) -> list[str]:
    listed = client.call("messages.list", {"sessionId": sid})["messages"]
    return [m["content"] for m in listed if m["content"].startswith("A restore of this folder")]


def test_kills_during_restores_and_checkpoints_lose_nothing(tmp_path: Path) -> None:
    data, folder, sock = tmp_path / "data", tmp_path / "work", str(tmp_path / "h.sock")
    folder.mkdir()
    written(folder, "A")
    with running_host(data, sock, host_env()) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"cwd": str(folder)})["id"]
        points = {"A": turn(client, sid)["id"]}
        versions = {"A": state(folder)}
        written(folder, "B")
        points["B"] = turn(client, sid)["id"]
        versions["B"] = state(folder)
        t0 = time.monotonic()
        client.call("changes.restore", {"sessionId": sid, "checkpointId": points["A"]})
        took = time.monotonic() - t0  # a whole restore, to spread the kills over
        assert state(folder) == versions["A"]
    now, told = "A", 0
    draw = random.Random(46)
    finished = 0
    for kill in range(KILLS):
        with running_host(data, sock, host_env()) as host:
            client = host.connect()
            until_now(lambda: not journals(data), 30, "a restore a kill stopped finished")
            found = state(folder)
            assert found in (versions["A"], versions["B"]), f"kill {kill}: the folder is mixed"
            now = "A" if found == versions["A"] else "B"
            assert not [p for p in folder.rglob("*nib-restore*")], f"kill {kill}: leftovers"
            assert len(notes(client, sid)) == told, f"kill {kill}: the finishing not said"
            other = "B" if now == "A" else "A"
            if kill % 4 == 3:  # a turn: its checkpoints, killed while they are taken
                method, params = "turns.start", {"sessionId": sid, "text": "demo: 2 steps"}
            else:
                method, params = (
                    "changes.restore",
                    {"sessionId": sid, "checkpointId": points[other]},
                )
            client.send({"jsonrpc": "2.0", "id": 99, "method": method, "params": params})
            time.sleep(draw.uniform(0, took * 1.3))  # the kill's moment, drawn
            host.proc.send_signal(signal.SIGKILL)
            host.proc.wait(10)
            if journals(data):
                told += 1  # the next start finishes it, and says so
                finished += 1
    with running_host(data, sock, host_env()) as host:
        client = host.connect()
        until_now(lambda: not journals(data), 30, "the last restore finished")
        assert state(folder) in (versions["A"], versions["B"])
        assert len(notes(client, sid)) == told
        # the store still records and restores: a turn's checkpoints, then a restore
        checkpoint = turn(client, sid)
        assert checkpoint["files"] == FILES  # A and B have as many files
        back: dict[str, Any] = client.call(
            "changes.restore", {"sessionId": sid, "checkpointId": points["A"]}
        )
        assert state(folder) == versions["A"], json.dumps(back)[:500]
    print(f"{KILLS} kills, {finished} of them during a restore's writes (finished at start)")
    assert finished >= 5  # the kills did land inside the writes
