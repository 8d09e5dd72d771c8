"""The project's library methods through the real host process: `sessions.rename`,
`sessions.search` (FTS5 in the host's database, kept with each message) and
`sessions.export` (a session as Markdown)."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from harness.host_process import HostProcess, RpcClient, RpcErrorReply, running_host
from host.store import db as store
from host.store.migrations import MIGRATIONS, migrate


def demo_turn(client: RpcClient, text: str, title: str | None = None) -> str:
    params = {"mode": "agent"} if title is None else {"mode": "agent", "title": title}
    sid: str = client.call("sessions.create", params)["id"]
    turn = client.call("turns.start", {"sessionId": sid, "text": text})
    assert client.wait_turn_end(turn["id"])["state"] == "completed"
    return sid


def test_a_renamed_session_is_told_and_kept(host: HostProcess) -> None:
    client = host.connect()
    sid = client.call("sessions.create", {"mode": "agent"})["id"]
    renamed = client.call("sessions.rename", {"sessionId": sid, "title": "  Tidy the parser  "})
    assert renamed["title"] == "Tidy the parser"
    told = client.wait_notification(
        lambda n: n["method"] == "sessions.changed" and n["params"]["title"] == "Tidy the parser"
    )
    assert told["params"]["id"] == sid
    # a later first message no longer names it
    turn = client.call("turns.start", {"sessionId": sid, "text": "1. one\n2. two"})
    client.wait_turn_end(turn["id"])
    assert client.call("sessions.get", {"sessionId": sid})["title"] == "Tidy the parser"
    for bad in ("   ", "x" * 501):
        with pytest.raises(RpcErrorReply) as refused:
            client.call("sessions.rename", {"sessionId": sid, "title": bad})
        assert refused.value.code == -32602
    with pytest.raises(RpcErrorReply) as missing:
        client.call("sessions.rename", {"sessionId": "nope", "title": "x"})
    assert missing.value.code == -32010


def test_search_finds_titles_and_what_was_said_newest_first(host: HostProcess) -> None:
    client = host.connect()
    first = demo_turn(client, "1. Migrate the parser to tree-sitter\n2. Résumé the tests")
    second = demo_turn(client, "1. Write the release notes\n2. Mention the parser")
    hits = client.call("sessions.search", {"query": "parser"})["hits"]
    titled = [h for h in hits if h["messageId"] is None]
    said = [h for h in hits if h["messageId"] is not None]
    assert [h["sessionId"] for h in titled] == [first]  # its title holds the word
    assert titled[0]["snippet"] == "Migrate the parser to tree-sitter"
    assert [h["sessionId"] for h in said][:2] == [second, first]  # newest first
    hit = next(h for h in said if h["role"] == "user")
    assert "\n" not in hit["snippet"]
    assert [hit["snippet"][a:b].casefold() for a, b in hit["marks"]] == ["parser"]
    # the last word a prefix, accents folded, every word required
    assert {h["sessionId"] for h in client.call("sessions.search", {"query": "rele"})["hits"]} == {
        second
    }
    resume = client.call("sessions.search", {"query": "resume"})["hits"]
    assert first in {h["sessionId"] for h in resume}
    assert not client.call("sessions.search", {"query": "release tree"})["hits"]
    # what would be FTS5 syntax is only words; punctuation alone finds nothing
    for odd in ('"parser', "parser (", "(parser)", "parser*", "-parser", "parser:"):
        found = client.call("sessions.search", {"query": odd})["hits"]
        assert first in {h["sessionId"] for h in found if h["messageId"] is None}, odd
    assert client.call("sessions.search", {"query": "(*) ::"})["hits"] == []
    # a deleted session is never found again
    client.call("sessions.delete", {"sessionId": second})
    after = client.call("sessions.search", {"query": "parser"})["hits"]
    assert second not in {h["sessionId"] for h in after}
    with pytest.raises(RpcErrorReply) as blank:
        client.call("sessions.search", {"query": "  "})
    assert blank.value.code == -32602


def test_transcripts_stored_before_the_index_are_found(tmp_path: Path, socket_path: str) -> None:
    """Schema 29's migration indexes what a schema 28 file holds."""
    data = tmp_path / "data"
    data.mkdir()
    connection = apsw.Connection(str(data / store.DB_FILENAME))
    migrate(connection, MIGRATIONS, target=28)
    connection.execute(
        "INSERT INTO sessions (id, title, mode, origin, created_at, updated_at) VALUES"
        " ('s1', 'old', 'agent', 'local', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');"
        "INSERT INTO messages (id, session_id, seq, role, content, created_at) VALUES"
        " ('m1', 's1', 1, 'user', 'the flaky websocket', '2026-01-01T00:00:00.000Z'),"
        " ('m2', 's1', 2, 'tool', 'websocket in a tool output', '2026-01-01T00:00:00.000Z')"
    )
    connection.close()
    with running_host(data, socket_path) as host:
        hits = host.connect().call("sessions.search", {"query": "websocket"})["hits"]
    assert [(h["sessionId"], h["messageId"]) for h in hits] == [("s1", "m1")]


def test_export_writes_the_session_as_markdown(host: HostProcess, tmp_path: Path) -> None:
    client = host.connect()
    sid = demo_turn(client, "1. Read the code\n2. Fix the bug")
    target = tmp_path / "out" / "session.md"
    target.parent.mkdir()
    done = client.call("sessions.export", {"sessionId": sid, "path": str(target)})
    text = target.read_text()
    assert done == {"path": str(target), "bytes": len(text.encode())}
    assert text.startswith("# Read the code\n")
    assert "## Checklist\n\nRevision" in text and "- [x] Fix the bug" in text
    assert "### You\n\n1. Read the code\n2. Fix the bug" in text
    assert "## Checklist history" in text and "### Revision 1 " in text
    # an existing file is kept unless replaced; a relative path or a missing folder refused
    target.write_text("mine")
    missing = str(tmp_path / "missing" / "s.md")
    for params in (
        {"path": str(target)},
        {"path": "session.md"},
        {"path": missing},
        {"path": str(tmp_path)},
    ):
        with pytest.raises(RpcErrorReply) as refused:
            client.call("sessions.export", {"sessionId": sid, **params})
        assert refused.value.code == -32602
    assert target.read_text() == "mine"
    assert [p.name for p in target.parent.iterdir()] == ["session.md"]  # no leftovers
    client.call("sessions.export", {"sessionId": sid, "path": str(target), "replace": True})
    assert target.read_text().startswith("# Read the code")


def test_a_nul_in_a_search_is_a_space_not_an_error(tmp_path: Path) -> None:
    """Issue 46, point 12: a NUL in `sessions.search` was -32603 "SQLError"."""
    from harness.host_process import host_env, running_host

    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), host_env()) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"title": "parser fixes"})["id"]
        for query in ("parser\u0000fixes", "\u0000", "pars\u0000"):
            found = client.call("sessions.search", {"query": query})
            assert isinstance(found["hits"], list), query
        hits = client.call("sessions.search", {"query": "parser\u0000fixes"})["hits"]
        assert [h["sessionId"] for h in hits] == [sid]


def test_an_export_onto_a_link_keeps_the_link_and_the_mode(tmp_path: Path) -> None:
    """Issue 46, point 13: an export onto a link replaced the link with a file, and the
    replaced file's mode was dropped."""
    import os

    from harness.host_process import host_env, running_host

    real = tmp_path / "notes" / "real.md"
    real.parent.mkdir()
    real.write_text("old\n")
    os.chmod(real, 0o640)
    link = tmp_path / "out.md"
    link.symlink_to(real)
    with running_host(tmp_path / "data", str(tmp_path / "h.sock"), host_env()) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"title": "kept as it was"})["id"]
        client.call("sessions.export", {"sessionId": sid, "path": str(link), "replace": True})
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert "kept as it was" in real.read_text()
    assert os.stat(real).st_mode & 0o777 == 0o640
