"""What the docs keep getting wrong, checked against the code (issue 48, point 8): the
schema version, the Main role's rooms, the views, the benchmarks the README lists."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Signal

from host.protocol import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
# what the walks of a `todos.changed` and of a streamed piece name, with their counts
WALKS_NAME = ("`RpcClient.notification`", "`Router.todos_changed`", "`Router.messages_delta`")
WALKS_NAME += ("`Pieces.since`", "`liveAppended`", "Six steps", "Five steps", "eleven")


def test_the_schema_version_is_the_hosts() -> None:
    said = re.search(r"A file newer than the host knows \((\d+)\)", ARCHITECTURE)
    assert said is not None and int(said.group(1)) == SCHEMA_VERSION
    assert f"{SCHEMA_VERSION} a session's own git worktree" in ARCHITECTURE.replace("\n  ", " ")
    # and the picture of the two processes
    assert re.findall(r"apsw, v(\d+)", ARCHITECTURE) == [str(SCHEMA_VERSION)]


def test_every_room_of_the_main_role_is_in_the_docs() -> None:
    rooms = sorted(p.parent.name for p in (ROOT / "nib_desktop").glob("*/__init__.py"))
    for room in rooms:
        assert f"| `{room}/` |" in ARCHITECTURE, room
        assert f"`{room}/`" in README, room


def test_every_view_is_named_in_the_docs() -> None:
    views = set()
    for path in (ROOT / "ui" / "views").glob("*.py"):
        views |= set(re.findall(r"^class (\w+View)\(QObject\)", path.read_text(), re.M))
    assert len(views) >= 15
    assert sorted(v for v in views if f"`{v}`" not in ARCHITECTURE) == []


def test_every_benchmark_is_named_in_the_readme() -> None:
    benches = {p.stem for p in (ROOT / "bench").glob("*.py")} - {"__init__", "stats"}
    assert sorted(b for b in benches if f"`{b}`" not in README) == []


def test_the_walks_name_the_code_that_takes_their_steps() -> None:
    """The two walks of docs/architecture.md (a `todos.changed` and a streamed piece) name
    each hop; each named hop exists, and the hops the walks say are gone stay gone."""
    from nib_desktop.inbound.router import HistoryFeed, Router
    from nib_desktop.link.connection import HostConnection
    from nib_desktop.link.rpc_client import RpcClient
    from nib_desktop.state.pieces import Pieces
    from ui.views.transcript import TranscriptView

    walks = ARCHITECTURE.replace("\n  ", " ")
    for named in WALKS_NAME:
        assert named in walks, named
    assert hasattr(RpcClient, "notification") and hasattr(TranscriptView, "liveAppended")
    assert callable(Router.todos_changed) and callable(Router.messages_delta)
    assert callable(Pieces.since) and callable(HistoryFeed.commit_told)
    # no re-emitting hop, and the window diffs no checklist the host diffed already
    assert not isinstance(HostConnection.__dict__.get("notification"), Signal)
    window = [*(ROOT / "nib_desktop").rglob("*.py"), *(ROOT / "ui").rglob("*.py")]
    assert [p.name for p in window if "todo_diff" in p.read_text(encoding="utf-8")] == []
