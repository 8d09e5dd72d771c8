"""settings.json changed on what the file holds when the change is made (issue 46, point
10): an editor's save that lands while a change is being made, of the same size and
within the file system's clock tick (so `stat` sees no difference), is never written
over with the older copy: the change is made again on the newer file."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from host import settings as settings_module
from host.events import Publisher
from host.protocol import models as m
from host.settings import Settings


def test_a_save_within_the_clock_tick_is_not_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"editor": 1111}))
    stamp = os.stat(path)
    original = settings_module.read_settings_file
    saves: list[int] = []  # armed once the host's settings are made

    def read_then_the_editor_saves(data_dir: Path) -> dict[str, Any] | None:
        read = original(data_dir)
        while saves:  # once: the editor saves in place right after the host read
            n = saves.pop()
            with path.open("r+") as handle:
                handle.write(json.dumps({"editor": n}))
            os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # the same tick
        return read

    monkeypatch.setattr(settings_module, "read_settings_file", read_then_the_editor_saves)

    async def nothing() -> None:
        return None

    async def change() -> None:
        settings = Settings(tmp_path, Publisher(), nothing)
        saves.append(2222)
        await settings.set(m.SettingsSetParams(desktop=m.DesktopChange(badge=False)))

    asyncio.run(change())
    held = json.loads(path.read_text())
    assert held["editor"] == 2222  # the editor's save kept
    assert held["desktop"] == {"badge": False}  # and the change made on it
