"""settings.json is read safely: only a regular file of at most 1 MiB, any JSON problem
in words naming the file (contract section 13's settings and section 15's agents too)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.host_process import running_host
from host.acp.config import load_agents
from host.config import SettingsError, load_settings, read_settings_file
from host.tools.mcp_config import load_servers


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda p: os.mkfifo(p), "is not a regular file"),
        (lambda p: p.write_text('{"x": "' + "a" * (1024 * 1024) + '"}'), "is over 1 MiB"),
        (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "nested too deeply"),
        (lambda p: p.write_text('{"a": 1,}'), "is not valid JSON: Expecting property name"),
        (lambda p: p.write_text("[1, 2]"), "must hold a JSON object"),
    ],
    ids=["fifo", "huge", "nested", "broken", "array"],
)
def test_a_bad_settings_file_is_an_error_in_words(tmp_path: Path, make, words: str) -> None:
    make(tmp_path / "settings.json")
    with pytest.raises(SettingsError, match=words):
        read_settings_file(tmp_path)
    with pytest.raises(SettingsError, match=words):
        load_settings(tmp_path, environ={})
    (problem,) = load_servers(tmp_path)
    assert problem.name == "settings.json" and words in (problem.problem or "")
    assert load_agents(tmp_path) == []


def test_no_settings_file_is_no_settings(tmp_path: Path) -> None:
    assert read_settings_file(tmp_path) is None
    assert load_servers(tmp_path) == [] and load_agents(tmp_path) == []


def test_a_fifo_for_settings_does_not_stop_the_host(tmp_path: Path, socket_path: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / "settings.json")
    with running_host(data, socket_path) as host:  # the ready line came
        client = host.connect()
        sid = client.call("sessions.create", {})["id"]
        turn = client.call("turns.start", {"sessionId": sid, "text": "hello"})
        ended = client.wait_turn_end(turn["id"])
        assert ended["state"] == "failed" and "is not a regular file" in ended["error"]
