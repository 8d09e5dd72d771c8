"""The ACP trace is bounded (issue 46, point 11): past its size a trace file is rotated,
so one agent process's trace never holds more than twice TRACE_FILE on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from host.acp import trace as trace_module
from host.acp.trace import Trace


def test_a_trace_rotates_past_its_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(trace_module.TRACE_ENV, str(tmp_path))
    monkeypatch.setattr(trace_module, "TRACE_FILE", 64 * 1024)
    trace = Trace.open("scripted agent", 42)
    assert trace is not None
    for i in range(2_000):  # about 9 MiB of lines cut at 4 KiB each
        trace.write("<", f"{i:05} ".encode() + b"x" * 5000)
    trace.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["scripted_agent-42.log", "scripted_agent-42.log.1"]
    sizes = [p.stat().st_size for p in tmp_path.iterdir()]
    assert all(size <= 64 * 1024 for size in sizes)
    newest = (tmp_path / "scripted_agent-42.log").read_bytes().splitlines()[-1]
    assert b"01999 " in newest  # the newest lines are kept
