"""A turn reads its settings once, into one immutable object that its delegated Task and
sampling use too; the credentials it loaded are hidden by that host's own redactor, not
by a global one. In process, with the real OpenAI SDK against the scripted endpoint."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness.fake_openai import Call, HttpError, Reply
from host import config
from host.agent import runtime as runtime_module
from host.config import Secrets, Settings
from host.core import HostCore
from host.protocol import models as m

KEY = "sk-turn-settings-key"


def run_turn(core: HostCore, text: str) -> m.Turn:
    async def body() -> m.Turn:
        session = core.sessions.create(m.CreateSessionParams())
        turn = core.runtime.start(m.StartTurnParams(session_id=session.id, text=text))
        await core.runtime.finish_running()
        await core.runtime.shutdown()
        return core.sessions.turns.get(session.id, turn.id)

    return asyncio.run(asyncio.wait_for(body(), 30))


@pytest.fixture
def counted(monkeypatch, fake_openai) -> list[Settings]:
    for name, value in {
        "NIB_PROVIDER": "openai",
        "NIB_OPENAI_BASE_URL": fake_openai.base_url,
        "NIB_OPENAI_API_KEY": KEY,
        "NIB_MODEL": "m",
    }.items():
        monkeypatch.setenv(name, value)
    loads: list[Settings] = []

    def load(data_dir: Path | None) -> Settings:
        loads.append(config.load_settings(data_dir))
        return loads[-1]

    monkeypatch.setattr(runtime_module, "load_settings", load)
    return loads


def test_a_turn_with_a_delegated_task_reads_its_settings_once(
    tmp_path, counted, fake_openai
) -> None:
    fake_openai.script = [
        Reply("", (Call("Task", {"description": "look", "prompt": "find it"}, id="t1"),)),
        Reply("found it"),  # the delegated sub-agent's answer
        Reply("done"),
    ]
    core = HostCore(tmp_path)
    try:
        assert run_turn(core, "look for it").state == "completed"
    finally:
        core.close()
    assert len(fake_openai.requests) == 3 and len(counted) == 1


def test_a_failed_turn_is_redacted_by_its_host_without_reading_again(
    tmp_path, counted, fake_openai
) -> None:
    fake_openai.script = [HttpError(401, f"Incorrect API key provided: {KEY}")]
    secrets = Secrets()
    core = HostCore(tmp_path, secrets=secrets)
    try:
        ended = run_turn(core, "hello")
    finally:
        core.close()
    assert ended.state == "failed" and KEY not in (ended.error or "")
    assert "***" in (ended.error or "") and len(counted) == 1
    # the key is this host's secret, not everyone's
    assert secrets.redact(KEY) == "***" and Secrets().redact(KEY) == KEY
    assert not hasattr(config, "SECRETS")
